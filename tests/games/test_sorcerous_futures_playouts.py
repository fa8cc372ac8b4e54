"""Random Sorcerous Futures playouts: conservation, an independent recount, and no leaks."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from games.base import ALL, Event
from games.decktet import cards
from games.decktet_names import card_name
from games.kit import OVER
from games.rng import Rng
from games.sorcerous_futures import GAME
from games.sorcerous_futures.events import EVENTS
from games.sorcerous_futures.state import EXCUSE, SEALED, State, owner_of
from tests.games.playout import Playout, playout

CONFIGS = [(3, {}), (4, {}), (4, {"sly_excuse": True})]
SEEDS = range(30)
LEAK_SEEDS = range(5)
SECRET_CARDS = [n for n, c in cards().items() if c.rank not in ("Ace", "Excuse")]  # Aces: public
CROWNS = [n for n, c in cards().items() if c.rank == "Crown"]
SECRET_KEYS = {"amount", "card", "cards", "crown", "crowns"}


def _id(players: int, options: dict) -> str:
    return f"{players}p" + ("-sly" if options else "")


# --- An independent recount from the event log -------------------------------------


def _value(card: str) -> int:
    rank = cards()[card].rank
    return 1 if rank == "Pawn" else int(rank)


def recount(events: list[Event]) -> dict[int, tuple[int, int]]:
    """Score every seat from the log alone: {seat: (score, valuation total in front)}."""
    by = {}
    for ev in events:
        by.setdefault(ev.type.split(".", 1)[1], []).append(ev.data)
    order = by["GameStarted"][0]["order"]
    holder = by["ExcusePlaced"][0]["seat"]
    aces = {d["seat"]: d["aces"] for d in by["AcesDealt"][0]["aces"]}
    under = {v["under"]: v["card"] for v in by["ValuationsRevealed"][0]["valuations"]}
    crowns = {c["seat"]: c["crown"] for c in by["CrownsRevealed"][0]["crowns"]}
    suit = {cards()[a].suits[0]: _value(c) for a, c in under.items() if a != EXCUSE}
    bonus = _value(under[EXCUSE])
    out = {}
    for seat in order:
        won = [w for w in by.get("AuctionWon", []) if w["seat"] == seat]
        score = 90 - sum(w["amount"] for w in won)
        for w in won:
            suits = cards()[w["card"]].suits
            score += sum(suit[s] for s in suits)
            score += bonus if cards()[crowns[seat]].suits[0] in suits else 0
        front = [under[a] for a in aces.get(seat, [])] + ([under[EXCUSE]] if seat == holder else [])
        out[seat] = (score, sum(_value(c) for c in front))
    return out


def assert_result_is_recounted(run: Playout) -> None:
    figures = recount(run.events)
    result = GAME.result(run.state)
    for st in result.standings:
        score, total = figures[st.seat]
        assert st.score == score
        better = [s for s, (sc, tt) in figures.items() if (sc, -tt) > (score, -total)]
        assert st.place == 1 + len(better)
    assert set(result.winners) == {st.seat for st in result.standings if st.place == 1}
    assert run.events[-1].type == "sorcerous-futures.GameScored"
    assert run.events[-1].data["winners"] == list(result.winners)


# --- What each seat may know ----------------------------------------------------------


def known_crowns(state: State, seat: int | None) -> set[str]:
    """Crowns `seat` may name: its own; all of them for the four-player Excuse holder."""
    if seat is not None and seat == state.excuse_holder:
        return set(CROWNS)
    known = {state.crowns[seat]} if seat is not None and state.crowns[seat] else set()
    if state.revealed:
        known |= {c for c in state.crowns if c}
    return known


def sees_spot(state: State, seat: int | None, under: str) -> bool:
    """Whether `seat` may see the card under `under`, decided here from the rules."""
    if state.revealed or (under == EXCUSE and state.excuse_revealed):
        return True
    return seat is not None and owner_of(state, under) == seat


def sly_holder(state: State, seat: int | None) -> bool:
    return state.sly and seat is not None and seat == state.excuse_holder


def hidden_cards(state: State, seat: int | None) -> list[str]:
    """Card names that must not appear anywhere in what `seat` is shown."""
    hidden = list(state.deck)
    if not sly_holder(state, seat):
        hidden += [c for u, c in state.valuations if not sees_spot(state, seat, u)]
    hidden += [c for c in CROWNS if c not in known_crowns(state, seat)]
    return hidden


def _renaming(hidden: list[str]) -> dict[str, str]:
    return dict(zip(hidden, hidden[1:] + hidden[:1], strict=True))


def _disguise_valuations(state: State, seat: int | None) -> tuple[tuple, tuple]:
    secret = [c for u, c in state.valuations if not sees_spot(state, seat, u)]
    sly = sly_holder(state, seat)  # knows the seven as a set: only their places may change
    swap = _renaming(secret if sly else secret + list(state.deck))
    vals = tuple((u, swap.get(c, c)) for u, c in state.valuations)
    deck = tuple(swap.get(c, c) for c in state.deck)
    return vals, deck[::-1] if sly else deck


def _disguise_crowns(state: State, seat: int | None) -> tuple[tuple, tuple, tuple]:
    swap = _renaming([c for c in CROWNS if c not in known_crowns(state, seat)])
    return (
        tuple(swap.get(c, c) for c in state.crowns),
        tuple(swap.get(c, c) for c in state.set_aside),
        tuple(tuple(swap.get(c, c) for c in hand) for hand in state.holding),
    )


def disguised(state: State, seat: int | None) -> State:
    """Return `state` with everything `seat` may not know changed."""
    valuations, deck = _disguise_valuations(state, seat)
    crowns, aside, holding = _disguise_crowns(state, seat)
    sealed = tuple((s, a if s == seat else (a + 1) % (state.gold[s] + 1)) for s, a in state.sealed)
    return replace(
        state,
        valuations=valuations,
        deck=deck,
        crowns=crowns,
        set_aside=aside,
        holding=holding,
        sealed=sealed if state.phase == SEALED else state.sealed,
    )


def _shown(state: State, seat: int | None, lang: str) -> str:
    legal = GAME.legal(state, seat) if seat is not None else []
    specs = [{"type": s.type, "schema": s.schema, "choices": s.choices} for s in legal]
    return json.dumps([GAME.view(state, seat, lang), specs], ensure_ascii=False)


def assert_view_hides_secrets(state: State, seat: int | None) -> None:
    for lang in ("en", "es"):
        text = _shown(state, seat, lang)
        for name in hidden_cards(state, seat):
            assert json.dumps(card_name(name, lang), ensure_ascii=False) not in text, (
                f"{name} leaks to seat {seat}"
            )
    if state.phase != OVER:
        other = disguised(state, seat)
        assert _shown(other, seat, "en") == _shown(state, seat, "en"), f"seat {seat} sees secrets"
        view = GAME.view(state, seat, "en")
        for p in view["players"]:
            assert p["crown"] is None or p["seat"] == seat or seat == state.excuse_holder
        if seat is None or seat != state.excuse_holder or not state.sly:
            assert view["valuation_pool"] is None


def assert_redaction_hides_secrets(ev: Event, seat: int | None) -> None:
    if ev.visible_to == ALL or (seat is not None and seat in ev.visible_to):
        return
    public = GAME.redact(ev, seat)
    text = json.dumps(public)
    assert not SECRET_KEYS & set(public), f"{ev.type} keeps a secret field for {seat}"
    assert not any(json.dumps(n) in text for n in SECRET_CARDS), f"{ev.type} names a card"


def leak_checker():
    checked = {"events": 0}

    def check(run: Playout) -> None:
        state = run.state
        fresh = run.events[checked["events"] :]
        checked["events"] = len(run.events)
        for seat in (*state.order, None):
            assert_view_hides_secrets(state, seat)
            for ev in fresh:
                assert_redaction_hides_secrets(ev, seat)

    return check


# --- Tests ------------------------------------------------------------------------------


def _sound(run: Playout, keys_gone: set[str], keys_seen: set[str]) -> None:
    state = run.state
    owed = GAME.owed(state)
    now = {o.key for o in owed}
    assert not now & keys_gone, "a decision key came back"
    keys_gone.update(keys_seen - now)
    keys_seen.clear()
    keys_seen.update(now)
    if GAME.ready(state) is not None:
        assert owed == []
    elif any(o.simultaneous for o in owed):
        assert all(o.simultaneous for o in owed) and len(now) == 1
    else:
        assert len(owed) <= 1
    for seat in state.order:
        assert bool(GAME.legal(state, seat)) == any(o.seat == seat for o in owed)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=[_id(*c) for c in CONFIGS])
def test_random_playout_keeps_every_invariant_and_recounts(players, options, seed):
    gone: set[str] = set()
    seen: set[str] = set()
    run = playout(GAME, players, seed, options, lambda r: _sound(r, gone, seen))
    assert GAME.is_over(run.state)
    assert len(run.state.deck) == 1 and not run.state.row
    assert sum(len(o) for o in run.state.owned) == 20
    assert_result_is_recounted(run)
    for seat in run.state.order:
        assert run.state.crowns[seat] not in [
            c for c in CROWNS if cards()[c].suits[0] in
            {cards()[a].suits[0] for a in run.state.aces[seat]}
        ]  # fmt: skip


@pytest.mark.parametrize("seed", LEAK_SEEDS)
@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=[_id(*c) for c in CONFIGS])
def test_no_view_legal_or_redacted_event_reveals_a_secret(players, options, seed):
    check = leak_checker()
    run = playout(GAME, players, 100 + seed, options, check)
    assert GAME.is_over(run.state)


@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=[_id(*c) for c in CONFIGS])
def test_the_first_decision_hides_every_secret(players, options):
    for seed in range(10):
        opts = GAME.normalize_options(options, players)
        events = GAME.setup(opts, tuple(range(players)), Rng(f"first-{seed}".encode()))
        state = None
        for ev in events:
            state = GAME.evolve(state, ev)
        for seat in (*state.order, None):
            assert_view_hides_secrets(state, seat)
            for ev in events:
                assert_redaction_hides_secrets(ev, seat)


def test_playouts_reach_every_event_and_decision():
    seen_events: set[str] = set()
    seen_kinds: set[str] = set()

    def note(run: Playout) -> None:
        seen_kinds.update(o.kind for o in GAME.owed(run.state))

    for seed in range(12):
        players, options = CONFIGS[seed % 3]
        run = playout(GAME, players, 500 + seed, options, note)
        seen_events.update(ev.type.split(".", 1)[1] for ev in run.events)
    assert seen_events == set(EVENTS.types)
    assert seen_kinds == {"crowns", "auction", "bid", "sealed_bid"}
