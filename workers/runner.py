"""`marketfold worker`: an RQ worker plus a deadline sweeper thread and the notifier's
threads (workers.notifier).

A Redis outage is logged one line per failure (`OneLine`), never a traceback per retry;
and RQ's scheduler child, which exits when Redis stays away longer than its retries,
is reaped and started again by the sweeper within a sweep (RQ itself looks every ten
minutes, leaving a zombie meanwhile).
"""

from __future__ import annotations

import logging
import threading
import time

import redis
from rq import SimpleWorker

from service import backfill, bootstrap, metrics, outages, stalled, transparency
from workers import jobs
from workers.notifier import Notifier

logger = logging.getLogger(__name__)
SWEEP_EVERY_S = 0.25
TLOG_SWEEP_EVERY_S = 60  # leaves of the public log a writer died before appending
REDIS_DOWN = (redis.ConnectionError, redis.TimeoutError)


class OneLine(logging.Filter):
    """Shorten a log record about Redis being unreachable to one line: RQ logs a whole
    traceback (in the message or as exc_info) each time its scheduler or worker meets a
    lost connection."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, REDIS_DOWN):
            record.msg, record.args = f"{record.getMessage()}: {type(exc).__name__}: {exc}", ()
            record.exc_info, record.exc_text = None, None
        elif isinstance(record.msg, str) and "Traceback (most recent call last)" in record.msg:
            text = record.getMessage()
            last = text.strip().splitlines()[-1]
            if last.startswith(
                ("redis.exceptions.ConnectionError", "redis.exceptions.TimeoutError")
            ):
                record.msg, record.args = f"{text.split(chr(10), 1)[0]} {last}", ()
        return True


def install_one_line() -> None:
    """Put `OneLine` on every handler of the root logger (where RQ's records end)."""
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, OneLine) for f in handler.filters):
            handler.addFilter(OneLine())


def log_failure(job, exc_type, exc_value, tb) -> bool:
    """Say a failed job in one line (RQ retries it as its Retry says, then keeps it in the
    failed-job registry); True: RQ's own handling follows."""
    logger.error(
        "job %s failed: %s: %s",
        job.id,
        exc_type.__name__,
        exc_value,
        extra={"job": job.id, "error": exc_type.__name__, "retries_left": job.retries_left},
    )
    return True


def keep_scheduler(worker: SimpleWorker) -> None:
    """Reap RQ's scheduler child if it has exited (`is_alive` waits for it) and start it
    again; nothing when this worker runs no scheduler (another one holds the lock), nor
    once the worker was told to stop: the child then exited on the same signal, and one
    started again would be waited for at the worker's exit, for ever."""
    scheduler = worker.scheduler
    process = scheduler._process if scheduler is not None else None
    if process is None or process.is_alive():
        return
    if getattr(worker, "_shutdown_requested_date", None) is not None:
        return
    logger.warning("RQ's scheduler exited (code %s); starting it again", process.exitcode)
    scheduler._process = None
    scheduler.acquire_locks(auto_start=True)


def _sweep_forever(
    boot: bootstrap.Bootstrap,
    stop: threading.Event,
    threshold: float,
    worker: SimpleWorker | None = None,
) -> None:
    scheduler, indexed, logged = boot.scheduler, False, 0.0
    ready = stalled.Sweep(boot, float(boot.config["STALLED_SWEEP_S"]))
    while not stop.is_set():
        try:
            if worker is not None:
                keep_scheduler(worker)
            if not indexed:  # games stored before the lobby existed, once per start
                backfill.run(boot)
                indexed = True
            if time.monotonic() - logged > TLOG_SWEEP_EVERY_S or not logged:
                transparency.sweep(boot)
                logged = time.monotonic()
            for game_id, phase in ready.step(time.time(), time.monotonic()):
                logger.warning("game %s: ready phase %s was never queued; queued", game_id, phase)
            # the heartbeat first: an outage it ends is recorded before any deadline is swept
            if gap := outages.beat(boot.operations, time.time(), threshold):
                logger.warning("outage %s: deadlines in it get fresh ones", outages.span(gap))
            scheduler.sweep(time.time())
        except REDIS_DOWN as e:  # keep sweeping through a Redis restart or stall: one line
            metrics.redis_error("sweeper", e)
            logger.warning("deadline sweep: Redis unreachable (%s); retrying", e)
            stop.wait(1.0)
        except Exception:
            logger.exception("deadline sweep failed")
            stop.wait(1.0)
        stop.wait(SWEEP_EVERY_S)


def run(deps: bootstrap.Bootstrap, sweeper_boot: bootstrap.Bootstrap, burst: bool = False) -> None:
    """Run a worker on the configured queue until it is told to stop; its jobs run in this
    process, on `deps` (where tests may install a hook first), and the deadline sweeper on
    `sweeper_boot`, connections of its own (both built by cli/compose.py)."""
    install_one_line()
    jobs.use(deps)
    queues = deps.scheduler.queues  # work to do now first, then work that fell due
    stop = threading.Event()
    worker = SimpleWorker(queues, connection=queues[0].connection, exception_handlers=[log_failure])
    sweeper = threading.Thread(
        target=_sweep_forever,
        args=(sweeper_boot, stop, float(sweeper_boot.config["OUTAGE_AFTER_S"]), worker),
        name="deadline-sweeper",
        daemon=True,
    )
    sweeper.start()
    notifier = Notifier(deps, int(deps.config["NOTIFY_THREADS"]))
    notifying = threading.Thread(target=notifier.forever, args=(stop,), name="notifier")
    notifying.start()
    try:
        worker.work(burst=burst, with_scheduler=True, logging_level="WARNING")
    finally:
        stop.set()
        notifying.join()
