"""Witnesses of the public log of games: what one checks before it cosigns a checkpoint
(docs/audit.md, "Checkpoints and witnesses"). How a verifier counts the witnesses behind
a game is events.witness_count.

A witness (`marketfold witness`, cli/witness.py) keeps the last checkpoint it cosigned,
the compact range of that tree (its complete subtrees, events.merkle.extend) and the last
kind of leaf it saw for each game. It cosigns a new checkpoint only when:

- the log's key signed it, for the same origin;
- it is not smaller than the one cosigned (`rollback`), not another root at the same size
  (`fork`), and the server's RFC 9162 consistency proof shows it extends it (`fork`);
- the new leaves served hash, after the old tree, to the new root (`leaves`);
- every new leaf keeps the log's invariants: one `created`, one `started`, one `ended`
  leaf per game, in that order (`duplicate`, `order`); a `key` leaf (a rotation,
  events.keylog) names a key never logged before and retires the key logged last;
- the key that signed it may sign a checkpoint of its size: not one holding the `key`
  leaf that retired it (`backdated`), nor one without its own (`key_not_yet_valid`).

Pure: the caller fetches and signs (events.note).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from events import keylog, merkle, note, signature, signed_dates
from events.log_monitor import DUPLICATE, FORK, LEAVES, ROLLBACK, finding
from events.transparency import KINDS, LOG

ORDER, ORIGIN, UNWITNESSED = "order", "origin", "unwitnessed"


def log_signed(text: str, lines: list[note.Line], trusted: Mapping[str, Any]) -> str | None:
    """The id of the trusted service key whose Ed25519 note signature (named after the
    checkpoint's origin) is on `text`, or None."""
    origin = note.parse_checkpoint(text).origin
    for kid, public in trusted.items():
        key = note.Verifier(origin, note.ED25519, public)
        if any(note.verifies(text, line, key) for line in lines):
            return kid
    return None


def log_key_ids(origin: str, trusted: Mapping[str, Any]) -> list[str]:
    return [note.key_id(origin, note.ED25519, signature.raw(k)).hex() for k in trusted.values()]


def review(
    state: Mapping[str, Any] | None,
    checkpoint: note.Checkpoint,
    proof: list[bytes] | None,
    leaves: list[str],
    signer: str | None = None,
) -> tuple[list[dict[str, str]], dict[str, Any]]:
    """Check a new checkpoint against the witness's state: return the findings (none: it
    may cosign) and the state after it. `leaves`: the log's leaves from the state's size
    to the checkpoint's (all of them on the first run); `proof`: the consistency proof
    between the two sizes; `signer`: the id of the log's key that signed the checkpoint."""
    state = dict(state or {})
    m, n = state.get("size", 0), checkpoint.size
    old_root = bytes.fromhex(state["root"]) if state else b""
    if state and state.get("origin") != checkpoint.origin:
        return [
            finding(
                ORIGIN,
                f"the checkpoint names the log {checkpoint.origin!r}, the witness follows "
                f"{state.get('origin')!r}",
            )
        ], state
    if n < m:
        return [
            finding(
                ROLLBACK,
                f"the log was rolled back: the witness cosigned a checkpoint of size {m}, "
                f"the server's is {n}",
            )
        ], state
    if n == m and state and checkpoint.root != old_root:
        return [
            finding(
                FORK,
                f"fork: two checkpoints of size {n} with different roots ({old_root.hex()[:16]}"
                f"... cosigned, {checkpoint.root.hex()[:16]}... now): the log was rewritten",
            )
        ], state
    if n > m > 0:
        try:
            merkle.verify_consistency(m, n, proof or [], old_root, checkpoint.root)
        except ValueError as e:
            return [
                finding(
                    FORK,
                    f"fork: the server's checkpoint of size {n} does not extend the one of "
                    f"size {m} the witness cosigned ({e}): the log was rewritten",
                )
            ], state
    if len(leaves) != n - m:
        served = f"the server served {len(leaves)} new leaves for {n - m} between sizes {m} and {n}"
        return [finding(LEAVES, served)], state
    frontier = [(w, bytes.fromhex(h)) for w, h in state.get("frontier", [])]
    frontier = merkle.extend(frontier, [merkle.leaf_hash(t.encode()) for t in leaves])
    if merkle.frontier_root(frontier) != checkpoint.root:
        return [
            finding(LEAVES, f"the leaves {m} to {n - 1} served do not hash to the checkpoint")
        ], state
    games = dict(state.get("games", {}))
    rotations = [list(x) for x in state.get("keys", [])]
    found = [f for i, text in enumerate(leaves) if (f := _keep(games, rotations, m + i, text))]
    if not found and signer is not None:
        history = keylog.history_of([(i, t) for i, t in rotations])
        if why := signed_dates.sized(signer, n, history, f"the checkpoint of size {n}"):
            found = [finding(why.split(":", 1)[0], why)]
    if found:
        return found, state
    after = {
        "origin": checkpoint.origin,
        "size": n,
        "root": checkpoint.root.hex(),
        "frontier": [[w, h.hex()] for w, h in frontier],
        "games": games,
        "keys": rotations,
    }
    return [], {**state, **after}


def _keep(
    games: dict[str, str], rotations: list[list[Any]], index: int, text: str
) -> dict[str, str] | None:
    """Record leaf `index` in `games` (game ref -> the last kind seen) or, a `key` leaf, in
    `rotations` ([index, text]), or name what it breaks: a second leaf of one kind for a
    game, a leaf out of order, a key logged twice or a rotation that does not retire the
    key logged last."""
    if (key := keylog.parse(text)) is not None:
        return _rotation(rotations, index, text, key)
    try:
        leaf = json.loads(text)
        ref, kind = leaf["game"], leaf["kind"]
        ok = leaf["log"] == LOG and kind in KINDS and isinstance(ref, str) and len(ref) == 64
    except (ValueError, TypeError, KeyError):
        ok = False
    if not ok:
        return finding(ORDER, f"leaf {index} is not a leaf of {LOG} with a game and a kind")
    last = games.get(ref)
    had = KINDS.index(last) if last else -1
    if KINDS.index(kind) <= had:
        return finding(
            DUPLICATE,
            f"game {ref[:16]}... has a second {kind} leaf (leaf {index}, after its {last}): "
            "it was logged again",
        )
    if KINDS.index(kind) != had + 1:
        before = KINDS[KINDS.index(kind) - 1]
        return finding(
            ORDER, f"game {ref[:16]}...'s {kind} leaf (leaf {index}) comes before its {before}"
        )
    games[ref] = kind
    return None


def _rotation(
    rotations: list[list[Any]], index: int, text: str, key: dict[str, Any]
) -> dict[str, str] | None:
    logged = [keylog.parse(t) or {} for _, t in rotations]
    if any(k.get("key") == key["key"] for k in logged):
        return finding(DUPLICATE, f"key {key['key']} is logged a second time (leaf {index})")
    last = logged[-1]["key"] if logged else None
    if key.get("retires") != last:
        return finding(
            ORDER,
            f"the key leaf {index} makes key {key['key']} active retiring "
            f"{key.get('retires')}, but the key logged last is {last}",
        )
    rotations.append([index, text])
    return None
