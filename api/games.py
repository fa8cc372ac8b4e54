"""The HTTP API for players and games, version 1. Each view: parse the request, call one
use case or query, present the answer."""

from __future__ import annotations

import time

from flask import Blueprint, Response, jsonify, request

from api import auth, entry, present
from api.context import boot, current
from api.limits import storeless
from api.offload import offloaded
from api.parse import body, idempotency_key, if_match, lang, lobby_query, number
from api.parse import game_id as game_id_ok
from api.schemas import (
    ComputerSeats,
    GameCreate,
    JoinBody,
    PlayerCreate,
    RematchOffer,
    RevealBody,
    action,
)
from games.base import InvalidAction, RuleViolation
from service import (
    attempts,
    computer_turns,
    errors,
    game_commands,
    game_evidence,
    game_queries,
    leaving,
    lobby,
    lobby_commands,
    players,
    proof,
    roles,
    seed_reveals,
    tables,
)
from service.game_queries import Record
from service.loop import Outcome

bp = Blueprint("api", __name__, url_prefix="/v1")
BUNDLE_JSON, BUNDLE_BYTES = "application/json", "application/octet-stream"


@bp.post("/players")
def create_player():
    data = PlayerCreate().load(body())
    return players.create_player(boot(), data["name"], data["handle"]), 201


@bp.get("/rulesets")
@storeless
def list_rulesets():
    return {"rulesets": [present.ruleset(g, lang()) for g in game_queries.rulesets()]}


@bp.get("/rulesets/<ruleset>/cards")
@storeless
def ruleset_cards(ruleset: str):
    return present.catalogue(game_queries.ruleset(ruleset), lang())


@bp.post("/games")
def create_game():
    player = auth.caller(boot())
    data = GameCreate().load(body())
    promised = len(data["invite"]) + int(data["join"])  # seats held for people
    computers = computer_turns.check_new(data["players"], data, promised)  # before any write
    rec, secret = tables.create(
        boot(),
        player,
        data["ruleset"],
        data["players"],
        data["options"],
        data["decision_timeout_s"],
        data,
    )
    if computers:
        rec = computer_turns.seat(boot(), rec.game_id, data["computer"]["level"], computers)
    return _game_response(rec, rec.seat_of(player["id"]), 201, secret)


@bp.post("/games/<game_id>/computer-seats")
def seat_computers(game_id: str):
    player = auth.caller(boot())
    gid = game_id_ok(game_id)  # an unknown game is a 404 whatever the body
    data = ComputerSeats().load(body())
    rec = computer_turns.fill(boot(), gid, player["id"], data["level"], data["seats"])
    return _game_response(
        rec, rec.seat_of(player["id"]), 200, tables.secret(boot(), rec, player["id"])
    )


def _optional(schema) -> dict:
    """Load an optional JSON body (none, or an empty one, is `{}`)."""
    return schema.load(body() if request.get_data(cache=True).strip() else {})


@bp.get("/games")
def list_games():
    auth.caller(boot(), required=False)  # a token sent must be valid
    return lobby.page(boot(), lobby_query())


@bp.post("/games/<game_id>/leave")
def leave_game(game_id: str):
    player = auth.caller(boot())
    done = lobby_commands.leave(boot(), game_id_ok(game_id), player["id"])
    return {"version": done.record.version, "status": done.record.status}, 200


@bp.delete("/games/<game_id>")
def cancel_game(game_id: str):
    player = auth.caller(boot())
    lobby_commands.cancel(boot(), game_id_ok(game_id), player["id"])
    return Response(status=204)


@bp.post("/games/<game_id>/rematch")
def rematch_game(game_id: str):
    player = auth.caller(boot())
    offer = _optional(RematchOffer())
    rec, created = lobby_commands.rematch(boot(), game_id_ok(game_id), player, offer)
    secret = tables.secret(boot(), rec, player["id"])  # the creator's link, as on its GET
    return _game_response(rec, rec.seat_of(player["id"]), 201 if created else 200, secret)


@bp.get("/games/<game_id>")
@entry.reads_game
def get_game(game_id: str):
    player = auth.caller(boot(), required=False)
    rec = game_queries.load(boot(), game_id_ok(game_id), current().take_game(game_id))
    secret = tables.secret(boot(), rec, player["id"] if player else None)
    return _game_response(rec, game_queries.seat(rec, player), 200, secret)


def _game_response(rec: Record, seat: int | None, status: int, secret: str | None = None):
    response = jsonify({**present.game(rec, seat, lang()), "secret": secret})  # creator's only
    response.status_code = status
    response.set_etag(rec.etag(seat))
    return response.make_conditional(request) if status == 200 else response


@bp.post("/games/<game_id>/join")
def join_game(game_id: str):
    player = auth.caller(boot())
    data = _optional(JoinBody())
    gid = game_id_ok(game_id)
    done = tables.join(boot(), gid, player, data["secret"], commitment=data["seat_commitment"])
    seat = done.record.seat_of(player["id"])
    return {"seat": seat, "version": done.record.version, "status": done.record.status}, 200


