"""League routes and each player's inbox of turns, under /v1."""

from __future__ import annotations

import re

from flask import Blueprint

from api import auth
from api.context import boot
from api.league_present import league_json, member, round_json, standings_json
from api.parse import body
from api.schemas import LeagueCreate, MemberAdd
from leagues.record import League
from service import inbox, league_commands, league_queries, players
from service.errors import NotFound

bp = Blueprint("leagues", __name__, url_prefix="/v1")
LEAGUE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _league(league_id: str) -> League:
    if not LEAGUE_ID.fullmatch(league_id):
        raise NotFound("league_not_found", f"no league {league_id!r}")
    return league_queries.load(boot(), league_id)


@bp.post("/leagues")
def create_league():
    player = auth.caller(boot())
    league_commands.check_operator(boot(), player["id"])
    data = LeagueCreate().load(body())
    return league_json(league_commands.create(boot(), player["id"], data)), 201


@bp.get("/leagues/<league_id>")
def get_league(league_id: str):
    return league_json(_league(league_id))


@bp.post("/leagues/<league_id>/join")
def join_league(league_id: str):
    player = auth.caller(boot())
    _league(league_id)
    league = league_commands.join(boot(), league_id, player, "self")
    return member(league, player["id"]), 200


@bp.post("/leagues/<league_id>/members")
def add_league_member(league_id: str):
    operator = auth.caller(boot())
    league_commands.check_operator(boot(), operator["id"])
    _league(league_id)
    player = players.player(boot(), MemberAdd().load(body())["player"])
    league = league_commands.join(boot(), league_id, player, "operator")
    return member(league, player["id"]), 201


@bp.get("/leagues/<league_id>/standings")
def league_standings(league_id: str):
    league = _league(league_id)
    return {"league": league.league_id, "status": league.status, **standings_json(league)}


@bp.get("/leagues/<league_id>/rounds/<int:n>")
def league_round(league_id: str, n: int):
    league = _league(league_id)
    if not 1 <= n <= league.settings["rounds"]:
        raise NotFound("round_not_found", f"the league has rounds 1-{league.settings['rounds']}")
    statuses = league_queries.table_statuses(boot(), league, n) if n in league.rounds else {}
    return round_json(league, n, statuses)


@bp.get("/players/me/turns")
def my_turns():
    player = auth.caller(boot())
    return {"player": player["id"], "turns": inbox.turns(boot(), player["id"])}
