"""A notification never carries hidden information: for every ruleset, a whole game's
notifications (inbox, and the message every channel is handed) hold only their type's
public fields; a Black Market private offer is told to its recipient alone, without its
terms; a sealed decision submitted by one seat tells the others nothing."""

from __future__ import annotations

import json
import random

import pytest

from service.notify import dispatch, inbox, types
from tests.api.helpers import bearer, by_seat, new_game, new_players, play_to_end, random_action
from tests.api.wild_trade import act, legal_offer, wild_trade

RULESETS = {"goblin-market": 3, "black-market": 3, "sorcerous-futures": 3, "gobcon": 3}


def _all(client, player) -> list[dict]:
    out, before = [], ""
    while True:
        res = client.get(f"/v1/players/me/notifications?limit=100{before}", headers=bearer(player))
        out += res.get_json()["notifications"]
        if res.get_json()["next"] is None:
            return out
        before = f"&before={res.get_json()['next']}"


def _check(deps, player: dict, listed: list[dict]) -> None:
    for n in listed:
        kind = types.kind(n["type"])
        assert kind is not None, n["type"]
        allowed = set(types.COMMON) | set(kind.fields)
        assert set(n["note"]) <= allowed, (n["type"], set(n["note"]) - allowed)
        stored = inbox.find(deps, player["id"], n["id"])  # what the channels read
        message = dispatch.message(deps, player["id"], stored)
        assert set(message.data) <= allowed
        assert message.data == n["note"]


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_notification_of_a_whole_game_holds_only_its_types_public_fields(
    client, app, ruleset
):
    players = new_players(client, RULESETS[ruleset])
    gid = new_game(client, players, ruleset=ruleset, decision_timeout_s=3600)
    seats = by_seat(client, gid, players)
    play_to_end(client, app, gid, seats, random.Random(7))
    deps = app.extensions["marketfold"]
    for p in players:
        listed = _all(client, p)
        assert {"game_started", "game_finished", "your_turn"} <= {n["type"] for n in listed}
        _check(deps, p, listed)


def test_a_private_offer_is_told_to_its_recipient_alone_and_without_its_terms(client, app):
    gid, seats, rnd = wild_trade(client, app)
    deps = app.extensions["marketfold"]
    mover, to = seats[0], 1
    before = {s: {n["id"] for n in _all(client, p)} for s, p in seats.items()}
    offer = legal_offer(client, gid, mover, to, rnd)
    act(client, gid, mover, offer)
    new = {s: [n for n in _all(client, p) if n["id"] not in before[s]] for s, p in seats.items()}
    told = [n for n in new[to] if n["type"] == "trade_offer"]
    assert len(told) == 1
    assert set(told[0]["note"]) == {*types.COMMON, "offer", "from"}
    _check(deps, seats[to], told)
    message = dispatch.message(deps, seats[to]["id"], {**told[0]["note"]})
    terms = {k: v for k, v in offer.items() if k not in ("type", "to")}
    assert json.dumps(terms) not in json.dumps(message.data)
    assert message.body == "A seat made you a private offer."
    for seat, got in new.items():
        if seat != to:
            assert not [n for n in got if n["type"] == "trade_offer"]
            assert told[0]["note"]["offer"] not in json.dumps(got)


def test_a_sealed_submission_tells_the_other_seats_nothing(client, app):
    """Black Market's production is secret and simultaneous: a seat's submission adds no
    notification for anybody (its own turn is done; the others learn it at the reveal)."""
    players = new_players(client, 3)
    gid = new_game(client, players, ruleset="black-market", decision_timeout_s=3600)
    seats = by_seat(client, gid, players)
    before = {s: len(_all(client, p)) for s, p in seats.items()}
    legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[0])).get_json()
    act(client, gid, seats[0], random_action(random.Random(2), legal["actions"]))
    assert {s: len(_all(client, p)) for s, p in seats.items()} == before
