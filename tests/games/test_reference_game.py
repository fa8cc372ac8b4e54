"""The reference game (tests/games/reference_game.py, the one games/README.md teaches
from) keeps every promise a real game keeps: it is checked here the way the registry's
games are, and tests/service/test_use_cases_unit.py plays it through the service."""

from __future__ import annotations

import json

import pytest

from games.base import ALL, OptionError, RuleViolation
from games.rng import Rng
from tests.games import reference_game as ref
from tests.games.playout import json_round_trip, playout
from tests.games.test_every_game_schemas import _check_every_schema_is_exact


@pytest.mark.parametrize("players", [ref.MIN_PLAYERS, ref.MAX_PLAYERS])
def test_a_random_game_ends_with_the_rounds_asked_and_a_winner(players):
    run = playout(ref.GAME, players, seed=players, options={"rounds": 4})
    reveals = [e for e in run.events if e.type == "lucky-pick.PicksRevealed"]
    assert len(reveals) == 4 and ref.GAME.is_over(run.state)
    result = ref.GAME.result(run.state).to_json()
    assert result["winners"] and sum(s["score"] for s in result["standings"]) == sum(
        e.data["points"] for e in reveals
    )


def test_every_event_is_declared_and_a_pick_shows_others_only_who_picked():
    run = playout(ref.GAME, 3, seed=7)
    for ev in run.events:
        name = ev.type.removeprefix("lucky-pick.")
        assert set(ev.data) <= set(ref.EVENTS.types[name].fields)
        if ev.visible_to != ALL:
            assert name == "NumberPicked"
            (picker,) = ev.visible_to
            assert ref.GAME.redact(ev, picker) == ev.data
            for other in (None, *(s for s in run.order if s != picker)):
                assert ref.GAME.redact(ev, other) == {"seat": picker}


def test_a_seat_sees_its_own_pick_and_never_another_before_the_reveal():
    rng, state = Rng(b"view"), None
    for ev in ref.GAME.setup({}, (0, 1, 2), rng):
        state = ref.GAME.evolve(state, json_round_trip(ev))
    for ev in ref.GAME.decide(state, 1, {"type": "pick", "number": 3}, rng):
        state = ref.GAME.evolve(state, ev)
    assert ref.GAME.view(state, 1, "en")["your_pick"] == 3
    for seat in (None, 0, 2):
        seen = json.dumps(ref.GAME.view(state, seat, "es"))
        assert ref.GAME.view(state, seat, "es")["picked"] == [1] and '"your_pick": 3' not in seen


def test_every_value_a_legal_schema_admits_is_accepted():
    for seed in range(3):
        playout(ref.GAME, 3, seed, after_each=_check_every_schema_is_exact)


def test_a_second_pick_a_pick_out_of_range_and_bad_options_are_refused_by_name():
    rng, state = Rng(b"refusals"), None
    for ev in ref.GAME.setup({"rounds": 1}, (0, 1), rng):
        state = ref.GAME.evolve(state, ev)
    for ev in ref.GAME.decide(state, 0, {"type": "pick", "number": 2}, rng):
        state = ref.GAME.evolve(state, ev)
    with pytest.raises(RuleViolation) as again:
        ref.GAME.decide(state, 0, {"type": "pick", "number": 1}, rng)
    assert again.value.code == "already_submitted"
    with pytest.raises(RuleViolation) as wide:
        ref.GAME.decide(state, 1, {"type": "pick", "number": 4}, rng)
    assert wide.value.field == "number"
    for ev in ref.GAME.decide(state, 1, {"type": "pick", "number": 2}, rng):
        state = ref.GAME.evolve(state, ev)
    for ev in ref.GAME.resolve(state, rng):
        state = ref.GAME.evolve(state, ev)
    assert ref.GAME.is_over(state) and ref.GAME.result(state).winners == (0, 1)  # 2 and 2: nobody
    with pytest.raises(RuleViolation):
        ref.GAME.decide(state, 0, {"type": "pick", "number": 1}, rng)
    with pytest.raises(OptionError) as bad:
        ref.GAME.normalize_options({"rounds": 9}, 2)
    assert bad.value.field == "rounds"


def test_the_highest_number_picked_once_scores_and_the_lucky_number_doubles_it():
    state = ref.State((0, 1, 2), phase=ref.PICKING, round=1, rounds=1, scores=(0, 0, 0))
    state = ref.kit.replace(state, picks=((0, 3), (1, 3), (2, 2)))
    for seed in range(20):
        revealed = ref.GAME.resolve(state, Rng(str(seed).encode()))[0].data
        assert revealed["scorer"] == 2  # the 3s cancel out; 2 is alone
        assert revealed["points"] == (4 if revealed["lucky"] == 2 else 2)
    assert {ref.GAME.resolve(state, Rng(str(s).encode()))[0].data["lucky"] for s in range(20)} == {
        1,
        2,
        3,
    }
    with pytest.raises(RuleViolation):
        ref.GAME.resolve(ref.kit.replace(state, picks=((0, 1),)), Rng(b"early"))


def test_setup_draws_only_from_the_rng_it_is_given():
    first = ref.GAME.setup({}, (0, 1), Rng(b"same"))
    assert [e.data for e in first] == [e.data for e in ref.GAME.setup({}, (0, 1), Rng(b"same"))]
