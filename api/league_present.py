"""What the API sends about leagues: settings and schedule, standings, one round."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from service import league_queries
from service.league_queries import League

# settings added after leagues were first stored: shown with their defaults
NEWER = ("absence_window", "absence_share", "absence_days", "forfeit_points", "vacation_days")


def member(league: League, player_id: str) -> dict[str, Any]:
    return {
        "league": league.league_id,
        "player": player_id,
        "name": league.members[player_id],
        "members": len(league.active()),
        "withdrawn_from_round": league.withdrawn.get(player_id),
        "vacations": vacations(league, player_id),
    }


def vacations(league: League, player_id: str) -> list[dict[str, str]]:
    """Return a member's declared vacations, soonest first."""
    return [{"from": a, "until": b} for a, b in sorted(league.vacations.get(player_id, []))]


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def round_status(league: League, number: int) -> tuple[str, str | None]:
    """Return a round's status and when it starts: `started`; a round to come is `scheduled`
    at its due time, or, with no time, `paused` while the league is paused (resuming
    reschedules it) and `cancelled` once the league is cancelled (it will never start)."""
    if number in league.rounds:
        return "started", _iso(league.due(number))
    if league.cancelled:
        return "cancelled", None
    if league.paused:
        return "paused", None
    return "scheduled", _iso(league.due(number))


def table_status(league: League, game: str, status: str) -> str:
    """Return a started table's status: the game's, but `aborted` for a game recorded as
    aborted (it counts for nobody, so it shows no places)."""
    recorded = league.results.get(game)
    return "aborted" if recorded and recorded.get("reason") == "aborted" else status


def places(league: League, game: str | None) -> list[dict[str, Any]] | None:
    """Return a game's recorded places, or None (not recorded yet, or aborted)."""
    recorded = league.results.get(game) if game else None
    if not recorded or recorded.get("reason") == "aborted":
        return None
    return recorded["places"]


def league_summary(league: League) -> dict[str, Any]:
    """Return a league as the list shows it."""
    s = league.settings
    return {
        "id": league.league_id,
        "name": s["name"],
        "status": league.status,
        "ruleset": s["ruleset"],
        "rounds": s["rounds"],
        "rounds_started": len(league.rounds),
        "members": len(league.active()),
        "start_at": s["start_at"],
        "created_at": league.created_at,
    }


def mine(league: League, player_id: str) -> dict[str, Any]:
    """Return a league as one of its members or organizers sees it in their own list."""
    return {
        **league_summary(league),
        "organizer": player_id in league_queries.organizers(league),
        "member": player_id in league.members,
        "invited": player_id in league.invited,
        "withdrawn_from_round": league.withdrawn.get(player_id),
    }


def league_json(league: League) -> dict[str, Any]:
    """Return a league's settings, members, and schedule with its pair-meeting figures."""
    s = league.settings
    rounds = league_queries.schedule(league)
    most, spread = league_queries.meetings(league, rounds)
    return {
        "id": league.league_id,
        "name": s["name"],
        "status": league.status,
        "ruleset": s["ruleset"],
        "options": s["options"],
        "table_size": {"min": s["table_min"], "max": s["table_max"]},
        "rounds": s["rounds"],
        "start_at": s["start_at"],
        "cadence_s": s["cadence_s"],
        "decision_timeout_s": s["decision_timeout_s"],
        "withdraw_after_timeouts": s["withdraw_after_timeouts"],
        "points": s["points"],
        "late_join_until_round": s.get("late_join_until_round", 0),
        "bye_points": s.get("bye_points"),
        **{k: league_queries.setting(league, k) for k in NEWER},
        "operator": s["operator"],
        "organizers": [
            {"player": p, "name": league.organizer_names.get(p, "")} for p in league.organizers
        ],
        "seed": s["seed"],
        "created_at": league.created_at,
        "version": league.version,
        "members": [
            {
                "player": p,
                "name": name,
                "withdrawn_from_round": league.withdrawn.get(p),
                "withdrawn_reason": league.why_withdrawn.get(p),
                "substitute_for": league.substitutes.get(p),
                "vacations": vacations(league, p),
            }
            for p, name in league.members.items()
        ],
        "invited": [{"player": p, "name": name} for p, name in league.invited.items()],
        "schedule": [
            {
                "round": n,
                "start_at": round_status(league, n)[1],
                "status": round_status(league, n)[0],
                "tables": [
                    {
                        "table": i,
                        "game": league.rounds[n].tables[i - 1].game if started else None,
                        "players": list(t),
                    }
                    for i, t in enumerate(rnd.tables, start=1)
                ],
                "byes": list(rnd.byes),
            }
            for n, rnd, started in rounds
        ],
        "pairing": {"max_meetings": most, "spread": spread},
        "disputes": [dispute_json(league, d) for d in league_queries.disputes(league)],
        "rulings": [ruling_json(r) for r in league.ruling_log],
    }


