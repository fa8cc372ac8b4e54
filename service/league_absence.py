"""Withdrawal for absence (leagues.absence): read each member's decisions from their
league games, and withdraw the absent ones. Checked each time a default is applied to a
league game (service.deadline_commands.expire calls `check`), and again as each round starts.

A member withdrawn for absence gets `league.MemberWithdrawn` {by: timeouts, reason:
absence, why}, resigns from their running games of the league (those seats forfeit), and
they and the organizers get a `withdrawn` feed note; an organizer may reinstate them.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from events import catalog
from events.codec import parse_time
from leagues import absence, settings
from leagues.record import League
from service import league_decisions as decisions
from service.league_commands import load, run
from service.league_followups import finish

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

RULE = ("withdraw_after_timeouts", "absence_window", "absence_share", "absence_days")


def marks(
    boot: Bootstrap, league: League, only: set[str] | None = None
) -> dict[str, list[absence.Mark]]:
    """Return each active member's (or only those of `only`) decisions across their league
    games, in time order: (time, defaulted). A seat's decisions are its holder's at the
    time (a substitute's from the moment they took it)."""
    out: dict[str, list[absence.Mark]] = {
        m: [] for m in league.active() if only is None or m in only
    }
    # the tables they were paired at, or that of the member a substitute replaced
    seated = set(out) | {league.substitutes[m] for m in out if m in league.substitutes}
    for r in league.rounds.values():
        for t in r.tables:
            if only is not None and not seated & set(t.players):
                continue
            seats: dict[int, str] = {}
            for env in boot.store.read(t.game):
                kind, data = env["type"], env["data"]
                if kind in (catalog.PLAYER_JOINED, catalog.SEAT_TAKEN):
                    seats[data["seat"]] = data["player"]
                elif kind == catalog.DECISION_TIMED_OUT and seats.get(data["seat"]) in out:
                    out[seats[data["seat"]]].append((_ts(env["at"]), True))
                elif env.get("command", {}).get("type") == "act":
                    if (player := env["command"]["player"]) in out:
                        out[player].append((_ts(env["at"]), False))
    return {m: sorted(ms) for m, ms in out.items()}


def absences(
    boot: Bootstrap, league: League, now: float, only: set[str] | None = None
) -> dict[str, str]:
    """Return the active members (or those of `only`) absent at `now`, each with why."""
    rule = {k: settings.get(league, k) for k in RULE}
    if not any(rule[k] for k in ("withdraw_after_timeouts", "absence_window", "absence_days")):
        return {}
    out = {}
    for member, ms in marks(boot, league, only).items():
        if member in league.reinstated_at:  # reinstated: only what came after counts
            since = _ts(league.reinstated_at[member])
            ms = [m for m in ms if m[0] > since]
        if why := absence.absent(ms, rule, now, league.away(member)):
            out[member] = why
    return out


def check(boot: Bootstrap, league_id: str, players: set[str]) -> list[str]:
    """Withdraw those of `players` (whose decisions were just defaulted) who are absent
    now; return them."""
    league = load(boot, league_id)
    if league.over or not players & set(league.active()):
        return []
    found = absences(boot, league, time.time(), players)
    gone = []
    for player, why in found.items():
        decide = lambda lg, rng, p=player, w=why: decisions.withdraw_absent(lg, p, w)  # noqa: E731
        league = finish(boot, league_id, run(boot, league_id, decide, f"absence:{player}"))
        if league.why_withdrawn.get(player) == "absence":  # resigned by its follow-up
            gone.append(player)
    return gone


def _ts(at: str) -> float:
    return parse_time(at).timestamp()
