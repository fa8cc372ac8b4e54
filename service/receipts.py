"""A finished game's receipt, as every seat receives it (events/receipts.py says what it
is and how a verifier uses it): the service's signed promise of the game's `ended` leaf,
signed when the game ends (the `game_finished` feed note carries it), and on the game's
event stream after `game.Ended` the promise with the game's leaves and their inclusion
proofs once merged. Everything in it is public once the game has ended: the same receipt
for every seat, spectators included."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from events import codec, receipts, transparency
from service import key_history
from service import transparency as public_log

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

FORMAT = receipts.FORMAT


def promise_at_end(boot: Bootstrap, game_id: str, due: dict[str, str]) -> dict[str, Any] | None:
    """The signed promise of the `ended` leaf an append calls for (`due`: leaf id -> text,
    events.transparency.due), or None when the append does not end the game."""
    text = due.get(f"{game_id}:ended")
    if text is None:
        return None
    return receipts.promise(game_id, text, codec.now_iso(), key_history.active_key(boot))


def kept(boot: Bootstrap, game_id: str) -> dict[str, Any] | None:
    """The receipt of a finished game (None if it has not ended): the promise of its
    `ended` leaf (the one logged, or, not merged yet, the one its log calls for), and once
    merged its leaves with inclusion proofs to a signed tree head."""
    (index,) = boot.tlog.indexes([f"{game_id}:ended"])
    if index is not None:
        text = boot.tlog.texts(index, index + 1)[0]
    else:
        ended = transparency.from_log(boot.store.read(game_id, 0)).get("ended")
        if ended is None:
            return None
        text = transparency.text(ended)
    key = key_history.active_key(boot)
    out: dict[str, Any] = {
        "format": FORMAT,
        "game": game_id,
        "promise": receipts.promise(game_id, text, codec.now_iso(), key),
    }
    if index is not None:
        out.update(public_log.receipt(boot, game_id))
    return out
