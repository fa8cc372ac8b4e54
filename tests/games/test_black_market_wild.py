"""Black Market wild trade: private offers, each cube once, the end when all but one are done."""

from __future__ import annotations

import json

import pytest

from games.base import PhaseClosed, RuleViolation
from games.black_market import GAME
from games.black_market.data import COLOURS
from games.black_market.state import GIVE_BACK, WILD
from games.rng import NoRng
from tests.games.black_market_table import (
    DONE,
    act,
    arrange,
    offer,
    only,
    produce,
    settle,
    started,
    submit,
)

RED, GREEN, BLUE = (COLOURS.index(c) for c in ("red", "green", "blue"))
SPREAD = {"red": 2, "yellow": 4, "green": 5, "blue": 6, "purple": 7, "orange": 8}


def _error(state, seat, action) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, seat, action, NoRng())
    return err.value


def wild(players: int = 3, **facts):
    """Return a table whose wild trade phase has just opened, arranged with `facts`."""
    state = arrange(started(players, trade="wild"), rows=SPREAD, **facts.pop("before", {}))
    state, events = act(state, *((s, produce()) for s in state.order))
    return arrange(state, **facts), events


def accept(offer_id: str) -> dict:
    return {"type": "accept", "offer": offer_id}


def test_every_player_owes_the_same_simultaneous_done_with_done_as_default():
    state, events = wild()
    assert only(events, "TradeStarted") == [{"mode": "wild"}]
    assert state.phase == WILD
    owed = GAME.owed(state)
    assert {(o.seat, o.kind, o.key, o.simultaneous) for o in owed} == {
        (s, "trade", "wild-r1", True) for s in range(3)
    }
    assert all(o.default == DONE for o in owed)


def test_an_offer_is_seen_by_its_two_parties_only():
    state, _ = wild()
    state, events = submit(state, (0, offer(1, ["red"], ["green"])))
    made = events[0]
    assert made.visible_to == (0, 1) and made.data["id"] == "0-1-1"
    assert GAME.redact(made, 2) is None and GAME.redact(made, None) is None  # private
    assert GAME.view(state, 1, "en")["trade"]["offers"][0]["id"] == "0-1-1"
    for outsider in (2, None):
        assert "0-1-1" not in json.dumps(GAME.view(state, outsider, "en"))
    assert "0-1-1" not in json.dumps([s.choices for s in GAME.legal(state, 2)])
    assert [s.choices for s in GAME.legal(state, 1) if s.type == "accept"] == [[accept("0-1-1")]]


def test_an_accepted_offer_is_a_public_deal_and_received_goods_wait_aside():
    state, _ = wild(storage={0: {"red": 1}, 1: {"green": 1}})
    state, _ = submit(state, (0, offer(1, ["red"], ["green"])))
    state, events = submit(state, (1, accept("0-1-1")))
    made = only(events, "DealMade")[0]
    assert events[0].visible_to == "all" and made["mode"] == "wild"
    assert state.aside[1][RED] == 1 and state.aside[0][GREEN] == 1
    assert not state.offers
    assert _error(state, 1, offer(2, ["red"], ["blue"])).code == "insufficient_goods"
    state, _ = submit(state, (0, DONE), (1, DONE))
    state, events = settle(state)
    assert only(events, "TradeEnded") and state.storage[1][RED] == 1 and not sum(state.aside[1])


def test_a_wild_deal_has_no_size_limit_beyond_what_the_players_hold():
    state, _ = wild(storage={0: {"red": 5}, 1: {"green": 6}})
    state, _ = submit(state, (0, offer(1, ["red"] * 5, ["green"] * 6)))
    state, events = submit(state, (1, accept("0-1-1")))
    assert only(events, "DealMade") and state.aside[1][RED] == 5 and state.aside[0][GREEN] == 6


def test_street_stall_goods_go_straight_to_storage_and_can_be_traded_again():
    state, _ = wild(storage={0: {"red": 1}, 1: {"green": 1}}, cards={1: ["street_stall"]})
    state, _ = submit(state, (0, offer(1, ["red"], ["green"])), (1, accept("0-1-1")))
    assert state.storage[1][RED] == 1 and not sum(state.aside[1])
    submit(state, (1, offer(2, ["red"], ["blue"])))


def test_a_new_offer_to_the_same_player_replaces_the_old_one():
    state, _ = wild()
    state, _ = submit(state, (0, offer(1, ["red"], ["green"])), (0, offer(1, ["red"], ["blue"])))
    assert [o.id for o in state.offers] == ["0-1-2"]
    assert _error(state, 1, accept("0-1-1")).code == "offer_not_found"
    assert _error(state, 2, accept("0-1-2")).code == "offer_not_found"


