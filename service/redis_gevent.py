"""redis-py's zero-timeout readiness check, done without a trip through gevent's hub.

Before lending a pooled connection, redis-py asks whether it has unread data (a stale
reply would be read as the next command's): a poll with a zero timeout. Under gevent's
monkey-patching that poll is gevent's, which starts a watcher and runs a turn of the hub
to answer a question the kernel answers at once. It was the largest single cost redis-py
added to an action (py-spy: ~4% of an API process's samples, twice per POST). A
zero-timeout poll never blocks, so the process's original `select.poll` answers it
here; any other timeout still goes through gevent.
"""

from __future__ import annotations

import select
from typing import Any


def install() -> bool:
    """Route redis-py's zero-timeout check to the original poll if gevent has patched
    `select`; return whether it is in place (idempotent; a no-op without gevent, or on a
    redis-py without this check)."""
    try:
        from gevent import monkey
        from redis._parsers import hiredis
    except ImportError:
        return False
    green = getattr(hiredis, "_socket_can_read", None)
    if green is None or not monkey.is_module_patched("select"):
        return False
    if getattr(green, "unpatched_zero_timeout", False):
        return True
    kernel_poll = monkey.get_original("select", "poll")

    def can_read(sock: Any, timeout: float | None) -> bool:
        if timeout != 0 or (hasattr(sock, "pending") and sock.pending()):
            return green(sock, timeout)
        poller = kernel_poll()
        poller.register(sock.fileno(), select.POLLIN)
        return bool(poller.poll(0))

    can_read.unpatched_zero_timeout = True  # type: ignore[attr-defined]
    hiredis._socket_can_read = can_read
    return True
