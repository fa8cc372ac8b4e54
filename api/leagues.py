"""League routes and each player's inbox of turns, under /v1."""

from __future__ import annotations

import csv
import io
import re

from flask import Blueprint, Response, request

from api import auth
from api.context import boot
from api.league_present import (
    dispute_json,
    league_json,
    league_summary,
    member,
    mine,
    round_json,
    ruling_json,
    standings_json,
)
from api.parse import body, given_idempotency_key, number
from api.schemas import (
    DisputeOpen,
    LeagueCreate,
    LeagueSeatSeed,
    LeagueUpdate,
    MemberAdd,
    RulingPost,
    Substitution,
    Vacation,
)
from service import (
    game_commands,
    inbox,
    league_commands,
    league_disputes,
    league_lifecycle,
    league_organizers,
    league_queries,
    league_remedies,
    league_seeds,
    league_vacations,
    players,
    proof,
    roles,
)
from service.errors import Invalid, NotFound
from service.league_commands import NO_RETRY, Retry
from service.league_queries import STATUSES, League

bp = Blueprint("leagues", __name__, url_prefix="/v1")
LEAGUE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
EXPORT_FORMAT = "marketfold-league/1"


def _league(league_id: str) -> League:
    if not LEAGUE_ID.fullmatch(league_id):
        raise NotFound("league_not_found", f"no league {league_id!r}")
    return league_queries.load(boot(), league_id)


def _retry(player: dict[str, str]) -> Retry:
    """Return the caller's Idempotency-Key, scoped to them, and what it was sent with (the
    path and body): a repeat is answered with the first call's answer and writes nothing,
    the same key with another request is refused (422 `idempotency_key_reused`)."""
    key = given_idempotency_key()
    if key is None:
        return NO_RETRY
    return f"{player['id']}:{key}", {"path": request.path, "body": request.get_json(silent=True)}


def _organizer(league_id: str, doing: str) -> tuple[dict[str, str], League]:
    """Return the caller and the league if the caller may run it (one of its organizers,
    or an operator), else refuse with the role missing (403 `not_league_organizer`)."""
    player = auth.caller(boot())
    league = _league(league_id)
    league_organizers.require(boot(), league, player["id"], doing)
    return player, league


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
    return league_json(_league(league_id))


@bp.patch("/leagues/<league_id>")
def update_league(league_id: str):
    organizer, _ = _organizer(league_id, "changing a league's settings")
    changes = LeagueUpdate().load(body())
    return league_json(league_commands.change(boot(), league_id, changes, organizer["id"]))


@bp.post("/leagues/<league_id>/join")
def join_league(league_id: str):
    player = auth.caller(boot())
    _league(league_id)
    league = league_commands.join(boot(), league_id, player, "self")
    return member(league, player["id"]), 200


@bp.post("/leagues/<league_id>/members")
def add_league_member(league_id: str):
    _organizer(league_id, "adding a member")
    player = players.named(boot(), MemberAdd().load(body())["player"])
    league = league_commands.join(boot(), league_id, player, "operator")
    return member(league, player["id"]), 201


@bp.post("/leagues/<league_id>/invitations")
def invite_to_league(league_id: str):
    organizer, _ = _organizer(league_id, "inviting a player")
    player = players.named(boot(), MemberAdd().load(body())["player"])
    league = league_commands.invite(boot(), league_id, player, organizer["id"])
    return {"league": league.league_id, "player": player["id"], "name": player["name"]}, 201


@bp.post("/leagues/<league_id>/decline")
def decline_league(league_id: str):
    player = auth.caller(boot())
    _league(league_id)
    league = league_commands.decline(boot(), league_id, player["id"])
    return {"league": league.league_id, "player": player["id"], "name": player["name"]}


@bp.delete("/leagues/<league_id>/members/<player_id>")
def remove_league_member(league_id: str, player_id: str):
    organizer, _ = _organizer(league_id, "removing a member")
    league = league_lifecycle.withdraw(
        boot(), league_id, player_id, "organizer", organizer["id"], _retry(organizer)
    )
    return member(league, player_id), 200


