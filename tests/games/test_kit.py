"""The shared pieces of games.kit: the automatic-step loop and the decide preamble."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from games.base import Event, NotYourTurn, Owed, RuleViolation
from games.kit import OVER, action_kind, answered, clockwise, others, run_steps


@dataclass(frozen=True)
class Counter:
    order: tuple[int, ...] = (0, 1, 2)
    phase: str = "count"
    n: int = 0


def evolve(state: Counter, ev: Event) -> Counter:
    return replace(state, n=state.n + 1, phase=ev.data.get("phase", state.phase))


def tick(state: Counter) -> list[Event]:
    return [Event("t.Ticked", {})] if state.n < 3 else []


def test_steps_run_until_the_phase_has_nothing_more_to_do():
    state, events = run_steps(Counter(), [Event("t.Started", {})], evolve, {"count": tick})
    assert state.n == 3 and [e.type for e in events] == ["t.Started", "t.Ticked", "t.Ticked"]


def test_a_check_takes_the_place_of_the_step_and_sees_the_last_events():
    seen = []

    def check(state: Counter, last: list[Event]) -> list[Event]:
        seen.append([e.type for e in last])
        return [Event("t.Ended", {"phase": OVER})] if state.n == 2 else []

    state, events = run_steps(Counter(), [], evolve, {"count": tick}, check)
    assert state.phase == OVER and [e.type for e in events] == ["t.Ticked", "t.Ticked", "t.Ended"]
    assert seen == [[], ["t.Ticked"], ["t.Ticked"], ["t.Ended"]]


def test_the_preamble_refuses_actions_before_setup_after_the_end_and_out_of_turn():
    with pytest.raises(RuleViolation, match="not been set up"):
        action_kind(None, {}, lambda a: "x")
    with pytest.raises(RuleViolation, match="not been set up"):
        action_kind(Counter(phase="setup"), {}, lambda a: "x", closed=("setup",))
    with pytest.raises(RuleViolation, match="game is over"):
        action_kind(Counter(phase=OVER), {}, lambda a: "x")
    owed = [Owed(1, "bid", "bid-0", {"type": "pass"})]
    with pytest.raises(NotYourTurn):
        answered(owed, 0, "bid", {"bid": ("bid", "pass")})
    with pytest.raises(RuleViolation, match="take does not answer a bid decision"):
        answered(owed, 1, "take", {"bid": ("bid", "pass")})
    assert answered(owed, 1, "pass", {"bid": ("bid", "pass")}) is owed[0]


def test_seat_order_goes_left_from_a_seat():
    table = Counter(order=(2, 0, 1))
    assert clockwise(table, 0) == [0, 1, 2] and others(table, 0) == [1, 2]
