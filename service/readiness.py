"""Readiness: may this API process be sent players' requests? (`GET /readyz`)

`/healthz` is liveness: the process answers and its store answers. Readiness asks more,
because a game server whose workers are all down still takes moves but stops applying
deadlines, resolving sealed phases and starting league rounds, which is exactly when a
load balancer or an operator must be told. Ready means all of:

- `store`: the store answers a ping;
- `sweeper`: some worker's deadline sweeper beat its heartbeat within `SWEEPER_STALE_S`
  (it beats four times a second);
- `workers`: at least one RQ worker is registered on the queues;
- `queues`: no queue's oldest job has waited longer than `QUEUE_STALL_S`, and no
  deadline in the index has been due longer than that (a sweeper that beats but does not
  sweep);
- `transparency_log`: the public log of games is whole: its index names every leaf it
  holds and no lost entry was ever found (service.transparency.restore_lost: someone
  deleted entries, so a game could have been logged again from a rewritten store). It
  stays unready until the operator has looked and cleared `mf:{tlog}:alarms`
  (docs/operations.md, "Transparency log alarms").

Each check says what it saw, so an operator reading the answer knows which part is down.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

SWEEPER_STALE_S = 5.0
QUEUE_STALL_S = 30.0


def check(boot: Bootstrap, now: float | None = None) -> tuple[bool, dict[str, Any]]:
    """Return whether the service is ready, and each check as {"ok", ...what it saw}."""
    now = time.time() if now is None else now
    checks: dict[str, Any] = {}
    try:
        boot.ping()
        beat = boot.operations.last_beat()
    except Exception as e:  # the store is down: nothing else can be read
        checks["store"] = {"ok": False, "error": type(e).__name__}
        return False, checks
    checks["store"] = {"ok": True}
    size, indexed = boot.tlog.indexed()
    alarms = boot.tlog.alarms()
    checks["transparency_log"] = {
        "ok": indexed >= size and alarms == 0,
        "leaves": size,
        "unindexed_leaves": max(0, size - indexed),
        "alarms": alarms,
    }
    beat_s = None if beat is None else now - beat
    checks["sweeper"] = {
        "ok": beat_s is not None and beat_s <= SWEEPER_STALE_S,
        "last_beat_s_ago": None if beat_s is None else round(max(0.0, beat_s), 3),
    }
    try:
        seen = boot.scheduler.health(now)
    except Exception as e:  # the queues' store is down
        checks["workers"] = {"ok": False, "error": type(e).__name__}
        checks["queues"] = {"ok": False, "error": type(e).__name__}
        return False, checks
    checks["workers"] = {"ok": seen["workers"] > 0, "registered": seen["workers"]}
    oldest = max((q["oldest_s"] for q in seen["queues"].values()), default=0.0)
    checks["queues"] = {
        "ok": oldest <= QUEUE_STALL_S and seen["overdue_s"] <= QUEUE_STALL_S,
        "depth": {name: q["depth"] for name, q in seen["queues"].items()},
        "oldest_job_s": round(oldest, 3),
        "most_overdue_deadline_s": round(seen["overdue_s"], 3),
    }
    return all(c["ok"] for c in checks.values()), checks
