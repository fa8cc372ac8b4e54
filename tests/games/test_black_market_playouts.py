"""Random Black Market playouts: conservation, storage limit, endings, a recount, and no leaks."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from games.base import ALL
from games.black_market import GAME
from games.black_market.data import SUPPLY
from games.black_market.events import EVENTS
from games.black_market.state import PRODUCE, ROUND
from games.rng import NoRng
from tests.games.playout import Playout, playout

SEEDS = range(6)
LEAK_SEEDS = range(1)
MODES = ("regulated", "wild")
ENDINGS = {"supply", "vp_track", "last_card"}
TRACK = [(1, 0), (2, 0), (2, 1), (3, 2), (4, 2), (5, 2), (6, 3), (7, 4)]
SET_POINTS = [0, 1, 3, 6, 10, 15]
AREAS = ("production", "storage", "aside", "vp")


def assert_table_is_sound(run: Playout) -> None:
    """Check conservation, counts and the storage limit from the spectator's view alone."""
    view = GAME.view(run.state, None, "en")
    n = len(view["players"])
    for colour in view["colours"]:
        c = colour["id"]
        held = sum(p[area][c] for p in view["players"] for area in AREAS)
        assert colour["supply"] + colour["on_offer"] + held == SUPPLY[n] + n, c
        assert colour["supply"] >= 0 and 1 <= colour["row"] <= 11
    for p in view["players"]:
        assert all(v >= 0 for area in AREAS for v in p[area].values())
        if view["phase"] in (ROUND, PRODUCE):  # every sale and discard of the round is done
            assert sum(p["storage"].values()) <= p["storage_limit"]


