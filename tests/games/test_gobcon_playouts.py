"""Random GobCon playouts: conservation, an independent recount, every end option, no leaks."""

from __future__ import annotations

import json
import random

import pytest

from games.base import ALL
from games.gobcon import GAME
from games.gobcon.cards import DIE_FACE, FACES, catalog_of, default_deck, instances
from games.gobcon.deck import normalize_deck
from games.gobcon.events import EVENTS
from games.gobcon.scoring import reached_goal
from games.rng import Rng
from tests.games.playout import Playout, playout, random_action

PLAYERS = [2, 3, 4, 5, 6]
SEEDS = range(10)
OPTIONS = [
    {},
    {"goal": 20},
    {"time_limit": 3},
    {"end_on_empty_deck": True},
    {"goal": 40, "time_limit": 4, "end_on_empty_deck": True},
]
REASONS = {0: {"goal"}, 1: {"goal"}, 2: {"goal", "time_limit"}, 3: {"goal", "deck_empty"}}
ALL_CARDS = instances(catalog_of(normalize_deck(default_deck())))
DECISION_KINDS = {"turn", "target", "lose_item", "give", "respond", "join", "roll"}


def modifiers(player: dict, table: list[dict]) -> dict[str, int]:
    """Recount a player's dice/Item modifiers per category from the cards in front of them
    and the malus Friends of the others at the `table`."""
    out = dict.fromkeys(("3D", "Board", "Card", "RPG"), 0)
    for other in table:
        friend = other["friend"]
        if other["seat"] != player["seat"] and friend and friend["kind"] == "malus":
            out[friend["category"]] -= 1
    for card in player["specials"]:
        if card["kind"] in ("bonus", "malus"):
            out[card["category"]] += 1 if card["kind"] == "bonus" else -1
    friend = player["friend"]
    if friend and friend["kind"] == "all_bonus":
        out = {cat: v + 1 for cat, v in out.items()}
    elif friend and friend["kind"] == "bonus":
        out[friend["category"]] += 1
    return out


def recount(player: dict, table: list[dict]) -> int:
    """Score a player from scratch: counters, Friend, Items (with modifiers), GP Specials."""
    mods = modifiers(player, table)
    total = player["counters"] + (player["friend"]["gp"] if player["friend"] else 0)
    for item in player["items"]:
        total += max(0, item["gp"] + mods[item["category"]]) if item["category"] else item["gp"]
    return total + sum(card["gp"] for card in player["specials"])


def assert_table_adds_up(run: Playout) -> None:
    """Check the public view: 117 cards, hand limits, scores equal to a recount."""
    view = GAME.view(run.state, None, "en")
    players = view["players"]
    on_table = sum(
        p["hand_size"] + len(p["items"]) + len(p["specials"]) + (p["friend"] is not None)
        for p in players
    )
    on_chain = sum(1 for link in view["chain"] if link["card"] is not None)
    in_flight = on_chain + (view["game_in_play"] is not None)
    assert view["draw_size"] + len(view["discard"]) + on_table + in_flight == 117
    for p in players:
        assert p["hand_size"] <= 5 and p["counters"] >= 0
        assert p["score"] == recount(p, players) and p["modifiers"] == modifiers(p, players)


def assert_turn_is_sound(run: Playout, keys_gone: set[str], keys_now: set[str]) -> None:
    """Check owed decisions, legal actions and the goal after a decision."""
    state = run.state
    owed = GAME.owed(state)
    current = {o.key for o in owed}
    assert not current & keys_gone, "a decision key came back"
    keys_gone |= keys_now - current
    keys_now.clear()
    keys_now |= current
    if not GAME.is_over(state):
        assert not reached_goal(state), "a score reached the goal but the game goes on"
        assert owed or GAME.ready(state) is not None
    for seat in state.order:
        specs = GAME.legal(state, seat)
        assert bool(specs) == any(o.seat == seat for o in owed)
        assert all(s.choices and len(s.choices) <= 20 for s in specs)


def _quoted(cards) -> list[str]:
    return [json.dumps(c) for c in cards]


def assert_no_leak(run: Playout, first_event: int = 0) -> None:
    """No view, legal list or redacted event shows another hand, a sealed answer or the deck.

    Redacted events are checked from `first_event` on (a redaction never changes)."""
    state = run.state
    deck = _quoted(state.draw)
    for seat in (*state.order, None):
        hidden = deck + [
            q for other in state.order if other != seat for q in _quoted(state.hands[other])
        ]
        text = json.dumps(GAME.view(state, seat, "en"))
        if seat is not None:
            text += json.dumps([(s.schema, s.choices) for s in GAME.legal(state, seat)])
        assert not [h for h in hidden if h in text], f"seat {seat} sees a hidden card"
        for ev in run.events[first_event:]:
            if ev.visible_to != ALL and (seat is None or seat not in ev.visible_to):
                redacted = json.dumps(GAME.redact(ev, seat))
                assert not [c for c in _quoted(ALL_CARDS) if c in redacted], ev.type
                assert "join" not in GAME.redact(ev, seat)


