"""A league's settings: their defaults (a league created before a setting existed reads
its default), and when each takes effect, after which it can no longer be changed.
Pure: no I/O; the time (`now`, a Unix time) is passed in.

When a setting is in effect (docs/leagues.md, "Changing settings"):
- `name`, the absence rule and the vacation limit: never (they apply from the change on);
- `ruleset`, `options`, `table_size`, `start_at`, `bye_points`: once round 1 is due;
- `cadence_s`, `decision_timeout_s`, `late_join_until_round`: once the last round started
  (a change applies to the rounds not started yet);
- `rounds`: rounds already started cannot be taken away;
- `points`, `forfeit_points`: once a game is counted (a recount must not change the past).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from leagues.record import League

DEFAULTS: dict[str, Any] = {
    "bye_points": None,
    "late_join_until_round": 0,
    "withdraw_after_timeouts": 3,  # defaults in a row (0: off)
    "absence_window": 10,  # the member's last decisions looked at (0: off)
    "absence_share": 0.6,  # withdrawn when at least this share of them were defaulted
    "absence_days": 7,  # or when they owed a decision this many days without a move (0: off)
    "forfeit_points": 0,  # what a forfeited seat scores (null: no forfeits, places stand)
    "vacation_days": 14,  # days away a member may declare in the league (0: none)
}
EDITABLE = (
    "name",
    "ruleset",
    "options",
    "table_size",
    "rounds",
    "start_at",
    "cadence_s",
    "decision_timeout_s",
    "points",
    "bye_points",
    "late_join_until_round",
    *(k for k in DEFAULTS if k not in ("bye_points", "late_join_until_round")),
)
BEFORE_START = ("ruleset", "options", "table_size", "start_at", "bye_points")
BEFORE_LAST_ROUND = ("cadence_s", "decision_timeout_s", "late_join_until_round")
BEFORE_FIRST_RESULT = ("points", "forfeit_points")


def get(league: League, key: str) -> Any:
    """Return a setting, or its default for a league created before it existed."""
    return league.settings.get(key, DEFAULTS.get(key))


def counted(league: League) -> bool:
    """Return True once a game has counted in the standings (not an aborted one)."""
    return any(r.get("reason") != "aborted" for r in league.results.values())


def in_effect(league: League, key: str, value: Any, now: float) -> str | None:
    """Return why setting `key` can no longer become `value` (a sentence), or None."""
    started = len(league.rounds)
    if key in BEFORE_START and (started or now >= league.due(1)):
        return f"{key} took effect when round 1 started"
    if key in BEFORE_LAST_ROUND and started >= league.settings["rounds"]:
        return f"{key} took effect: every round has started"
    if key in BEFORE_FIRST_RESULT and counted(league):
        return f"{key} took effect when the first game was counted"
    if key == "rounds" and value < started:
        return f"rounds 1-{started} have started; the league cannot have fewer"
    return None
