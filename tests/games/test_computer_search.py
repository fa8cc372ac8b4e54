"""The computer players on the pure rules: legal moves only, decisions that never depend
on the cards a seat cannot see, and a strong level that always answers in time."""

from __future__ import annotations

import random
import time

import pytest

import computer
import games
from computer.policies import quick
from computer.search import search
from computer.selfplay import new_game, play
from games.base import Game
from games.rng import Rng

# view members no sampler changes (others' sealed submissions are taken back, so `owed`
# and `submitted` may differ): the table and the seat's own cards
KEPT = ("players", "hand", "row", "valuations", "auction_deck_size", "deck_size", "phase", "order")
ITERATIONS = 12  # samples per decision here: enough to exercise the search, and quick


def _decisions(game: Game, players: int, seed: int, every: int = 1) -> list:
    """Play a game with quick players (the invariants checked after every event); return
    (state, seat) at every `every`th decision."""
    rng, draws, seen = random.Random(seed), Rng(b"t-%d" % seed), []

    def choose(state, seat: int, specs) -> dict:
        if (len(seen) + 1) % every == 0 or every == 1:
            seen.append((state, seat))
        else:
            seen.append(None)
        return quick(specs, rng)

    play(
        game,
        new_game(game, players, rng, draws, game.check_invariants),
        choose,
        rng,
        draws,
        after=game.check_invariants,
    )
    return [x for x in seen if x is not None]


def _strong(game: Game, state, seat: int, seed: int) -> dict:
    """The strong level's decision with a fixed number of samples (no clock)."""
    return search(
        game,
        seat,
        game.legal(state, seat),
        lambda r: computer.sample(game.id, state, seat, r),
        budget_s=1e9,
        rng=random.Random(seed),
        max_iterations=ITERATIONS,
    ).action


@pytest.mark.parametrize("ruleset", sorted(games.REGISTRY))
def test_the_strong_level_plays_whole_games_with_legal_moves_only(ruleset):
    """A game where one seat is the search and the others quick players ends, and the
    rules accept every move the search makes (decide would raise otherwise)."""
    game = games.REGISTRY[ruleset]
    rng, draws, searched = random.Random(5), Rng(b"legal"), []

    def choose(state, seat: int, specs) -> dict:
        if seat != 0:
            return quick(specs, rng)
        searched.append(seat)
        return search(
            game,
            seat,
            specs,
            lambda r: computer.sample(game.id, state, 0, r),
            1e9,
            rng,
            max_iterations=4,
        ).action

    state = new_game(game, game.min_players, rng, draws)
    state = play(game, state, choose, rng, draws, after=game.check_invariants)
    assert len(searched) > 5 and game.is_over(state)


def _hidden_swapped(game: Game, state, seat: int, seed: int):
    """Return the real state with every card `seat` cannot see dealt again (another deal
    of the same information set: what the seat may know is unchanged)."""
    return computer.sample(game.id, state, seat, random.Random(10_000 + seed))


@pytest.mark.parametrize("ruleset", sorted(games.REGISTRY))
def test_decisions_do_not_depend_on_the_hidden_cards(ruleset):
    """Two states a seat cannot tell apart (the real one, and one whose hidden cards lie
    elsewhere) give the same samples and the same decision, at every tenth decision of a
    game; and the swapped states really differ, so the test could fail."""
    game = games.REGISTRY[ruleset]
    differed = checked = 0
    for i, (state, seat) in enumerate(_decisions(game, game.min_players, seed=11, every=7)):
        twin = _hidden_swapped(game, state, seat, i)
        differed += twin != state
        for k in range(3):
            assert computer.sample(game.id, state, seat, random.Random(k)) == computer.sample(
                game.id, twin, seat, random.Random(k)
            )
        mine = game.view(state, seat, "en")  # what the seat sees of its own is the same
        assert {k: v for k, v in game.view(twin, seat, "en").items() if k in KEPT} == {
            k: v for k, v in mine.items() if k in KEPT
        }
        if checked < 4 and len(game.legal(state, seat)) > 1:
            assert _strong(game, state, seat, i) == _strong(game, twin, seat, i)
            checked += 1
    assert differed > 0 and checked > 0


def test_the_search_cannot_see_a_hand_it_is_not_shown():
    """GobCon: the samples the search plays on deal the other hands again (the real hands
    of the others are not in them, unless by chance), and keep the seat's own hand."""
    game = games.REGISTRY["gobcon"]
    state, seat = next(iter(_decisions(game, 3, seed=2, every=5)))
    other = next(s for s in range(3) if s != seat)
    samples = [computer.sample(game.id, state, seat, random.Random(k)) for k in range(20)]
    assert all(s.hands[seat] == state.hands[seat] for s in samples)
    assert any(s.hands[other] != state.hands[other] for s in samples)
    assert all(sorted(s.hands[other] + s.draw) != [] for s in samples)


@pytest.mark.parametrize("level", computer.LEVELS)
def test_both_levels_answer_with_a_legal_action(level):
    game = games.REGISTRY["goblin-market"]
    state, seat = next(iter(_decisions(game, 3, seed=4)))
    specs = game.legal(state, seat)
    action, by = computer.decide(
        level,
        game,
        seat,
        specs,
        lambda r: computer.sample(game.id, state, seat, r),
        0.05,
        random.Random(1),
    )
    assert by == level
    game.decide(state, seat, action, Rng(b"x"))  # accepted by the rules