@bp.post("/leagues/<league_id>/members/<player_id>/reinstate")
def reinstate_league_member(league_id: str, player_id: str):
    organizer, _ = _organizer(league_id, "reinstating a member")
    by = organizer["id"]
    league = league_remedies.reinstate(boot(), league_id, player_id, by, _retry(organizer))
    return member(league, player_id), 200


@bp.post("/leagues/<league_id>/substitutions")
def substitute_league_member(league_id: str):
    organizer, _ = _organizer(league_id, "substituting a member")
    data = Substitution().load(body())
    sub = players.named(boot(), data["substitute"])
    league = league_remedies.substitute(
        boot(), league_id, data["player"], sub, organizer["id"], _retry(organizer)
    )
    return league_json(league), 200


@bp.post("/leagues/<league_id>/rounds/<int:n>/tables/<int:table>/pause")
def pause_league_table(league_id: str, n: int, table: int):
    organizer, _ = _organizer(league_id, "pausing a table")
    by, retry = organizer["id"], _retry(organizer)
    return league_json(league_remedies.pause_table(boot(), league_id, n, table, by, retry))


@bp.post("/leagues/<league_id>/rounds/<int:n>/tables/<int:table>/resume")
def resume_league_table(league_id: str, n: int, table: int):
    organizer, _ = _organizer(league_id, "resuming a table")
    by, retry = organizer["id"], _retry(organizer)
    return league_json(league_remedies.resume_table(boot(), league_id, n, table, by, retry))


@bp.post("/leagues/<league_id>/vacations")
def declare_vacation(league_id: str):
    player = auth.caller(boot())
    _league(league_id)
    data = Vacation().load(body())
    league = league_vacations.declare(boot(), league_id, player["id"], data["start"], data["end"])
    return member(league, player["id"]), 201


def _member_seed(league_id: str) -> dict[str, str]:
    player = auth.caller(boot())
    if player["id"] not in _league(league_id).members:
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
    _league(league_id)
    league = league_lifecycle.withdraw(boot(), league_id, player["id"], "self")
    return member(league, player["id"]), 200


@bp.post("/leagues/<league_id>/cancel")
def cancel_league(league_id: str):
    organizer, _ = _organizer(league_id, "cancelling a league")
    return league_json(
        league_lifecycle.cancel(boot(), league_id, organizer["id"], _retry(organizer))
    )


@bp.post("/leagues/<league_id>/pause")
def pause_league(league_id: str):
    organizer, _ = _organizer(league_id, "pausing a league")
    return league_json(
        league_lifecycle.pause(boot(), league_id, organizer["id"], _retry(organizer))
    )


@bp.post("/leagues/<league_id>/resume")
def resume_league(league_id: str):
    organizer, _ = _organizer(league_id, "resuming a league")
    return league_json(
        league_lifecycle.resume(boot(), league_id, organizer["id"], _retry(organizer))
    )


@bp.post("/leagues/<league_id>/organizers")
def add_league_organizer(league_id: str):
    organizer, _ = _organizer(league_id, "adding an organizer")
    player = players.named(boot(), MemberAdd().load(body())["player"])
    league = league_organizers.add(boot(), league_id, player, organizer["id"])
    return league_json(league), 201


@bp.delete("/leagues/<league_id>/organizers/<player_id>")
def remove_league_organizer(league_id: str, player_id: str):
    organizer, _ = _organizer(league_id, "removing an organizer")
    return league_json(league_organizers.remove(boot(), league_id, player_id, organizer["id"]))


@bp.get("/leagues/<league_id>/standings")
def league_standings(league_id: str):
    league = _league(league_id)
    return {"league": league.league_id, "status": league.status, **standings_json(league)}


