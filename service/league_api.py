"""League routes and each player's inbox (turns and feed), under /v1."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, current_app

from events import keys
from leagues import pairing, standings
from leagues.record import League
from service import auth, config, inbox, leagues
from service.api import body, deps
from service.errors import Problem
from service.schemas import LeagueCreate, MemberAdd

bp = Blueprint("leagues", __name__, url_prefix="/v1")
LEAGUE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _league(league_id: str) -> League:
    if not LEAGUE_ID.fullmatch(league_id):
        raise Problem(404, "league_not_found", f"no league {league_id!r}")
    return leagues.load(deps(), league_id)


def _operator(player: dict[str, str]) -> None:
    if player["id"] not in config.operators(current_app.config):
        raise Problem(403, "not_operator", "only an operator may do this")


@bp.post("/leagues")
def create_league():
    player = auth.caller(deps())
    _operator(player)
    data = LeagueCreate().load(body())
    return league_json(leagues.create(deps(), player["id"], data)), 201


@bp.get("/leagues/<league_id>")
def get_league(league_id: str):
    return league_json(_league(league_id))


@bp.post("/leagues/<league_id>/join")
def join_league(league_id: str):
    player = auth.caller(deps())
    _league(league_id)
    league = leagues.join(deps(), league_id, player, "self")
    return _member(league, player["id"]), 200


@bp.post("/leagues/<league_id>/members")
def add_league_member(league_id: str):
    operator = auth.caller(deps())
    _operator(operator)
    _league(league_id)
    player_id = MemberAdd().load(body())["player"]
    name = deps().redis.hget(keys.player(player_id), "name")
    if name is None:
        raise Problem(404, "player_not_found", f"no player {player_id!r}")
    player = {"id": player_id, "name": name.decode()}
    league = leagues.join(deps(), league_id, player, "operator")
    return _member(league, player_id), 201


@bp.get("/leagues/<league_id>/standings")
def league_standings(league_id: str):
    league = _league(league_id)
    return {"league": league.league_id, "status": league.status, **standings_json(league)}


@bp.get("/leagues/<league_id>/rounds/<int:n>")
def league_round(league_id: str, n: int):
    league = _league(league_id)
    if not 1 <= n <= league.settings["rounds"]:
        raise Problem(
            404, "round_not_found", f"the league has rounds 1-{league.settings['rounds']}"
        )
    return round_json(league, n)


@bp.get("/players/me/turns")
def my_turns():
    player = auth.caller(deps())
    return {"player": player["id"], "turns": inbox.turns(deps(), player["id"])}


def _member(league: League, player_id: str) -> dict[str, Any]:
    return {
        "league": league.league_id,
        "player": player_id,
        "name": league.members[player_id],
        "members": len(league.members),
    }


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def schedule(league: League) -> list[tuple[int, pairing.Round, bool]]:
    """Return every round: (number, tables, started); rounds not started yet are projected
    from the active members and the rounds played (what the workers will pair, unless
    someone withdraws)."""
    s = league.settings
    history = pairing.History.of(league.played())
    out = [(n, rnd, True) for n, rnd in zip(sorted(league.rounds), league.played())]
    for n in range(len(league.rounds) + 1, s["rounds"] + 1):
        rnd = pairing.pair_round(
            league.active(), history, s["seed"], n, s["table_min"], s["table_max"]
        )
        history.add(rnd)
        out.append((n, rnd, False))
    return out


def league_json(league: League) -> dict[str, Any]:
    """Return a league's settings, members, and schedule with its pair-meeting figures."""
    s = league.settings
    rounds = schedule(league)
    most, spread = pairing.meetings([r for _, r, _ in rounds], league.members)
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
        "operator": s["operator"],
        "seed": s["seed"],
        "created_at": league.created_at,
        "version": league.version,
        "members": [
            {"player": p, "name": name, "withdrawn_from_round": league.withdrawn.get(p)}
            for p, name in league.members.items()
        ],
        "schedule": [
            {
                "round": n,
                "start_at": _iso(league.due(n)),
                "status": "started" if started else "scheduled",
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
    }


def standings_json(league: League) -> dict[str, Any]:
    """Return the members ranked by league points, then by conservative rating."""
    rows = []
    for p, name in league.members.items():
        mu, sigma = league.rating(p)
        rows.append(
            {
                "player": p,
                "name": name,
                "points": league.points.get(p, 0),
                "games": league.games.get(p, 0),
                "mu": mu,
                "sigma": sigma,
                "ordinal": standings.ordinal((mu, sigma)),
                "withdrawn": p in league.withdrawn,
            }
        )
    rows.sort(key=lambda r: (-r["points"], -r["ordinal"], r["name"], r["player"]))
    for i, row in enumerate(rows):
        same = i and (row["points"], row["ordinal"]) == (
            rows[i - 1]["points"],
            rows[i - 1]["ordinal"],
        )
        row["rank"] = rows[i - 1]["rank"] if same else i + 1
    return {"recorded": len(league.results), "standings": rows}


def round_json(league: League, number: int) -> dict[str, Any]:
    """Return one round: its tables, each with its game, players by seat, and result."""
    started = league.rounds.get(number)
    if started is None:
        rnd = next(r for n, r, _ in schedule(league) if n == number)
        tables = [
            {
                "table": i,
                "game": None,
                "status": "scheduled",
                "players": _players(league, t),
                "result": None,
            }
            for i, t in enumerate(rnd.tables, start=1)
        ]
        byes = list(rnd.byes)
    else:
        tables = [_table(league, t) for t in started.tables]
        byes = list(started.byes)
    return {
        "league": league.league_id,
        "round": number,
        "status": "started" if started else "scheduled",
        "start_at": _iso(league.due(number)),
        "started_at": started.started_at if started else None,
        "tables": tables,
        "byes": byes,
    }


def _players(league: League, players) -> list[dict[str, Any]]:
    return [
        {"seat": i, "player": p, "name": league.members.get(p, "")} for i, p in enumerate(players)
    ]


def _table(league: League, t) -> dict[str, Any]:
    rec = deps().store.load(t.game).record
    recorded = league.results.get(t.game)
    return {
        "table": t.number,
        "game": t.game,
        "status": rec.status if rec.version else "opening",
        "players": _players(league, t.players),
        "result": recorded["places"] if recorded else None,
    }
