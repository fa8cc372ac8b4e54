"""League routes (creating, joining, running and leaving a league) and each player's
leagues and inbox of turns, under /v1. A league's record read out is in
api/league_reports.py, its disputes and rulings in api/league_disputes.py."""

from __future__ import annotations

from flask import Blueprint, request

from api import auth
from api.context import boot
from api.league_present import league_json, league_summary, member, mine
from api.league_request import LEAGUE_ID, as_organizer, find_league, retry_of
from api.parse import body, number
from api.schemas import (
    LeagueCreate,
    LeagueSeatSeed,
    LeagueUpdate,
    MemberAdd,
    Substitution,
    Vacation,
)
from service import (
    game_commands,
    inbox,
    league_commands,
    league_lifecycle,
    league_organizers,
    league_queries,
    league_remedies,
    league_seeds,
    league_vacations,
    players,
    roles,
)
from service.errors import Invalid, NotFound
from service.league_queries import STATUSES

bp = Blueprint("leagues", __name__, url_prefix="/v1")


@bp.post("/leagues")
def create_league():
    player = auth.caller(boot())
    roles.require(boot(), player["id"], roles.ORGANIZER, "creating a league")
    data = LeagueCreate().load(body())
    return league_json(league_commands.create(boot(), player, data)), 201


@bp.get("/leagues")
def list_leagues():
    auth.caller(boot(), required=False)  # a token sent must be valid
    status, ruleset = request.args.get("status"), request.args.get("ruleset")
    if status is not None and status not in STATUSES:
        errors = {"status": [f"must be one of {list(STATUSES)}"]}
        raise Invalid("invalid_query", "unknown status", errors=errors)
    if ruleset is not None:
        try:
            game_commands.ruleset(ruleset)
        except Invalid as e:
            raise Invalid("invalid_query", e.detail, errors=e.errors) from None
    cursor = request.args.get("cursor")
    if cursor is not None and not LEAGUE_ID.fullmatch(cursor):
        raise Invalid("invalid_query", "malformed cursor", errors={"cursor": ["malformed"]})
    limit = number("limit", request.args.get("limit", "20"), least=1)
    if limit > 100:
        raise Invalid("invalid_query", "limit is at most 100", errors={"limit": ["at most 100"]})
    page, following = league_queries.listing(boot(), status, ruleset, cursor, limit)
    return {"leagues": [league_summary(lg) for lg in page], "next_cursor": following}


@bp.get("/leagues/<league_id>")
def get_league(league_id: str):
    return league_json(find_league(league_id))


@bp.patch("/leagues/<league_id>")
def update_league(league_id: str):
    organizer, _ = as_organizer(league_id, "changing a league's settings")
    changes = LeagueUpdate().load(body())
    return league_json(league_commands.change(boot(), league_id, changes, organizer["id"]))


@bp.post("/leagues/<league_id>/join")
def join_league(league_id: str):
    player = auth.caller(boot())
    find_league(league_id)
    league = league_commands.join(boot(), league_id, player, "self")
    return member(league, player["id"]), 200


@bp.post("/leagues/<league_id>/members")
def add_league_member(league_id: str):
    as_organizer(league_id, "adding a member")
    player = players.named(boot(), MemberAdd().load(body())["player"])
    league = league_commands.join(boot(), league_id, player, "operator")
    return member(league, player["id"]), 201


@bp.post("/leagues/<league_id>/invitations")
def invite_to_league(league_id: str):
    organizer, _ = as_organizer(league_id, "inviting a player")
    player = players.named(boot(), MemberAdd().load(body())["player"])
    league = league_commands.invite(boot(), league_id, player, organizer["id"])
    return {"league": league.league_id, "player": player["id"], "name": player["name"]}, 201


@bp.post("/leagues/<league_id>/decline")
def decline_league(league_id: str):
    player = auth.caller(boot())
    find_league(league_id)
    league = league_commands.decline(boot(), league_id, player["id"])
    return {"league": league.league_id, "player": player["id"], "name": player["name"]}


@bp.delete("/leagues/<league_id>/members/<player_id>")
def remove_league_member(league_id: str, player_id: str):
    organizer, _ = as_organizer(league_id, "removing a member")
    league = league_lifecycle.withdraw(
        boot(), league_id, player_id, "organizer", organizer["id"], retry_of(organizer)
    )
    return member(league, player_id), 200


@bp.post("/leagues/<league_id>/members/<player_id>/reinstate")
def reinstate_league_member(league_id: str, player_id: str):
    organizer, _ = as_organizer(league_id, "reinstating a member")
    by = organizer["id"]
    league = league_remedies.reinstate(boot(), league_id, player_id, by, retry_of(organizer))
    return member(league, player_id), 200