def test_a_search_that_raises_gives_way_to_the_quick_level():
    game = games.REGISTRY["sorcerous-futures"]
    state, seat = next(iter(_decisions(game, 3, seed=4)))

    def broken(*args, **kwargs):
        raise RuntimeError("the search fell over")

    action, by = computer.decide(
        "strong",
        game,
        seat,
        game.legal(state, seat),
        lambda r: state,
        0.05,
        random.Random(1),
        searcher=broken,
    )
    assert by == "quick"
    game.decide(state, seat, action, Rng(b"x"))


def test_a_search_that_overruns_gives_way_to_the_quick_level_in_time():
    game = games.REGISTRY["black-market"]
    state, seat = next(iter(_decisions(game, 3, seed=4)))

    def stuck(*args, **kwargs):
        time.sleep(5)  # far past its budget

    started = time.monotonic()
    action, by = computer.decide(
        "strong",
        game,
        seat,
        game.legal(state, seat),
        lambda r: state,
        0.1,
        random.Random(1),
        searcher=stuck,
    )
    took = time.monotonic() - started
    assert by == "quick" and took < 0.1 + computer.GRACE_S + 0.5
    game.decide(state, seat, action, Rng(b"x"))


def test_the_quick_level_bids_low_where_random_play_spends_everything():
    """The habit that makes the quick level better than random: its bids stay near the
    minimum (Sorcerous Futures' 90 gold)."""
    game = games.REGISTRY["goblin-market"]
    rng = random.Random(3)
    for state, seat in _decisions(game, 3, seed=8):
        specs = game.legal(state, seat)
        bid = next((s for s in specs if s.type == "bid"), None)
        if bid and bid.choices and len(bid.choices) > 5:
            low = min(c["amount"] for c in bid.choices)
            picks = [quick([bid], rng)["amount"] for _ in range(200)]
            assert sum(picks) / len(picks) < low + 2
            return
    pytest.fail("no wide bid in the game")


def _first(game: Game, kind: str, players: int = 3, seed: int = 8):
    """Return (state, seat, spec) at the first decision of a quick game offering `kind`."""
    for state, seat in _decisions(game, players, seed):
        spec = next((s for s in game.legal(state, seat) if s.type == kind), None)
        if spec is not None:
            return state, seat, spec
    pytest.fail(f"no {kind} decision in the game")


def test_the_quick_level_produces_trades_and_sells_as_black_market_rewards():
    """Black Market's goods are worth something only once traded and sold: the quick
    level produces as many goods as it may, proposes even deals more often than it
    passes, accepts most deals, and sells for every point its storage affords."""
    from games.black_market.selling import best_sale
    from games.black_market.state import production_limit

    game, rng, draws = games.REGISTRY["black-market"], random.Random(4), Rng(b"habits")
    state, seat, produce = _first(game, "produce")
    for _ in range(50):
        action = quick([produce], rng)
        assert len(action["goods"]) == production_limit(state, seat)
        game.decide(state, seat, action, draws)
    state, seat, _ = _first(game, "propose")
    actions = [quick(game.legal(state, seat), rng) for _ in range(400)]
    deals = [a for a in actions if a["type"] == "propose"]
    assert len(deals) > 2 * (len(actions) - len(deals))
    for deal in deals[:50]:
        assert 1 <= len(deal["give"]) == len(deal["take"]) <= 3
        game.decide(state, seat, deal, draws)
    state, seat, answer = _first(game, "answer")
    accepted = sum(quick([answer], rng)["accept"] for _ in range(400))
    assert 280 < accepted < 360
    state, seat, sell = _first(game, "sell")
    vp = quick([sell], rng)["vp"]
    assert tuple(vp.get(c, 0) for c in ("red", "yellow", "green", "blue", "purple", "orange")) == (
        best_sale(state, seat)
    )
    game.decide(state, seat, {"type": "sell", "vp": vp}, draws)


def test_the_quick_level_plays_its_cards_in_gobcon_before_it_discards():
    """A discard ends GobCon's play step: the quick level plays a card three times as
    often as it discards when both are open."""
    game, rng = games.REGISTRY["gobcon"], random.Random(2)
    state, seat, _ = _first(game, "play", players=2)
    kinds = [quick(game.legal(state, seat), rng)["type"] for _ in range(600)]
    assert kinds.count("play") > 2 * kinds.count("discard") > 0


def test_the_strong_level_weighs_the_quick_levels_habitual_values():
    """Among Black Market's many productions the search weighs only full ones (a few
    of them), not a random share of every production down to none."""
    from computer.search import candidates
    from games.black_market.state import production_limit

    game = games.REGISTRY["black-market"]
    state, seat, produce = _first(game, "produce")
    assert len(produce.schema["properties"]["goods"]["enum"]) > 24
    weighed = candidates([produce], random.Random(1))
    assert 1 < len(weighed) <= 6
    assert all(len(a["goods"]) == production_limit(state, seat) for a in weighed)
