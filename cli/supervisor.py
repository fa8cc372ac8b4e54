"""A small process supervisor: start children in order, restart the ones that die, stop
them all within a bounded time.

Each child runs in its own session (process group), so a Ctrl-C in the terminal reaches
only the supervisor, which then stops the children in order; and killing a child's group
also reaches whatever it started (gunicorn's workers, RQ's scheduler), so a crashed child
never leaves an orphan holding a port. On Linux each child also gets SIGTERM if the
supervisor itself dies. A child that exits while the supervisor is not stopping is
restarted after a backoff (0.5 s, doubling to 30 s; reset once it has run for a minute),
logged and counted; the others keep running.

Why not supervisord or circus: both are daemons driven by their own configuration and
control channel; `marketfold serve` needs a foreground process that owns three kinds of
child for the length of one command, which is this much code.
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field

logger = logging.getLogger("marketfold.serve")
BACKOFF_MIN_S, BACKOFF_MAX_S, STABLE_S = 0.5, 30.0, 60.0
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In the child, before exec: ask Linux for SIGTERM when the supervisor dies."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except OSError:  # not Linux: children outlive a crashed supervisor
        pass


def spawn(argv: list[str], env: dict[str, str], **kwargs) -> subprocess.Popen:
    """Start a child in its own session, to die with this process."""
    return subprocess.Popen(
        argv,
        env=env,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=_die_with_parent,
        **kwargs,
    )


def kill_group(proc: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
    """Send `sig` to the child's whole process group (it leads its own session)."""
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def describe(code: int) -> str:
    """Describe a Popen return code: 'exit 3' or 'signal SIGKILL'."""
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit {code}"


@dataclass
class Child:
    """One supervised program: `start` returns its running process."""

    name: str
    start: Callable[[], subprocess.Popen]
    store: bool = False  # a store the others use: stopped only once they have all gone
    proc: subprocess.Popen | None = None
    restarts: int = 0
    failures: int = 0  # consecutive short runs, for the backoff
    started_at: float = 0.0
    restart_at: float | None = None

    def launch(self) -> None:
        self.proc = self.start()
        self.started_at = time.monotonic()
        self.restart_at = None

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


@dataclass
class Supervisor:
    """Children in start order; they are stopped in reverse order."""

    children: list[Child] = field(default_factory=list)
    stopping: bool = False

    def add(self, child: Child) -> Child:
        self.children.append(child)
        return child

    def start(self) -> None:
        """Start every child in order; if one fails to start, stop those already started."""
        try:
            for child in self.children:
                child.launch()
        except BaseException:
            self.stop()
            raise

    def check(self) -> None:
        """Restart children that died, once their backoff has passed (call it often)."""
        now = time.monotonic()
        for child in self.children:
            if self.stopping or child.proc is None:
                continue
            code = child.proc.poll()
            if code is not None and child.restart_at is None:
                kill_group(child.proc)  # whatever it started goes with it
                ran = now - child.started_at
                child.failures = 0 if ran >= STABLE_S else child.failures + 1
                delay = min(BACKOFF_MAX_S, BACKOFF_MIN_S * 2 ** max(0, child.failures - 1))
                child.restart_at = now + delay
                logger.warning(
                    "%s stopped (%s) after %.1f s; restarting in %.1f s (restart %d)",
                    child.name,
                    describe(code),
                    ran,
                    delay,
                    child.restarts + 1,
                )
            if child.restart_at is not None and now >= child.restart_at:
                child.restarts += 1
                try:
                    child.launch()
                    logger.warning("%s restarted (pid %d)", child.name, child.proc.pid)
                except Exception:
                    logger.exception("%s could not be restarted; trying again", child.name)
                    child.restart_at = now + BACKOFF_MAX_S

    def restarts(self) -> dict[str, int]:
        """Return how often each child was restarted."""
        return {c.name: c.restarts for c in self.children}

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the children within about `timeout` seconds: every program at once (the
        API, the workers), then the stores in reverse start order, each once nothing uses
        it any more. A worker stopped after its queues' store would spend its stop
        retrying a connection to it (RQ's scheduler releases its lock on the way out)."""
        self.stopping = True
        ends = time.monotonic() + timeout
        programs = [c for c in self.children if not c.store]
        stores = [c for c in reversed(self.children) if c.store]
        share = min(3.0, timeout / 3) if stores else 0.0
        self._stop(programs, ends - share)
        for i, child in enumerate(stores):
            self._stop([child], ends - share * (len(stores) - 1 - i) / len(stores))

    def _stop(self, children: list[Child], until: float) -> None:
        live = [c for c in children if c.proc is not None]
        for child in live:
            if child.proc.poll() is None:
                child.proc.send_signal(signal.SIGTERM)
        for child in live:
            try:
                child.proc.wait(max(0.0, until - time.monotonic()))
            except subprocess.TimeoutExpired:
                logger.warning("%s did not stop in time; killing it", child.name)
            kill_group(child.proc)  # the child if it hangs, and anything it left behind
            child.proc.wait()
