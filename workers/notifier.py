"""The notification steps (service.notify.dispatch), run by a pool of threads in every
worker instead of as RQ jobs.

A step is a member `<step>|<subject>|<key>` of a due set, scored by when it is due:
`mf:notify:turns` for the steps of decisions owed (a "your turn", its reminder), taken
first, so that a burst of other news (a league round's game starts) never holds up a turn,
and `mf:notify:due` for the others. The notifier claims due members as the deadline
sweeper does (events.scripts.CLAIM_DUE: the score is pushed `CLAIM_S` into the future),
never more than its threads can start at once, runs each, and removes the member once it
has run (a step that rescheduled
itself, a retry or a postponement, stays due at its new time). A worker killed mid-step
leaves the member, whose claim lapses, and a notifier runs it again: every step is
written to be run twice (the module of service.notify.dispatch says how).

Why threads and not RQ jobs: a delivery is mostly waiting on an SMTP server or a webhook
receiver, and RQ's own bookkeeping per job (about twenty round trips to Redis) cost more
than the step itself; a backlog of messages also never sits in front of a game's work,
which keeps RQ to itself.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from events import keys, scripts
from service import metrics
from service.bootstrap import Bootstrap
from service.notify import dispatch
from service.ports import Status

logger = logging.getLogger(__name__)
STEPS: dict[str, Callable[[Bootstrap, str, str], Status]] = {
    "notify": dispatch.plan,  # notify|<player>|<id>: plan a new note's deliveries
    "deliver": dispatch.deliver,  # deliver|<id>|<channel>-<target>-<player>: send one
    "remind": dispatch.remind,  # remind|<player>|<id>: write a deadline reminder
    "digest": lambda boot, player, key: dispatch.digest(boot, player),  # digest|<player>|daily
    "mail": lambda boot, player, key: dispatch.mail_verification(boot, player),  # mail|<p>|verify
}
IDLE_S = 0.25  # between looks at the due steps when none was due


def _lower(nice: int) -> None:
    """Lower this thread's CPU priority by `nice` (Linux sets it per thread; elsewhere, or
    if refused, the thread keeps its priority)."""
    if nice <= 0 or not hasattr(os, "setpriority"):
        return
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + nice)
    except OSError as e:
        logger.warning("notifier threads keep their CPU priority: %s", e)


class Notifier:
    """Claims due notification steps and runs them on `threads` threads."""

    def __init__(self, boot: Bootstrap, threads: int):
        self.boot, self.threads = boot, max(1, threads)
        self.claim_s = float(boot.config["CLAIM_S"])
        nice = int(boot.config.get("NOTIFY_NICE", 0))
        self.pool = ThreadPoolExecutor(
            self.threads, thread_name_prefix="notify", initializer=_lower, initargs=(nice,)
        )
        self.running = 0
        self.lock = threading.Lock()

    def step(self, now: float) -> int:
        """Claim as many due steps as there are idle threads and start them; return how
        many were started."""
        with self.lock:
            free = self.threads - self.running
        if free <= 0:
            return 0
        claim = scripts.registered(self.boot.redis, scripts.CLAIM_DUE)
        started = 0
        for due_set in (keys.notify_due(turns=True), keys.notify_due()):
            due = claim(keys=[due_set], args=[now, now + self.claim_s, free - started])
            for member in due:
                with self.lock:
                    self.running += 1
                self.pool.submit(self.run, member.decode(), due_set)
            started += len(due)
            if started >= free:
                break
        return started

    def run(self, member: str, due_set: str) -> None:
        """Run one step and take it off the due set unless it is due again later."""
        try:
            job, subject, key = member.split("|", 2)
            started = time.time()
            status = STEPS[job](self.boot, subject, key)
            if not status.still_due:
                self.boot.redis.zrem(due_set, member)
            metrics.job_done(job, str(status), None, None, started)
            # a line per message sent or not; plans and reminders only when debugging
            level = logging.DEBUG if job in ("notify", "remind") else logging.INFO
            logger.log(level, "%s %s of %s: %s", job, key, subject, status)
        except Exception:  # its claim lapses and a notifier runs it again
            logger.exception("notification step %s failed", member)
        finally:
            with self.lock:
                self.running -= 1

    def forever(self, stop: threading.Event) -> None:
        """Run steps until `stop` is set, then let the running ones finish."""
        try:
            while not stop.is_set():
                try:
                    started = self.step(time.time())
                except Exception as e:  # Redis away: try again shortly, one line
                    logger.warning("notification steps: %s: %s", type(e).__name__, e)
                    started = 0
                    stop.wait(1.0)
                if not started:
                    stop.wait(IDLE_S)
                elif self.running >= self.threads:
                    stop.wait(0.02)
        finally:
            self.pool.shutdown(wait=True, cancel_futures=True)
