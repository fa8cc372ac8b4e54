"""How a verifier counts the witnesses behind a game (docs/audit.md, "Checkpoints and
witnesses"): which served checkpoints the log's key signed and which given witnesses
cosigned each (`cosigned`), whether a quorum of them cosigned checkpoints that hold a
bundle's leaves, naming a fork or a rollback (`witnessed`), and a game logged a second
time behind the witnesses' backs (`logged_again`). What a witness checks before it
cosigns is events.witness.

Pure: the caller fetches the checkpoints, leaves and proofs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from events import merkle, note
from events.witness import log_signed

CHECK = "cosigned by the witnesses"


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
