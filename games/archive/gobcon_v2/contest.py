"""Playing a Game card: the rolls of its players, the goblin faces they count as, the GP."""

from __future__ import annotations

from games.base import Event, Seat
from games.archive.gobcon_v2.cards import BLACK, DARTH, DIE_FACE, FACES, GREEN, KING
from games.archive.gobcon_v2.events import event
from games.archive.gobcon_v2.scoring import modifier
from games.archive.gobcon_v2.state import State, aex_equo_in_play
from games.rng import Rng


def roller(state: State) -> Seat | None:
    """Return the next player of the current Game to roll, or None."""
    contest = state.contest
    if contest is None:
        return None
    return next((s for s in contest.players if s not in contest.rolled), None)


def _friend_kind(state: State, seat: Seat) -> str | None:
    friend = state.friends[seat]
    return state.card(friend).kind if friend is not None else None


def counted_face(state: State, seat: Seat, die: int) -> tuple[int, int, list[str]]:
    """Return (modifier, face index counted, notes) for `seat` rolling `die` now."""
    contest = state.contest
    mod = modifier(state, seat, contest.category)
    face = min(KING, max(DARTH, DIE_FACE[die] + mod))
    notes: list[str] = []
    if face == DARTH and (seat == contest.seat or _friend_kind(state, seat) == "good_loser"):
        face = BLACK
        notes.append("darth_counts_as_black")
    if face == KING and contest.king:
        if aex_equo_in_play(state):
            notes.append("aex_equo")
        elif _friend_kind(state, seat) == "fair_play":
            notes.append("fair_play")
        else:
            face = GREEN
            notes.append("second_king_counts_as_green")
    return mod, face, notes


def roll(state: State, seat: Seat, rng: Rng) -> Event:
    """Roll the goblin die for `seat` and score it on the Game's table (counters floor at 0)."""
    die = rng.below(6) + 1
    mod, face, notes = counted_face(state, seat, die)
    table_gp = state.card(state.contest.card).table[face]
    before = state.counters[seat]
    after = max(0, before + table_gp)
    return event(
        "DieRolled",
        seat=seat,
        die=die,
        face=FACES[DIE_FACE[die]],
        modifier=mod,
        result=FACES[face],
        table_gp=table_gp,
        gp=after - before,
        counters=after,
        notes=notes,
    )


def close_game(state: State) -> list[Event]:
    """Discard the finished Game card and every Aex Equo in play."""
    contest = state.contest
    return [
        event(
            "GameClosed",
            seat=contest.seat,
            card=contest.card,
            discarded=aex_equo_in_play(state),
        )
    ]