CSV_COLUMNS = [
    "rank",
    "player",
    "name",
    "points",
    "games",
    "wins",
    "byes",
    "bye_points",
    "buchholz",
    "mu",
    "sigma",
    "ordinal",
    "withdrawn",
]


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """Return a text cell that a spreadsheet would run as a formula (it starts with = + -
    @, a tab or a carriage return) behind a `'`, which spreadsheets show as text (OWASP's
    advice against CSV injection); numbers and other text pass unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


@bp.get("/leagues/<league_id>/standings.csv")
def league_standings_csv(league_id: str):
    league = _league(league_id)
    out = io.StringIO()
    writer = csv.DictWriter(out, CSV_COLUMNS, extrasaction="ignore", lineterminator="\r\n")
    writer.writeheader()
    for row in league_queries.standings(league):
        row = {**row, "withdrawn": "yes" if row["withdrawn"] else "no"}
        writer.writerow({k: csv_cell(v) for k, v in row.items()})
    name = f'attachment; filename="{league.league_id}-standings.csv"'
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": name},
    )


@bp.get("/leagues/<league_id>/events")
def league_events(league_id: str):
    _league(league_id)
    after = number("after", request.args.get("after", "0"))
    league, envelopes = league_queries.events(boot(), league_id, after)
    return {"version": league.version, "events": envelopes}


@bp.get("/leagues/<league_id>/export")
def export_league(league_id: str):
    _league(league_id)
    league, envelopes, exported_at = league_queries.export(boot(), league_id)
    body_ = {
        "format": EXPORT_FORMAT,
        "league": league_summary(league),
        "exported_at": exported_at,
        "events": envelopes,
        "games": [
            g
            for r in sorted(league.rounds)
            for t in league.rounds[r].tables
            for g in league.chain(t.game)
        ],
        "standings": league_queries.standings(league),  # as recounted: `marketfold verify`
    }
    proof.sign(boot(), body_)  # format, league id, events and head (events.signature)
    name = f'attachment; filename="{league.league_id}.json"'
    return body_, 200, {"Content-Disposition": name}


@bp.get("/leagues/<league_id>/rounds/<int:n>")
def league_round(league_id: str, n: int):
    league = _league(league_id)
    if not 1 <= n <= league.settings["rounds"]:
        raise NotFound("round_not_found", f"the league has rounds 1-{league.settings['rounds']}")
    statuses = league_queries.table_statuses(boot(), league, n) if n in league.rounds else {}
    return round_json(league, n, statuses)


@bp.post("/leagues/<league_id>/disputes")
def open_dispute(league_id: str):
    player = auth.caller(boot())
    _league(league_id)
    spec = DisputeOpen().load(body())
    league, opened = league_disputes.open_dispute(
        boot(), league_id, player["id"], spec["game"], spec["seq"], spec["reason"], _retry(player)
    )
    return dispute_json(league, opened), 201


@bp.get("/leagues/<league_id>/disputes")
def list_disputes(league_id: str):
    league = _league(league_id)
    return {
        "league": league.league_id,
        "disputes": [dispute_json(league, d) for d in league_disputes.disputes(league)],
        "rulings": [ruling_json(r) for r in league.ruling_log],
    }


@bp.post("/leagues/<league_id>/rulings")
def rule_on_game(league_id: str):
    player, _ = _organizer(league_id, "ruling on a league game")
    spec = RulingPost().load(body())
    league, ruling = league_disputes.rule(boot(), league_id, player["id"], spec, _retry(player))
    return {"ruling": ruling_json(ruling), **standings_json(league)}, 201


@bp.get("/leagues/<league_id>/games/<game_id>/review")
def review_game(league_id: str, game_id: str):
    player = auth.caller(boot())
    league = _league(league_id)
    found = league_disputes.review(boot(), league, game_id, player["id"])
    disputes = [d for d in league_disputes.disputes(league) if d["game"] == game_id]
    rulings = [r for r in league.ruling_log if r["game"] == game_id]
    return {
        **found,
        "disputes": [dispute_json(league, d) for d in disputes],
        "rulings": [ruling_json(r) for r in rulings],
    }


@bp.get("/players/me/leagues")
def my_leagues():
    player = auth.caller(boot())
    found = league_queries.of_player(boot(), player["id"])
    return {"player": player["id"], "leagues": [mine(lg, player["id"]) for lg in found]}


@bp.get("/players/me/turns")
def my_turns():
    player = auth.caller(boot())
    return {"player": player["id"], "turns": inbox.turns(boot(), player["id"])}