def recount(view: dict) -> dict[int, tuple[int, ...]]:
    """Score every seat from the final view, independently of the game's scoring code."""
    players, colours = view["players"], view["colours"]
    totals = {
        p["seat"]: sum(p["vp"].values()) + SET_POINTS[min(5, len(p["cards"]))] for p in players
    }
    by_colour = {p["seat"]: {} for p in players}
    for colour in colours:
        c, (first, second) = colour["id"], TRACK[colour["vp_step"]]
        counts = {p["seat"]: p["vp"][c] for p in players}
        for seat, n in counts.items():
            by_colour[seat][c] = n
        ranked = sorted({n for n in counts.values() if n}, reverse=True)
        if not ranked:
            continue
        top = [s for s, n in counts.items() if n == ranked[0]]
        second_group = [s for s, n in counts.items() if len(ranked) > 1 and n == ranked[1]]
        shares = [(top, (first + second) // len(top))] if len(top) > 1 else [(top, first)]
        if len(top) == 1 and second_group:
            shares.append((second_group, second // len(second_group)))
        for group, points in shares:
            for seat in group:
                totals[seat] += points
                by_colour[seat][c] += points
    order = [c["id"] for c in sorted(colours, key=lambda c: -c["row"])]
    return {
        p["seat"]: (
            totals[p["seat"]],
            int(any(card["id"] == "notary" for card in p["cards"])),
            *(by_colour[p["seat"]][c] for c in order),
        )
        for p in players
    }


def assert_result_is_recounted(run: Playout) -> None:
    """Check the result against the recount and the end of the log."""
    result = GAME.result(run.state)
    keys = recount(GAME.view(run.state, None, "en"))
    for st in result.standings:
        assert st.score == keys[st.seat][0]
        assert st.place == 1 + sum(1 for k in keys.values() if k > keys[st.seat])
    assert set(result.winners) == {st.seat for st in result.standings if st.place == 1}
    kinds = [ev.type.split(".", 1)[1] for ev in run.events]
    assert kinds[-1] == "GameScored"
    ends = [ev.data for ev in run.events if ev.type.endswith(".GameEndTriggered")]
    assert len(ends) == 1 and ends[0]["reason"] in ENDINGS
    final = [ev.data for ev in run.events if ev.type.endswith(".SaleOpened")][-1]
    assert final["final"] is True and kinds.index("GameEndTriggered") < len(kinds) - 1
    view = GAME.view(run.state, None, "en")
    if ends[0]["reason"] == "vp_track":
        assert any(c["vp_step"] == 7 for c in view["colours"])
    elif ends[0]["reason"] == "last_card":
        assert view["deck_size"] == 0 and view["card"] is None and view["round"] <= 10
    else:
        assert "SupplyExhausted" in kinds


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("trade", MODES)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_playout_keeps_every_invariant(players, trade, seed):
    keys_done: set[str] = set()

    def after_each(run: Playout) -> None:
        assert_table_is_sound(run)
        now = {o.key for o in GAME.owed(run.state)}
        assert not (now & keys_done), "a decision key came back"
        keys_done.update(k for k in now if k not in {o.key for o in GAME.owed(run.state)})
        for seat in run.state.order:
            owes = any(o.seat == seat for o in GAME.owed(run.state))
            assert bool(GAME.legal(run.state, seat)) == owes

    run = playout(GAME, players, seed, {"trade": trade}, after_each)
    assert GAME.is_over(run.state)
    assert_result_is_recounted(run)


def blind(state, seat):
    """Return `state` with everything `seat` may not know changed: others' sealed
    submissions dropped, private offers between others dropped, the deck reversed."""
    return replace(
        state,
        sealed=tuple((s, d) for s, d in state.sealed if s == seat),
        offers=tuple(o for o in state.offers if seat in (o.frm, o.to)),
        offer_counts=tuple(c for c in state.offer_counts if seat in c[:2]),
        deck=tuple(reversed(state.deck)),
    )


def _json(value) -> str:
    return json.dumps(value, sort_keys=True, default=lambda o: o.__dict__)


def assert_no_leak(run: Playout) -> None:
    """Check that no view, legal list or redacted event depends on another seat's secret."""
    state = run.state
    for seat in (*state.order, None):
        hidden = blind(state, seat)
        assert _json(GAME.view(state, seat, "en")) == _json(GAME.view(hidden, seat, "en"))
        if seat is not None:
            assert _json(GAME.legal(state, seat)) == _json(GAME.legal(hidden, seat))
    last = run.events[-1]
    for seat in (*state.order, None):
        if last.visible_to == ALL or (seat is not None and seat in last.visible_to):
            continue
        shown = GAME.redact(last, seat)
        name = last.type.split(".", 1)[1]
        if name.endswith("Sealed"):
            assert shown == {"seat": last.data["seat"]}
        elif name == "DeckShuffled":
            assert shown == {"size": 10}
        else:
            assert name.startswith("Offer") and shown is None  # private: not even shown


@pytest.mark.parametrize("seed", LEAK_SEEDS)
@pytest.mark.parametrize("trade", MODES)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_no_seat_sees_a_secret_submission_or_a_private_offer_of_others(players, trade, seed):
    def after_each(run: Playout) -> None:
        assert_no_leak(run)
        # every event of the step, not only the last one
        for ev in run.events[-5:]:
            if ev.visible_to != ALL:
                for seat in (*run.state.order, None):
                    if seat is None or seat not in ev.visible_to:
                        public = GAME.redact(ev, seat)  # None: a private offer, not shown
                        assert public is None or set(public) <= {"seat", "size"}

    run = playout(GAME, players, 100 + seed, {"trade": trade}, after_each)
    assert GAME.is_over(run.state)


KINDS = {
    "produce", "propose", "answer", "pick", "trade", "give_back", "bid", "raise", "shift",
    "sell", "discard",
}  # fmt: skip


def test_playouts_reach_every_event_decision_and_ending():
    seen_events: set[str] = set()
    seen_kinds: set[str] = set()
    endings: set[str] = set()
    deals = {mode: 0 for mode in MODES}

    def note(run: Playout) -> None:
        state = run.state
        if GAME.ready(state):  # what the worker's resolution will ask for next
            for ev in GAME.resolve(state, NoRng()):
                state = GAME.evolve(state, ev)
        seen_kinds.update(o.kind for o in GAME.owed(state))

    for seed in range(32):  # (legal lists up to 200 choices: random picks spread wider)
        trade = MODES[seed % 2]
        run = playout(GAME, 3 + seed % 4, 500 + seed, {"trade": trade}, note)
        seen_events.update(ev.type.split(".", 1)[1] for ev in run.events)
        endings.add(run.state.end_reason)
        deals[trade] += sum(1 for ev in run.events if ev.type.endswith(".DealMade"))
    assert seen_events == set(EVENTS.types)
    assert seen_kinds == KINDS
    assert endings == ENDINGS
    assert deals["regulated"] > 100 and deals["wild"] > 5
