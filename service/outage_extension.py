"""A decision's fresh deadline after an outage: what the heartbeats say about its deadline
(`expiry_facts`), the `game.DeadlineExtended` command (`extend`), and the check a late
action makes before it is refused (`extend_if_outage`). The deadline job
(service.deadline_commands.expire) and the admitted action (service.game_commands) both
use it; whether an outage covers a deadline is `events.deadlines`, a pure function.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from events import codec, deadlines, decide
from events.repository import Loaded
from service import loop
from service.game_log import GameLog
from service.loop import Outcome
from service.ports import job_id

if TYPE_CHECKING:
    from events.record import Record
    from service.bootstrap import Bootstrap


def expiry_facts(boot: Bootstrap, rec: Record, key: str, api: float | None) -> deadlines.Facts:
    """Read what the heartbeats say about decision `key`'s deadline: the outages that may
    cover it (read after the API's last beat `api`)."""
    deadline, window = rec.deadline(key), deadlines.outage_grace(rec, boot.config)
    due = codec.parse_time(deadline).timestamp() if deadline else time.time()
    spans = tuple(boot.operations.outages_since(due - window)) if deadline else ()
    return deadlines.Facts(api, spans, window, float(boot.config["OUTAGE_AFTER_S"]))


def extend(
    boot: Bootstrap, game_id: str, key: str, old: str, new: str, loaded: Loaded | None = None
) -> Outcome:
    """Give owed decision `key` (due at `old`) the fresh deadline `new` after an outage,
    once however many workers and API processes ask; the append writes the new deadline
    into the index."""
    command = {"type": "extend", "key": key, "old": old, "new": new, "reason": "outage"}
    return loop.run(
        boot,
        GameLog(boot, game_id, body=command, loaded=loaded),
        lambda r, rng: ("system", decide.extend(r, key, old, new, "outage")),
        cause=job_id("extend", game_id, key),
        idem=f"system:extend-{key}-{old}",
        command=command,
    )


def extend_if_outage(boot: Bootstrap, game_id: str, key: str, old: str) -> bool:
    """Give decision `key` (due at `old`, overdue past the grace of events.times) a fresh
    deadline if an outage covers `old`, as an expiry would; return True if it has one now.
    A gap in the API's heartbeat that is still open (the API was frozen, or could not
    reach Redis, and this request is among the first it serves) counts, so an action
    that arrives before the outage is on record is accepted too."""
    api = boot.operations.last_beat(api=True)
    rec, now = boot.store.load(game_id).record, time.time()
    if rec.deadline(key) != old:
        return True  # extended meanwhile
    facts = expiry_facts(boot, rec, key, api)
    threshold = deadlines.api_gap(facts.down_after_s)
    spans = facts.outages + (((api, now),) if api is not None and now - api > threshold else ())
    due = codec.parse_time(old).timestamp()
    fresh = deadlines.covered(list(spans), due, facts.grace_s, now)
    if fresh is None:
        return False
    extend(boot, game_id, key, old, fresh)
    return True
