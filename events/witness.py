"""Witnesses of the public log of games: what one checks before it cosigns a checkpoint,
and how a verifier counts the witnesses behind a game (docs/audit.md, "Checkpoints and
witnesses").

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
from collections.abc import Callable, Mapping
from typing import Any

from events import keylog, merkle, note, signature, signed_dates
from events.log_monitor import DUPLICATE, FORK, LEAVES, ROLLBACK, finding
from events.transparency import KINDS, LOG

ORDER, ORIGIN, UNWITNESSED = "order", "origin", "unwitnessed"
CHECK = "cosigned by the witnesses"


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


def witnessed(
    head: Mapping[str, Any],
    indexes: list[int],
    notes: list[str],
    witnesses: list[note.Verifier],
    quorum: int,
    trusted: Mapping[str, Any],
    consistency: Callable[[int, int], list[str] | None],
    server_size: int | None = None,
) -> tuple[bool, str]:
    """Whether `quorum` of `witnesses` cosigned checkpoints that hold a game's leaves.

    `head`: the bundle's signed tree head (its leaves, at `indexes`, already shown in it);
    `notes`: cosigned checkpoints (GET /v1/transparency/checkpoint, also per witness);
    `consistency(m, n)`: the server's proof between two sizes (None if it gives none).
    A checkpoint holds the leaves when it is consistent with the bundle's head (either way)
    and all of them lie below its size. A cosigned checkpoint inconsistent with the head is
    a fork, or a rollback when the server's log (`server_size` leaves) no longer reaches
    its size."""
    size, root = head["size"], bytes.fromhex(head["root"])
    behind: set[str] = set()
    found, problems = cosigned(notes, witnesses, trusted)
    for (origin, n, cp_root), names in sorted(found.items(), key=lambda x: -x[0][1]):
        cp, who = note.Checkpoint(origin, n, cp_root), ", ".join(sorted(names))
        if server_size is not None and server_size < cp.size:
            return False, (
                f"the log was rolled back: witnesses ({who}) cosigned a checkpoint of size "
                f"{cp.size}, the server's log holds {server_size}"
            )
        if why := _consistent(cp, size, root, consistency):
            return False, f"{why} (the checkpoint cosigned by {who})"
        if any(i >= cp.size for i in indexes):
            problems.append(
                f"the checkpoint of size {cp.size} cosigned by {who} does not yet hold "
                f"leaf {max(indexes)}"
            )
            continue
        behind.update(names)
    if len(behind) >= quorum:
        return True, (
            f"its leaves are in checkpoints cosigned by {len(behind)} of the "
            f"{len(witnesses)} witnesses given ({', '.join(sorted(behind))}; {quorum} needed)"
        )
    why = "; ".join(problems) or "no checkpoint served is cosigned by any of them"
    return False, (
        f"unwitnessed: {len(behind)} of the {len(witnesses)} witnesses given cosigned a "
        f"checkpoint holding this game's leaves, {quorum} needed ({why})"
    )


def cosigned(
    notes: list[str], witnesses: list[note.Verifier], trusted: Mapping[str, Any]
) -> tuple[dict[tuple[str, int, bytes], set[str]], list[str]]:
    """The checkpoints among `notes` signed by a trusted key of the log, each with the
    names of the given witnesses whose cosignature on it verifies (one checkpoint may come
    cosigned in several notes); and why other notes do not count."""
    found: dict[tuple[str, int, bytes], set[str]] = {}
    problems: list[str] = []
    for text_note in notes:
        try:
            text, lines = note.split(text_note)
            cp = note.parse_checkpoint(text)
        except note.NoteError as e:
            problems.append(f"a checkpoint served is not a signed note: {e}")
            continue
        if log_signed(text, lines, trusted) is None:
            problems.append(f"the checkpoint of size {cp.size} is not signed by a trusted key")
            continue
        names = {w.name for w in witnesses for line in lines if note.verifies(text, line, w)}
        if names:
            found.setdefault((cp.origin, cp.size, cp.root), set()).update(names)
    return found, problems


def logged_again(texts: list[str], root: bytes, items: list[Mapping[str, Any]]) -> str | None:
    """Given the leaves of a cosigned checkpoint (they must hash to its `root`) and a
    bundle's leaves, name a game logged a second time: its leaf of one kind at another
    place than the one the witnesses accepted."""
    hashes = [merkle.leaf_hash(t.encode()) for t in texts]
    if merkle.frontier_root(merkle.extend([], hashes)) != root:
        return None
    where: dict[tuple[Any, Any], int] = {}
    for i, text in enumerate(texts):
        try:
            leaf = json.loads(text)
            where.setdefault((leaf["game"], leaf["kind"]), i)
        except (ValueError, TypeError, KeyError):
            continue
    again = []
    for item in items:
        try:
            leaf = json.loads(item["leaf"])
            at = where.get((leaf["game"], leaf["kind"]))
        except (ValueError, TypeError, KeyError):
            continue
        if at is not None and at != item.get("index"):
            again.append((texts[at] == item["leaf"], leaf["kind"], at, item.get("index")))
    if not again:
        return None
    same, kind, at, index = min(again, key=lambda x: x[0])  # other contents first
    return (
        f"logged again: the witnesses accepted this game's {kind} leaf as leaf {at}, with "
        f"{'the same' if same else 'other'} contents; the bundle's is leaf {index}: the game "
        "was logged a second time (rewritten)"
    )


def _consistent(
    cp: note.Checkpoint, size: int, root: bytes, consistency: Callable[[int, int], Any]
) -> str | None:
    if cp.size == size:
        if cp.root == root:
            return None
        return (
            f"fork: two heads of size {size} with different roots ({cp.root.hex()[:16]}... "
            f"cosigned by witnesses, {root.hex()[:16]}... the bundle's): the log was rewritten"
        )
    first, second = sorted([(cp.size, cp.root), (size, root)])
    proof = consistency(first[0], second[0]) if first[0] > 0 else []
    if proof is None:
        return (
            f"no consistency proof between the checkpoint of size {cp.size} and the bundle's "
            f"head of size {size}: the server gave none"
        )
    try:
        if first[0] > 0:
            merkle.verify_consistency(
                first[0], second[0], [bytes.fromhex(h) for h in proof or []], first[1], second[1]
            )
    except (ValueError, TypeError) as e:
        return (
            f"fork: the bundle's head of size {size} and the checkpoint of size {cp.size} "
            f"cosigned by witnesses are not one log ({e}): the log was rewritten"
        )
    return None
