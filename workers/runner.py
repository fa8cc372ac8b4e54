"""`marketfold worker`: an RQ worker plus a deadline sweeper thread."""

from __future__ import annotations

import logging
import threading
import time

import redis
from rq import SimpleWorker

from service import backfill, bootstrap, config, outages, transparency
from workers import jobs
from workers.scheduler import RqScheduler

logger = logging.getLogger(__name__)
SWEEP_EVERY_S = 0.25
TLOG_SWEEP_EVERY_S = 60  # leaves of the public log a writer died before appending


def _sweep_forever(boot: bootstrap.Bootstrap, stop: threading.Event, threshold: float) -> None:
    scheduler, indexed, logged = boot.scheduler, False, 0.0
    while not stop.is_set():
        try:
            if not indexed:  # games stored before the lobby existed, once per start
                backfill.run(boot)
                indexed = True
            if time.monotonic() - logged > TLOG_SWEEP_EVERY_S or not logged:
                transparency.sweep(boot)
                logged = time.monotonic()
            # the heartbeat first: an outage it ends is recorded before any deadline is swept
            if gap := outages.beat(scheduler.redis, time.time(), threshold):
                logger.warning("outage from %s to %s: deadlines in it get fresh ones", *gap)
            scheduler.sweep(time.time())
        except redis.ConnectionError as e:  # keep sweeping through a Redis restart
            logger.warning("deadline sweep: Redis unreachable (%s); retrying", e)
            stop.wait(1.0)
        except Exception:
            logger.exception("deadline sweep failed")
            stop.wait(1.0)
        stop.wait(SWEEP_EVERY_S)


def run(burst: bool = False) -> None:
    """Run a worker on the configured queue until it is told to stop; its jobs run in this
    process, on `workers.jobs.boot()` (where tests may install a hook first)."""
    queue = jobs.boot().scheduler.queue
    stop = threading.Event()
    # the sweeper has connections of its own
    sweeper_boot = bootstrap.connect(config.load(), RqScheduler.connect)
    sweeper = threading.Thread(
        target=_sweep_forever,
        args=(sweeper_boot, stop, float(sweeper_boot.config["OUTAGE_AFTER_S"])),
        name="deadline-sweeper",
        daemon=True,
    )
    sweeper.start()
    try:
        worker = SimpleWorker([queue], connection=queue.connection)
        worker.work(burst=burst, with_scheduler=True, logging_level="WARNING")
    finally:
        stop.set()
