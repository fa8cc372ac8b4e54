"""Outages: no decision is defaulted because the service or every worker was down.

Every worker's sweeper beats (`beat`) a few times a second: one script reads the last
heartbeat (`mf:{workers}:heartbeat`), writes the new one, and when the gap was longer than
`OUTAGE_AFTER_S` records the gap as an outage in `mf:{workers}:outages` (member `<start>:<end>`),
atomically, so the first worker back records it once and before it sweeps any deadline.
An expiry whose deadline fell inside an outage, or within the grace window after it
(`OUTAGE_GRACE_S`, or the game's decision timeout if shorter), is not defaulted: the
decision gets a fresh deadline, `grace` after the later of now and the outage's end,
recorded as `game.DeadlineExtended` in the game (service.game_commands.expire).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from events import codec, keys

if TYPE_CHECKING:
    import redis

    from events.record import Record

KEEP = 100  # outages remembered

# KEYS: heartbeat, outages. ARGV: now, threshold, how many to keep. Returns the outage
# recorded (`<start>:<end>`), or false.
BEAT = """
local raw = redis.call('GET', KEYS[1])
local last, now = tonumber(raw or ''), tonumber(ARGV[1])
if last and now <= last then return false end
redis.call('SET', KEYS[1], ARGV[1])
if last and now - last > tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[2], now, raw .. ':' .. ARGV[1])
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(tonumber(ARGV[3]) + 1))
  return raw .. ':' .. ARGV[1]
end
return false
"""


def beat(client: redis.Redis, now: float, threshold: float) -> tuple[float, float] | None:
    """Record that a worker is alive at `now`; return the outage it ends, if any."""
    script = client.register_script(BEAT)
    got = script(keys=[keys.heartbeat(), keys.outages()], args=[repr(now), threshold, KEEP])
    if not got:
        return None
    start, end = got.decode().split(":")
    return float(start), float(end)


def seen(client: redis.Redis, since: float) -> list[tuple[float, float]]:
    """Return the outages that ended at or after `since`, oldest first."""
    out = []
    for member in client.zrangebyscore(keys.outages(), since, "+inf"):
        start, end = member.decode().split(":")
        out.append((float(start), float(end)))
    return out


def grace(rec: Record, config: dict) -> float:
    """Return the grace window of a game: OUTAGE_GRACE_S or its decision timeout if shorter."""
    window = float(config["OUTAGE_GRACE_S"])
    return min(window, float(rec.decision_timeout_s)) if rec.decision_timeout_s else window


def fresh_deadline(
    client: redis.Redis, rec: Record, config: dict, deadline: str, now: float
) -> str | None:
    """Return the fresh deadline of a decision due at `deadline` if an outage covers it
    (it fell due during the outage or within the grace window after), else None."""
    due, window = codec.parse_time(deadline).timestamp(), grace(rec, config)
    for start, end in seen(client, due - window):
        if start < due < end + window:
            when = datetime.fromtimestamp(max(now, end) + window, UTC)
            return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return None
