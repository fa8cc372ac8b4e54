"""Random Goblin Market playouts: conservation, an independent recount, and no leaks."""

from __future__ import annotations

import json

import pytest

from games.base import ALL
from games.decktet import SUITS, cards
from games.decktet_names import card_name
from games.goblin_market import GAME
from games.goblin_market.events import EVENTS
from tests.games.playout import Playout, playout

SEEDS = range(40)
LEAK_SEEDS = range(4)
ALL_CARDS = [name for name, card in cards().items() if card.rank != "Excuse"]


def _options(seed: int) -> dict:
    return {"edition": "es" if seed % 2 else "en", "courts": seed % 3 != 0}


def recount(card_names: list[str]) -> tuple[int, int]:
    """Score cards from scratch: (points, positive points)."""
    counts = {suit: 0 for suit in SUITS}
    for name in card_names:
        for suit in cards()[name].suits:
            counts[suit] += 1
    ranked = sorted(counts.values(), reverse=True)
    return sum(ranked[:3]) - sum(ranked[3:]), sum(ranked[:3])


def _quoted(name: str) -> list[str]:
    return [json.dumps(card_name(name, lang), ensure_ascii=False) for lang in ("en", "es")]


def assert_no_leak(run: Playout) -> None:
    """Check that no view or redacted event names a card still hidden in a deck."""
    state = run.state
    seen_goblins = {*state.goblin_used, state.goblin_shown}
    hidden = [*state.auction_deck, *[c for c in state.goblin_deck if c not in seen_goblins]]
    for seat in (*state.order, None):
        for lang in ("en", "es"):
            text = json.dumps(GAME.view(state, seat, lang), ensure_ascii=False)
            for name in hidden:
                for quoted in _quoted(name):
                    assert quoted not in text, f"{name} leaks to seat {seat}"
        for ev in run.events:
            if ev.visible_to != ALL and (seat is None or seat not in ev.visible_to):
                text = json.dumps(GAME.redact(ev, seat))
                assert not any(json.dumps(n) in text for n in ALL_CARDS), ev.type


def assert_turn_is_sound(run: Playout) -> None:
    """Check coins, owed decisions and legal actions after a decision."""
    state = run.state
    view = GAME.view(state, None, "en")
    assert all(p["coins"] >= 0 for p in view["players"])
    owed = GAME.owed(state)
    assert len(owed) <= 1
    for seat in state.order:
        assert bool(GAME.legal(state, seat)) == any(o.seat == seat for o in owed)


def assert_result_is_recounted(run: Playout) -> None:
    """Check the result against a recount from the final view."""
    state = run.state
    result = GAME.result(state)
    view = GAME.view(state, None, "en")
    figures = {p["seat"]: recount([c["id"] for c in p["cards"]]) for p in view["players"]}
    assert sorted(s.seat for s in result.standings) == sorted(state.order)
    edition = GAME.view(state, None, "en")["edition"]
    top = max(f[0] for f in figures.values())

    def key(seat: int) -> tuple[int, int]:
        # en breaks a tie for first place by positive points; other ties share a place
        points, positive = figures[seat]
        return (points, positive if edition == "en" and points == top else 0)

    for st in result.standings:
        assert st.score == figures[st.seat][0]
        better = [s for s in state.order if key(s) > key(st.seat)]
        assert st.place == 1 + len(better)
    assert set(result.winners) == {st.seat for st in result.standings if st.place == 1}
    assert [s.place for s in result.standings] == sorted(s.place for s in result.standings)
    assert run.events[-1].type == "goblin-market.GameScored"
    assert run.events[-1].data["winners"] == list(result.winners)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_playout_keeps_every_invariant(players, seed):
    keys_done: set[str] = set()

    def after_each(run: Playout) -> None:
        assert_turn_is_sound(run)
        for o in GAME.owed(run.state):
            assert o.key not in keys_done, "a decision key came back"
        keys_done.update(o.key for o in GAME.owed(run.state))

    run = playout(GAME, players, seed, _options(seed), after_each)
    assert GAME.is_over(run.state)
    assert not run.state.auction_deck and not run.state.offer
    assert_result_is_recounted(run)


@pytest.mark.parametrize("seed", LEAK_SEEDS)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_no_view_or_redacted_event_reveals_a_deck_order(players, seed):
    run = playout(GAME, players, 100 + seed, _options(seed), assert_no_leak)
    assert_no_leak(run)


def test_playouts_reach_every_event_and_decision():
    seen_events: set[str] = set()
    seen_kinds: set[str] = set()

    def note(run: Playout) -> None:
        seen_kinds.update(o.kind for o in GAME.owed(run.state))

    for seed in range(10):
        run = playout(GAME, 3 + seed % 4, 500 + seed, _options(seed), note)
        seen_events.update(ev.type.split(".", 1)[1] for ev in run.events)
    assert seen_events == set(EVENTS.types)
    assert seen_kinds == {"bid", "split_choice", "card_choice"}