@bp.post("/games/<game_id>/reveal")
def reveal_seat_secret(game_id: str):
    player = auth.caller(boot())
    gid = game_id_ok(game_id)  # an unknown game is a 404 whatever the body
    secret = RevealBody().load(body())["seat_secret"]
    done = seed_reveals.reveal(boot(), gid, player["id"], secret)
    seat = done.record.seat_of(player["id"])
    return {"seat": seat, "version": done.record.version, "status": done.record.status}, 200


@bp.post("/games/<game_id>/decline")
def decline_invitation(game_id: str):
    player = auth.caller(boot())
    done = tables.decline(boot(), game_id_ok(game_id), player["id"])
    return {"version": done.record.version, "status": done.record.status}, 200


@bp.get("/games/<game_id>/legal")
@entry.reads_game
def legal_actions(game_id: str):
    player = auth.caller(boot())
    loaded = current().take_game(game_id_ok(game_id))
    rec, specs = game_queries.legal(boot(), game_id, player["id"], loaded)
    return present.legal(rec, specs, rec.seat_of(player["id"]), lang())


@bp.post("/games/<game_id>/actions")
@entry.admits
@entry.reads_game
def post_action(game_id: str):
    with entry.counted():  # an admitted action is counted by its append (api.entry)
        player = auth.caller(boot())
        game_id_ok(game_id)
        loaded = action(body())
        key = idempotency_key(players.new_id("auto_"))
        arrived = time.time()
        try:
            done = entry.act(game_id, player["id"], loaded, key, if_match())
        except errors.NotReplicated as e:
            e.key = key  # the answer names it: a retry with it is answered, not applied again
            raise
        except (RuleViolation, errors.StaleVersion) as e:
            if not isinstance(e, InvalidAction):  # refused by the game as it stood: say
                e.standing = game_queries.standing(e.record, player["id"])  # what now
            attempts.record(boot(), getattr(e, "record", None), player["id"], loaded, e, arrived)
            raise
    return action_answer(done, player)


def action_answer(done: Outcome, player: dict[str, str]) -> tuple[dict, int]:
    """The answer to an accepted action: what it appended, who owes what now and what the
    caller may do next; 202 while a simultaneous phase is still open."""
    actions = game_queries.next_actions(boot(), done, player["id"])
    return present.acted(done, player["id"], actions), 202 if done.pending else 201


@bp.post("/games/<game_id>/resign")
def resign_game(game_id: str):
    player = auth.caller(boot())
    done = game_commands.resign(boot(), game_id_ok(game_id), player["id"])
    return {**present.acted(done, player["id"]), "status": done.record.status}, 200


@bp.post("/games/<game_id>/abort")
def abort_game(game_id: str):
    player = auth.caller(boot())
    gid = game_id_ok(game_id)
    if roles.has(boot(), player["id"], roles.OPERATOR):
        done = game_commands.abort(boot(), gid, player["id"])
    elif game_queries.load(boot(), gid).seat_of(player["id"]) is not None:
        done = leaving.abort(boot(), gid, player["id"])  # before every seat has moved
    else:
        roles.require(boot(), player["id"], roles.OPERATOR, "aborting a game you do not sit at")
    return {"version": done.version, "status": done.record.status, "result": done.record.result}


@bp.post("/games/<game_id>/claim")
def claim_game(game_id: str):
    player = auth.caller(boot())
    done = leaving.claim(boot(), game_id_ok(game_id), player["id"])
    return {"version": done.version, "status": done.record.status, "result": done.record.result}


@bp.get("/games/<game_id>/events")
def list_events(game_id: str):
    player = auth.caller(boot(), required=False)
    after = number("after", request.args.get("after", "0"))
    rec, events = game_queries.events(boot(), game_id_ok(game_id), after, player)
    return {"version": rec.version, "events": events}


@bp.get("/games/<game_id>/evidence")
def read_game_evidence(game_id: str):
    """What a dispute needs beside the log: refused attempts and outages (docs/leagues.md)."""
    player = auth.caller(boot())
    rec = game_evidence.game(boot(), game_id_ok(game_id))
    return game_evidence.evidence(boot(), rec, player["id"])


@bp.get("/games/<game_id>/export")
def export_game(game_id: str):
    """A file download: JSON, or the same bytes as `application/octet-stream` when the
    caller's `Accept` prefers it. Clients keep the bytes as they are (docs/audit.md)."""
    player = auth.caller(boot(), required=False)
    gid = game_id_ok(game_id)
    resp = jsonify(game_queries.export(boot(), gid, player))
    types = [BUNDLE_JSON, BUNDLE_BYTES]
    resp.mimetype = request.accept_mimetypes.best_match(types, default=BUNDLE_JSON)
    resp.headers["Content-Disposition"] = f'attachment; filename="marketfold-{gid}.json"'
    return resp


@bp.get("/games/<game_id>/state")
@offloaded
def state_at(game_id: str):
    player = auth.caller(boot(), required=False)
    at = number("at", request.args.get("at", ""), least=1)
    now, past = game_queries.state_at(boot(), game_id_ok(game_id), at)
    return present.past(now, past, game_queries.seat(now, player), lang())


@bp.post("/verify")
@offloaded
def verify_bundle():
    # the file as downloaded, whatever its Content-Type; its shape is checked by the audit
    return proof.verify(boot(), body(game_queries.check_bundle_text, any_type=True))


@bp.get("/keys")
def signing_keys():
    return proof.published(boot())