@bp.post("/leagues/<league_id>/substitutions")
def substitute_league_member(league_id: str):
    organizer, _ = as_organizer(league_id, "substituting a member")
    data = Substitution().load(body())
    sub = players.named(boot(), data["substitute"])
    league = league_remedies.substitute(
        boot(), league_id, data["player"], sub, organizer["id"], retry_of(organizer)
    )
    return league_json(league), 200


@bp.post("/leagues/<league_id>/rounds/<int:n>/tables/<int:table>/pause")
def pause_league_table(league_id: str, n: int, table: int):
    organizer, _ = as_organizer(league_id, "pausing a table")
    by, retry = organizer["id"], retry_of(organizer)
    return league_json(league_remedies.pause_table(boot(), league_id, n, table, by, retry))


@bp.post("/leagues/<league_id>/rounds/<int:n>/tables/<int:table>/resume")
def resume_league_table(league_id: str, n: int, table: int):
    organizer, _ = as_organizer(league_id, "resuming a table")
    by, retry = organizer["id"], retry_of(organizer)
    return league_json(league_remedies.resume_table(boot(), league_id, n, table, by, retry))


@bp.post("/leagues/<league_id>/vacations")
def declare_vacation(league_id: str):
    player = auth.caller(boot())
    find_league(league_id)
    data = Vacation().load(body())
    league = league_vacations.declare(boot(), league_id, player["id"], data["start"], data["end"])
    return member(league, player["id"]), 201


def _member_seed(league_id: str) -> dict[str, str]:
    player = auth.caller(boot())
    if player["id"] not in find_league(league_id).members:
        raise NotFound("member_not_found", "you are not a member of this league")
    return player


@bp.put("/leagues/<league_id>/seat-commitment")
def register_seat_commitment(league_id: str):
    player = _member_seed(league_id)
    given = LeagueSeatSeed().load(body())["seat_commitment"]
    league_seeds.register(boot(), league_id, player["id"], given)
    return {"league": league_id, "player": player["id"], "seat_commitment": given}


@bp.get("/leagues/<league_id>/seat-commitment")
def held_seat_commitment(league_id: str):
    player = _member_seed(league_id)
    held = league_seeds.held(boot(), league_id, player["id"])
    return {"league": league_id, "player": player["id"], "seat_commitment": held}


@bp.post("/leagues/<league_id>/leave")
def leave_league(league_id: str):
    player = auth.caller(boot())
    find_league(league_id)
    league = league_lifecycle.withdraw(boot(), league_id, player["id"], "self")
    return member(league, player["id"]), 200


@bp.post("/leagues/<league_id>/cancel")
def cancel_league(league_id: str):
    organizer, _ = as_organizer(league_id, "cancelling a league")
    return league_json(
        league_lifecycle.cancel(boot(), league_id, organizer["id"], retry_of(organizer))
    )


@bp.post("/leagues/<league_id>/pause")
def pause_league(league_id: str):
    organizer, _ = as_organizer(league_id, "pausing a league")
    return league_json(
        league_lifecycle.pause(boot(), league_id, organizer["id"], retry_of(organizer))
    )


@bp.post("/leagues/<league_id>/resume")
def resume_league(league_id: str):
    organizer, _ = as_organizer(league_id, "resuming a league")
    return league_json(
        league_lifecycle.resume(boot(), league_id, organizer["id"], retry_of(organizer))
    )


@bp.post("/leagues/<league_id>/organizers")
def add_league_organizer(league_id: str):
    organizer, _ = as_organizer(league_id, "adding an organizer")
    player = players.named(boot(), MemberAdd().load(body())["player"])
    league = league_organizers.add(boot(), league_id, player, organizer["id"])
    return league_json(league), 201


@bp.delete("/leagues/<league_id>/organizers/<player_id>")
def remove_league_organizer(league_id: str, player_id: str):
    organizer, _ = as_organizer(league_id, "removing an organizer")
    return league_json(league_organizers.remove(boot(), league_id, player_id, organizer["id"]))


@bp.get("/players/me/leagues")
def my_leagues():
    player = auth.caller(boot())
    found = league_queries.of_player(boot(), player["id"])
    return {"player": player["id"], "leagues": [mine(lg, player["id"]) for lg in found]}


@bp.get("/players/me/turns")
def my_turns():
    player = auth.caller(boot())
    return {"player": player["id"], "turns": inbox.turns(boot(), player["id"])}
