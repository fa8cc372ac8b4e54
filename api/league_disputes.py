"""A league's disputes and rulings, under /v1: a player disputes a game, an organizer
rules on it, and both read the game's review."""

from __future__ import annotations

from flask import Blueprint

from api import auth
from api.context import boot
from api.league_present import dispute_json, ruling_json, standings_json
from api.league_request import as_organizer, find_league, retry_of
from api.parse import body
from api.schemas import DisputeOpen, RulingPost
from service import league_disputes

bp = Blueprint("league_disputes", __name__, url_prefix="/v1")


@bp.post("/leagues/<league_id>/disputes")
def open_dispute(league_id: str):
    player = auth.caller(boot())
    find_league(league_id)
    spec = DisputeOpen().load(body())
    league, opened = league_disputes.open_dispute(
        boot(), league_id, player["id"], spec["game"], spec["seq"], spec["reason"], retry_of(player)
    )
    return dispute_json(league, opened), 201


@bp.get("/leagues/<league_id>/disputes")
def list_disputes(league_id: str):
    league = find_league(league_id)
    return {
        "league": league.league_id,
        "disputes": [dispute_json(league, d) for d in league_disputes.disputes(league)],
        "rulings": [ruling_json(r) for r in league.ruling_log],
    }


@bp.post("/leagues/<league_id>/rulings")
def rule_on_game(league_id: str):
    player, _ = as_organizer(league_id, "ruling on a league game")
    spec = RulingPost().load(body())
    league, ruling = league_disputes.rule(boot(), league_id, player["id"], spec, retry_of(player))
    return {"ruling": ruling_json(ruling), **standings_json(league)}, 201


@bp.get("/leagues/<league_id>/games/<game_id>/review")
def review_game(league_id: str, game_id: str):
    player = auth.caller(boot())
    league = find_league(league_id)
    found = league_disputes.review(boot(), league, game_id, player["id"])
    disputes = [d for d in league_disputes.disputes(league) if d["game"] == game_id]
    rulings = [r for r in league.ruling_log if r["game"] == game_id]
    return {
        **found,
        "disputes": [dispute_json(league, d) for d in disputes],
        "rulings": [ruling_json(r) for r in rulings],
    }
