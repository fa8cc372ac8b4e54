"""`marketfold worker`: an RQ worker plus a deadline sweeper thread."""

from __future__ import annotations

import logging
import threading
import time

import redis
from rq import SimpleWorker

from service import config
from service.deps import Deps
from workers import schedule

logger = logging.getLogger(__name__)
SWEEP_EVERY_S = 0.25


def _sweep_forever(deps: Deps, stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            schedule.sweep(deps, time.time())
        except redis.ConnectionError as e:  # keep sweeping through a Redis restart
            logger.warning("deadline sweep: Redis unreachable (%s); retrying", e)
            stop.wait(1.0)
        except Exception:
            logger.exception("deadline sweep failed")
            stop.wait(1.0)
        stop.wait(SWEEP_EVERY_S)


def run(burst: bool = False) -> None:
    """Run a worker on the configured queue until it is told to stop."""
    cfg = config.load()
    deps = Deps.from_config(cfg)
    stop = threading.Event()
    sweeper = threading.Thread(
        target=_sweep_forever,
        args=(Deps.from_config(cfg), stop),
        name="deadline-sweeper",
        daemon=True,
    )
    sweeper.start()
    try:
        worker = SimpleWorker([deps.queue], connection=deps.queue.connection)
        worker.work(burst=burst, with_scheduler=True, logging_level="WARNING")
    finally:
        stop.set()
