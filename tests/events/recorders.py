"""Helpers for the recorder and repository tests: envelopes to append, and an append in
the old positional shape spelled as the keyword request it is."""

from __future__ import annotations

from typing import Any

from events import codec
from events.repository import GameAppend, GameRepository


def envelopes(start: int, n: int, prev: str = codec.GENESIS) -> list[dict]:
    out = [
        {
            "seq": start + i,
            "type": "game.Note",
            "data": {"i": start + i},
            "actor": "system",
            "at": codec.now_iso(),
            "cause": "test",
            "visible_to": "all",
        }
        for i in range(n)
    ]
    return codec.seal(out, prev)


def append(store: GameRepository, game_id: str, envs: list[dict], **request: Any) -> int:
    """Append `envs` to game `game_id` (GameAppend's other fields as keywords)."""
    return store.append(GameAppend(game_id=game_id, envelopes=envs, **request))
