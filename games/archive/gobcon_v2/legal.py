"""What a seat may do now: one JSON Schema per action type, and every choice when few."""

from __future__ import annotations

from games.base import ActionSpec, Seat
from games.archive.gobcon_v2.actions import aim_candidates, owed
from games.archive.gobcon_v2.checks import answers, playable
from games.archive.gobcon_v2.state import PLAY, State, give_candidates, logorrea_owner
from games.archive.gobcon_v2.shared.kit import due, pick, plain


def _turn_specs(state: State, seat: Seat) -> list[ActionSpec]:
    specs = pick("play", "card", playable(state, seat)) if state.phase == PLAY else []
    specs += pick("discard", "card", list(state.hands[seat]))
    friend = state.friends[seat]
    if friend is not None and logorrea_owner(state) != seat:
        specs.append(plain("dismiss_friend"))
    return [*specs, plain("end_turn")]


def legal(state: State | None, seat: Seat) -> list[ActionSpec]:
    """Return the actions `seat` may take now (empty when it owes nothing)."""
    decision = due(owed(state), seat)
    if decision is None:
        return []
    kind = decision.kind
    if kind == "turn":
        return _turn_specs(state, seat)
    if kind == "target":
        return pick("target", "seat", aim_candidates(state))
    if kind == "lose_item":
        return pick("lose_item", "card", list(state.items[seat]))
    if kind == "give":
        return pick("give", "seat", give_candidates(state, seat))
    if kind == "respond":
        return [*pick("respond", "card", answers(state, seat)), plain("pass")]
    if kind == "join":
        return [plain("join"), plain("decline")]
    return [plain("roll")]