def test_offers_can_be_declined_and_withdrawn():
    state, _ = wild()
    state, _ = submit(state, (0, offer(1, ["red"], ["green"])), (2, offer(1, ["blue"], ["red"])))
    state, events = submit(state, (1, {"type": "decline", "offer": "0-1-1"}))
    assert events[0].visible_to == (0, 1) and GAME.redact(events[0], 2) is None
    assert _error(state, 1, {"type": "withdraw", "offer": "2-1-1"}).code == "offer_not_found"
    state, _ = submit(state, (2, {"type": "withdraw", "offer": "2-1-1"}))
    assert not state.offers


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (offer(0, ["red"], ["green"]), "invalid_partner"),
        (offer(7, ["red"], ["green"]), "invalid_partner"),
        (offer(1, [], ["green"]), "one_sided_deal"),
        (offer(1, ["red", "red"], ["green"]), "insufficient_goods"),
        (accept("1-0-1"), "offer_not_found"),
        ({"type": "propose", "give": ["red"], "take": ["red"]}, "action_not_allowed"),
    ],
)
def test_a_bad_wild_action_is_refused(action, code):
    state, _ = wild()
    assert _error(state, 0, action).code == code


def test_an_offer_that_can_no_longer_be_met_cannot_be_accepted():
    state, _ = wild(storage={0: {"red": 1}, 1: {"green": 1}, 2: {"blue": 1}})
    state, _ = submit(state, (0, offer(1, ["red"], ["green"])), (0, offer(2, ["red"], ["blue"])))
    state, _ = submit(state, (2, accept("0-2-1")))
    assert _error(state, 1, accept("0-1-1")).code == "insufficient_goods"
    assert not [s for s in GAME.legal(state, 1) if s.type == "accept"]


def test_a_player_who_is_done_trades_no_more_and_their_offers_lapse():
    state, _ = wild()
    state, _ = submit(state, (0, offer(1, ["red"], ["green"])), (1, offer(0, ["green"], ["red"])))
    state, events = submit(state, (0, DONE))
    assert events[0].visible_to == "all" and not state.offers
    assert _error(state, 0, offer(2, ["red"], ["blue"])).code == "already_submitted"
    assert _error(state, 0, DONE).code == "already_submitted"
    assert _error(state, 1, offer(0, ["green"], ["red"])).code == "invalid_partner"
    assert [o.seat for o in GAME.owed(state)] == [1, 2]


def test_the_phase_ends_when_all_but_one_player_are_done():
    state, _ = wild(4)
    state, _ = submit(state, (0, DONE), (2, DONE))
    assert GAME.ready(state) is None
    state, _ = submit(state, (3, DONE))
    assert GAME.ready(state) == "wild-r1" and GAME.owed(state) == [] and GAME.legal(state, 1) == []
    with pytest.raises(PhaseClosed):
        GAME.decide(state, 1, offer(0, ["red"], ["green"]), NoRng())
    state, events = settle(state)
    assert only(events, "TradeEnded") and state.phase in (GIVE_BACK, "bid")


def test_the_last_players_done_is_still_accepted_so_a_deadline_can_apply_every_default():
    state, _ = wild()
    state, _ = submit(state, (0, DONE), (1, DONE), (2, DONE))
    assert GAME.ready(state) == "wild-r1"
    state, events = settle(state)
    assert only(events, "TradeEnded")


def test_private_offers_declines_and_withdrawals_reveal_neither_party_to_others():
    from games.black_market.events import EVENTS

    state, _ = wild()
    state, made = submit(state, (0, offer(1, ["red"], ["green"])), (2, offer(1, ["blue"], ["red"])))
    state, declined = submit(state, (1, {"type": "decline", "offer": "0-1-1"}))
    state, withdrawn = submit(state, (2, {"type": "withdraw", "offer": "2-1-1"}))
    private = [*made, *declined, *withdrawn]
    assert {ev.type.split(".")[1] for ev in private} == {
        "OfferMade",
        "OfferDeclined",
        "OfferWithdrawn",
    }
    for ev in private:
        declared = EVENTS.types[ev.type.split(".")[1]]
        assert declared.private and declared.public == () and declared.sizes == ()
        outsiders = [s for s in (0, 1, 2) if s not in ev.visible_to]
        for viewer in (*outsiders, None):
            assert GAME.redact(ev, viewer) is None  # the service shows an opaque placeholder
    for viewer in (0, None):  # seat 0 is outside the 2 -> 1 offer; nothing of it shows
        assert "2-1-1" not in json.dumps(GAME.view(state, viewer, "en"))
