"""Sorcerous Futures with four players: the Excuse holder's Crowns and the Sly Excuse."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from games.base import RuleViolation
from games.decktet import cards
from games.rng import NoRng, Rng
from games.sorcerous_futures import GAME
from games.sorcerous_futures.assignment import completions, draw, steps
from games.sorcerous_futures.state import EXCUSE
from tests.games.sorcerous_futures_table import SUIT_OF, aces_of, act, names, only, set_up

# --- Four players: the Excuse holder hands out Crowns -------------------------------


def test_four_players_draw_the_excuse_holder_who_gets_no_aces_and_owes_the_crowns():
    holders = set()
    for seed in range(20):
        state, events = set_up(4, seed)
        holder = only(events, "ExcusePlaced")[0]["seat"]
        holders.add(holder)
        assert state.aces[holder] == ()
        assert all(len(state.aces[s]) == 2 for s in range(4) if s != holder)
        assert [(o.seat, o.kind, o.default) for o in GAME.owed(state)] == [
            (holder, "crowns", {"type": "random_crowns"})
        ]
        assert not only(events, "ValuationDealt"), "valuations come after the Crowns"
    assert holders == {0, 1, 2, 3}


def _holder_state(seed=0):
    state, _ = set_up(4, seed)
    return state, state.excuse_holder


def test_the_holder_gives_each_other_seat_a_crown_and_keeps_one():
    state, holder = _holder_state(2)
    others = [s for s in range(4) if s != holder]
    rng = Rng(b"give")
    for seat in others:
        crown = next(
            c
            for c in state.holding[holder]
            if SUIT_OF[c] not in aces_of(state, seat)
            and any((seat, c) in p for p in completions(state))
        )
        state, events = act(state, (holder, {"type": "give_crown", "seat": seat, "crown": crown}))
        ev = events[0]
        assert ev.type.endswith(".CrownGiven") and ev.visible_to == (holder, seat)
        assert GAME.redact(ev, others[0] if seat != others[0] else others[1]) == {"seat": seat}
    keep = state.holding[holder][0]
    state, events = act(state, (holder, {"type": "keep_crown", "crown": keep}), rng=rng)
    assert names(events)[:3] == ["CrownKept", "CrownsSetAside", "DeckShuffled"]
    assert events[1].visible_to == (holder,) and len(events[1].data["crowns"]) == 2
    assert state.crowns[holder] == keep
    view = GAME.view(state, holder, "en")
    assert all(p["crown"]["id"] == state.crowns[p["seat"]] for p in view["players"])
    assert len(view["set_aside_crowns"]) == 2
    for seat in others:
        seen = {p["seat"]: p["crown"] for p in GAME.view(state, seat, "en")["players"]}
        assert seen[seat]["id"] == state.crowns[seat]
        assert all(seen[s] is None for s in range(4) if s != seat)


def test_a_crown_matching_the_recipients_aces_is_refused():
    state, holder = _holder_state(3)
    seat = next(s for s in range(4) if s != holder)
    bad = next(c for c in state.holding[holder] if SUIT_OF[c] in aces_of(state, seat))
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, holder, {"type": "give_crown", "seat": seat, "crown": bad}, NoRng())
    assert err.value.code == "crown_matches_aces"
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, holder, {"type": "give_crown", "seat": holder, "crown": bad}, NoRng())
    assert err.value.code == "invalid_recipient"
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, seat, {"type": "random_crowns"}, NoRng())
    assert err.value.code == "not_your_turn"


def test_giving_twice_to_one_seat_or_keeping_twice_is_refused():
    state, holder = _holder_state(4)
    keep = state.holding[holder][0]
    state, _ = act(state, (holder, {"type": "keep_crown", "crown": keep}))
    with pytest.raises(RuleViolation) as err:
        GAME.decide(
            state, holder, {"type": "keep_crown", "crown": state.holding[holder][0]}, NoRng()
        )
    assert err.value.code == "crown_already_kept"
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, holder, {"type": "keep_crown", "crown": keep}, NoRng())
    assert err.value.code == "crown_not_available"
    give = GAME.legal(state, holder)[1].choices[0]
    state, _ = act(state, (holder, give))
    with pytest.raises(RuleViolation) as err:
        again = {**give, "crown": state.holding[holder][0]}
        GAME.decide(state, holder, again, NoRng())
    assert err.value.code == "crown_already_given"


def test_every_offered_crown_step_can_be_completed():
    for seed in range(15):
        state, holder = _holder_state(seed)
        pick = Rng(f"walk-{seed}".encode())
        while GAME.owed(state) and GAME.owed(state)[0].kind == "crowns":
            specs = [s for s in GAME.legal(state, holder) if s.type != "random_crowns"]
            choices = [c for s in specs for c in s.choices]
            assert choices
            state, _ = act(state, (holder, pick.choice(choices)), rng=pick)
        assert all(
            SUIT_OF[state.crowns[s]] not in aces_of(state, s) for s in range(4) if s != holder
        )


def _after(state, seat, crown):
    holder = state.excuse_holder
    crowns = list(state.crowns)
    crowns[seat] = crown
    hand = tuple(c for c in state.holding[holder] if c != crown)
    holding = tuple(hand if i == holder else h for i, h in enumerate(state.holding))
    return replace(state, crowns=tuple(crowns), holding=holding)


def test_no_order_of_fitting_steps_can_leave_a_seat_without_a_fitting_crown():
    state, holder = _holder_state(0)  # every deal of Aces is this one with suits renamed
    stack, reached = [state], 0
    while stack:
        state = stack.pop()
        reached += 1
        done = {p for c in completions(state) for p in c}
        assert set(steps(state)) == done
        stack += [_after(state, s, c) for s, c in steps(state)]
    assert reached > 4000


def test_the_random_default_draws_a_uniformly_random_valid_assignment():
    state, holder = _holder_state(6)
    every = completions(state)
    assert len(every) == len(set(every)) == 120  # 5 x 4 x 2 ways to serve the others, x 3 keeps
    events = GAME.decide(state, holder, {"type": "random_crowns"}, Rng(b"pick"))
    index = Rng(b"pick").below(len(every))  # one uniform draw over the full list
    assert tuple((e.data["seat"], e.data["crown"]) for e in events[:4]) == every[index]
    assert all(e.data["random"] for e in events[:4])
    counts: Counter = Counter()
    rng = Rng(b"uniform")
    draws = 20 * len(every)
    for _ in range(draws):
        picked = tuple((e.data["seat"], e.data["crown"]) for e in draw(state, rng))
        counts[picked] += 1
    assert set(counts) == set(every)
    expected = draws / len(every)
    chi2 = sum((counts[c] - expected) ** 2 / expected for c in every)
    assert chi2 < 2 * len(every)  # loose: a skewed draw would be far above its mean


# --- The Sly Excuse ------------------------------------------------------------------


def _sly_state(seed=0):
    state, holder = _holder_state(seed)
    state = replace(state, sly=True)
    state, events = act(state, (holder, {"type": "random_crowns"}), rng=Rng(b"sly"))
    return state, holder, events


def test_the_sly_excuse_holder_draws_seven_cards_sees_them_as_a_set_then_they_are_dealt():
    state, holder, events = _sly_state(1)
    assert names(events)[5:8] == ["DeckShuffled", "ValuationCardsDrawn", "ValuationCardsShuffled"]
    drawn = events[6]
    assert drawn.visible_to == (holder,) and GAME.redact(drawn, None) == {
        "seat": holder,
        "count": 7,
    }
    order = list(cards())
    assert drawn.data["cards"] == sorted(drawn.data["cards"], key=order.index)
    assert events[7].visible_to == () and GAME.redact(events[7], holder) == {"size": 7}
    dealt = only(events, "ValuationDealt")
    assert sorted(d["card"] for d in dealt) == sorted(drawn.data["cards"])
    assert [d["card"] for d in dealt] == events[7].data["cards"]
    view = GAME.view(state, holder, "en")
    assert [c["id"] for c in view["valuation_pool"]] == drawn.data["cards"]
    for spot in view["valuations"]:
        assert (spot["card"] is not None) == (spot["under"]["id"] == EXCUSE)
    for seat in (s for s in range(4) if s != holder):
        assert GAME.view(state, seat, "en")["valuation_pool"] is None


def test_without_the_variant_nobody_sees_the_seven_cards():
    state, holder = _holder_state(1)
    state, events = act(state, (holder, {"type": "random_crowns"}), rng=Rng(b"plain"))
    assert "ValuationCardsDrawn" not in names(events)
    assert GAME.view(state, holder, "en")["valuation_pool"] is None
    spots = {s["under"]["id"]: s["card"] for s in GAME.view(state, holder, "en")["valuations"]}
    assert spots[EXCUSE] is not None, "the holder looks at the card under its Excuse"
    assert sum(card is not None for card in spots.values()) == 1
