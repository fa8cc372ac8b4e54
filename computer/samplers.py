"""Information-set samplers: a full game state drawn at random among those a seat cannot
tell apart from the real one.

`sample(game_id, state, seat, rng)` keeps everything `seat` may know (its view: the
table, its own hand and secrets, every public fact) and deals everything hidden from it
again at random: the order of every deck, the other seats' hands, the cards under
others' Aces, the Crowns it has not seen, and the other seats' sealed submissions (which
are taken back: in the sample those seats have still to decide). Every hidden pool is
sorted before it is shuffled, so the sample depends on what the seat knows and on `rng`
only, never on where the hidden cards really lie: tests/games/test_computer_search.py
swaps the hidden cards of a real state and checks that the samples do not change.

The search (computer.search) reads states only through these samples.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

Sampler = Callable[[Any, int, random.Random], Any]


def _deal(pool: list[str], sizes: list[int], rng: random.Random) -> list[tuple[str, ...]]:
    """Shuffle the sorted `pool` and cut it into consecutive parts of `sizes`."""
    cards = sorted(pool)
    rng.shuffle(cards)
    out, at = [], 0
    for n in sizes:
        out.append(tuple(cards[at : at + n]))
        at += n
    return out


def goblin_market(state: Any, seat: int, rng: random.Random) -> Any:
    """Goblin Market hides only the order of its two decks."""
    (auction,) = _deal(list(state.auction_deck), [len(state.auction_deck)], rng)
    (goblin,) = _deal(list(state.goblin_deck), [len(state.goblin_deck)], rng)
    return replace(state, auction_deck=auction, goblin_deck=goblin)


def sorcerous_futures(state: Any, seat: int, rng: random.Random) -> Any:
    """Sorcerous Futures hides the cards under others' Aces, the Crowns a seat has not
    seen, the deck's order, the sly Excuse's pool, and others' sealed bids."""
    from games.sorcerous_futures.view import sees_crown, sees_valuation

    holder = state.excuse_holder == seat
    hidden = [
        i for i, (under, _) in enumerate(state.valuations) if not sees_valuation(state, seat, under)
    ]
    # the sly Excuse's holder knows which cards are under the valuations (not where)
    keep_pool = holder and state.sly
    vals = [state.valuations[i][1] for i in hidden]
    deck, pool = list(state.deck), list(state.pool)
    if keep_pool:
        (new_vals,) = _deal(vals, [len(vals)], rng)
        (new_deck,) = _deal(deck, [len(deck)], rng)
        new_pool = tuple(pool)
    else:
        mixed = vals + deck + ([] if holder else pool)
        shown_pool = holder
        sizes = [len(vals), len(deck)] + ([] if shown_pool else [len(pool)])
        parts = _deal(mixed, sizes, rng)
        new_vals, new_deck = parts[0], parts[1]
        new_pool = tuple(pool) if shown_pool else parts[2]
    valuations = list(state.valuations)
    for i, card in zip(hidden, new_vals, strict=True):
        valuations[i] = (valuations[i][0], card)
    crowns, holding, set_aside = list(state.crowns), list(state.holding), state.set_aside
    if not holder:
        unseen = [
            s
            for s in state.order
            if crowns and crowns[s] is not None and not sees_crown(state, seat, s)
        ]
        others = [s for s in range(len(holding)) if s != seat]
        pool_c = (
            [crowns[s] for s in unseen] + list(set_aside) + [c for s in others for c in holding[s]]
        )
        sizes = [1] * len(unseen) + [len(set_aside)] + [len(holding[s]) for s in others]
        parts = _deal(pool_c, sizes, rng)
        for s, part in zip(unseen, parts, strict=False):
            crowns[s] = part[0]
        set_aside = parts[len(unseen)]
        for s, part in zip(others, parts[len(unseen) + 1 :], strict=True):
            holding[s] = part
    sealed = tuple((s, a) for s, a in state.sealed if s == seat)
    return replace(
        state,
        valuations=tuple(valuations),
        deck=new_deck,
        pool=new_pool,
        crowns=tuple(crowns),
        holding=tuple(holding),
        set_aside=set_aside,
        sealed=sealed,
    )


def gobcon(state: Any, seat: int, rng: random.Random) -> Any:
    """GobCon hides the other hands (but for cards revealed in a window's queue), the draw
    pile's order, and others' sealed answers and joins."""
    from games.gobcon.state import update

    shown = {card for link in state.chain if link.window for _, card in link.window.queue}
    others = [s for s in range(len(state.hands)) if s != seat]
    kept = {s: [c for c in state.hands[s] if c in shown] for s in others}
    pool = [c for s in others for c in state.hands[s] if c not in shown] + list(state.draw)
    sizes = [len(state.hands[s]) - len(kept[s]) for s in others] + [len(state.draw)]
    parts = _deal(pool, sizes, rng)
    hands = list(state.hands)
    for s, part in zip(others, parts, strict=False):
        hands[s] = tuple(kept[s]) + part
    chain = tuple(
        replace(
            link,
            window=replace(
                link.window, submitted=tuple(x for x in link.window.submitted if x[0] == seat)
            ),
        )
        if link.window is not None and not link.window.queue
        else link
        for link in state.chain
    )
    contest = state.contest
    if contest is not None and not contest.players:
        contest = replace(contest, joins=tuple(j for j in contest.joins if j[0] == seat))
    return update(state, hands=tuple(hands), draw=parts[-1], chain=chain, contest=contest)


def black_market(state: Any, seat: int, rng: random.Random) -> Any:
    """Black Market hides the deck's order, others' sealed submissions and the private
    offers a seat is not party to."""
    (deck,) = _deal(list(state.deck), [len(state.deck)], rng)
    sealed = tuple((s, v) for s, v in state.sealed if s == seat)
    submitted = tuple(s for s in state.submitted if s == seat)
    offers = tuple(o for o in state.offers if seat in (o.frm, o.to))
    counts = tuple(c for c in state.offer_counts if seat in (c[0], c[1]))
    return replace(
        state, deck=deck, sealed=sealed, submitted=submitted, offers=offers, offer_counts=counts
    )


SAMPLERS: dict[str, Sampler] = {
    "goblin-market": goblin_market,
    "sorcerous-futures": sorcerous_futures,
    "gobcon": gobcon,
    "black-market": black_market,
}


def sample(game_id: str, state: Any, seat: int, rng: random.Random) -> Any:
    """Return a state drawn among those `seat` cannot tell from `state` (see above)."""
    return SAMPLERS[game_id](state, seat, rng)