def _named_cards(data) -> set[str]:
    text = json.dumps(data)
    return {card for card in ALL_CARDS if json.dumps(card) in text}


def assert_public_events_name_no_card_in_a_hand(run: Playout) -> None:
    """Refold the log: right after a public event, no card it names lies in a hand (so a
    sealed answer that went back unplayed is never named to the table)."""
    state = None
    for ev in run.events:
        state = GAME.evolve(state, ev)
        if ev.visible_to == ALL and not GAME.is_over(state):
            in_hands = {card for hand in state.hands for card in hand}
            assert not _named_cards(ev.data) & in_hands, ev


def assert_result_is_recounted(run: Playout) -> None:
    """Check the result against the final view and the finishing event."""
    view = GAME.view(run.state, None, "en")
    result = GAME.result(run.state)
    scores = {p["seat"]: recount(p, view["players"]) for p in view["players"]}
    assert {s.seat: s.score for s in result.standings} == scores
    for st in result.standings:
        assert st.place == 1 + sum(1 for s in scores.values() if s > st.score)
    assert set(result.winners) == {s for s, v in scores.items() if v == max(scores.values())}
    last = run.events[-1]
    assert last.type == "gobcon.GameFinished" and last.data["winners"] == list(result.winners)
    if last.data["reason"] == "goal":
        assert max(scores.values()) >= run.state.goal


def assert_rolls_are_recorded(run: Playout) -> None:
    """Every die roll is an event holding the die value and the face it shows."""
    for ev in run.events:
        if ev.type == "gobcon.DieRolled":
            assert 1 <= ev.data["die"] <= 6 and ev.visible_to == ALL
            assert ev.data["face"] == FACES[DIE_FACE[ev.data["die"]]]


def assert_defaults_are_legal(run: Playout) -> None:
    """Every owed decision's default (what a deadline applies) is accepted by decide."""
    for o in GAME.owed(run.state):
        assert GAME.decide(run.state, o.seat, o.default, Rng(b"deadline")), o


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("players", PLAYERS)
def test_random_playout_keeps_every_invariant(players, seed):
    gone: set[str] = set()
    now: set[str] = set()
    option = OPTIONS[seed % len(OPTIONS)]

    def after_each(run: Playout) -> None:
        assert_turn_is_sound(run, gone, now)
        if run.decisions % 5 == 0:
            assert_table_adds_up(run)
            assert_defaults_are_legal(run)

    run = playout(GAME, players, seed * 7 + players, option, after_each)
    assert GAME.is_over(run.state)
    assert_table_adds_up(run)
    assert_result_is_recounted(run)
    assert_rolls_are_recorded(run)
    reasons = REASONS.get(seed % len(OPTIONS), {"goal", "time_limit", "deck_empty"})
    assert run.state.reason in reasons


@pytest.mark.parametrize("players", PLAYERS)
def test_no_view_legal_list_or_redacted_event_reveals_a_hand_or_the_deck(players):
    checked = [0]

    def check(run: Playout) -> None:
        if run.decisions % 4 == 0:
            assert_no_leak(run, checked[0])
            checked[0] = len(run.events)

    run = playout(GAME, players, 900 + players, OPTIONS[players % len(OPTIONS)], check)
    assert_no_leak(run)
    assert_public_events_name_no_card_in_a_hand(run)


def test_playouts_reach_every_event_and_decision():
    seen_events: set[str] = set()
    seen_kinds: set[str] = set()
    reasons: set[str] = set()

    def note(run: Playout) -> None:
        seen_kinds.update(o.kind for o in GAME.owed(run.state))

    for seed in range(15):
        run = playout(GAME, 2 + seed % 5, 300 + seed, OPTIONS[seed % len(OPTIONS)], note)
        seen_events.update(ev.type.split(".", 1)[1] for ev in run.events)
        reasons.add(run.state.reason)
    assert seen_events == set(EVENTS.types)
    assert seen_kinds == DECISION_KINDS
    assert reasons == {"goal", "time_limit", "deck_empty"}


def test_event_data_is_plain_json_as_decided():
    for seed in range(3):
        pick, rng = random.Random(seed), Rng(f"plain-{seed}".encode())
        events = GAME.setup({"time_limit": 3}, (2, 0, 1), rng)
        state, seen = None, 0
        while True:
            for ev in events:
                assert json.loads(json.dumps(ev.data)) == ev.data, ev.type  # no tuples
                assert ev.visible_to == ALL or isinstance(ev.visible_to, tuple)
                state = GAME.evolve(state, ev)
            seen += len(events)
            if GAME.is_over(state):
                break
            if GAME.ready(state) is not None:
                events = GAME.resolve(state, rng)
                continue
            owed = pick.choice(GAME.owed(state))
            action = random_action(GAME.legal(state, owed.seat), pick)
            events = GAME.decide(state, owed.seat, action, rng)
        assert seen > 50