def dispute_json(league: League, dispute: dict[str, Any]) -> dict[str, Any]:
    """Return a dispute: its number, game, event, who opened it, why, when, its status
    (`open` or `ruled`) and the ruling that answered it last."""
    ruled = [r for r in league.ruling_log if r.get("dispute") == dispute["dispute"]]
    return {
        "league": league.league_id,
        "dispute": dispute["dispute"],
        "game": dispute["game"],
        "round": dispute["round"],
        "table": dispute["table"],
        "seq": dispute.get("seq"),
        "player": dispute["player"],
        "name": league.members.get(dispute["player"], ""),
        "reason": dispute["reason"],
        "opened_at": dispute["at"],
        "status": "ruled" if ruled else "open",
        "ruling": ruling_json(ruled[-1]) if ruled else None,
    }


def ruling_json(ruling: dict[str, Any]) -> dict[str, Any]:
    """Return a ruling as its league's log holds it (`at`: when it was recorded)."""
    return {
        "ruling": ruling["ruling"],
        "game": ruling["game"],
        "round": ruling["round"],
        "table": ruling["table"],
        "dispute": ruling.get("dispute"),
        "kind": ruling["kind"],
        "reason": ruling["reason"],
        "by": ruling["by"],
        "points": ruling.get("points"),
        "players": ruling.get("players"),
        "replay": ruling.get("replay"),
        "at": ruling["at"],
    }


def standings_json(league: League) -> dict[str, Any]:
    """Return the members ranked by points, games won, Buchholz, then rating (leagues.table)."""
    return {"recorded": len(league.results), "standings": league_queries.standings(league)}


def round_json(
    league: League, number: int, statuses: dict[str, tuple[str, str | None]]
) -> dict[str, Any]:
    """Return one round: its tables, each with its game, players by seat, and result."""
    started = league.rounds.get(number)
    if started is None:
        rnd = next(r for n, r, _ in league_queries.schedule(league) if n == number)
        tables = [
            {
                "table": i,
                "game": None,
                "status": "scheduled",
                "players": _players(league, t),
                "result": None,
                "paused_at": None,
            }
            for i, t in enumerate(rnd.tables, start=1)
        ]
        byes = list(rnd.byes)
    else:
        tables = [_table(league, t, statuses[t.game]) for t in started.tables]
        byes = list(started.byes)
    status, start_at = round_status(league, number)
    if not started:
        for t in tables:
            t["status"] = status
    return {
        "league": league.league_id,
        "round": number,
        "status": status,
        "start_at": start_at,
        "started_at": started.started_at if started else None,
        "tables": tables,
        "byes": byes,
    }


def _players(league: League, players, game: str | None = None) -> list[dict[str, Any]]:
    """Return a table's seats: the member paired there, and their substitute if one took
    the seat over."""
    taken = league.taken.get(game or "", {})
    out = []
    for i, p in enumerate(players):
        row = {"seat": i, "player": p, "name": league.members.get(p, "")}
        if p in taken:
            row["substitute"] = taken[p]
        out.append(row)
    return out


def _table(league: League, t, state: tuple[str, str | None]) -> dict[str, Any]:
    ruling = league.rulings.get(t.game)
    status, paused_at = state
    return {
        "table": t.number,
        "game": t.game,
        "status": table_status(league, t.game, status),
        "paused_at": paused_at,
        "players": _players(league, t.players, t.game),
        "result": places(league, t.game),
        "ruling": ruling_json(ruling) if ruling else None,
        "replays": league.chain(t.game)[1:],
    }
