"""What a monitor of the public log of games finds (`marketfold monitor`, cli/monitor.py).

A monitor holds every leaf the server serves, the signed tree heads it saw before (its
history) and the exports of the games it can read. From them alone, trusting nobody, it
names:

- `fork`: two signed heads of one size with different roots, or a head seen before whose
  size of leaves no longer hashes to its root (the log was rebuilt);
- `rollback`: a head smaller than one seen before;
- `leaves`: leaves served that do not hash to the server's own signed head;
- `duplicate`: a game with two leaves of one kind (logged twice, the second time from a
  rewritten store);
- `mismatch`: a leaf that is not the one the game's export calls for (its stream was
  rewritten after it was logged);
- `retired_key`, `backdated`, `key_not_yet_valid`, `unlogged_key`: a head signed outside
  its key's window as the log's `key` leaves fix it (events.keylog).

Pure: the caller fetches; events.merkle hashes and events.transparency says what a leaf
of a game must be.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from events import log_checks, merkle, signed_dates, transparency

FORK, ROLLBACK, LEAVES, DUPLICATE, MISMATCH = "fork", "rollback", "leaves", "duplicate", "mismatch"


def finding(kind: str, detail: str) -> dict[str, str]:
    return {"finding": kind, "detail": detail}


def check(
    history: list[Mapping[str, Any]],
    head: Mapping[str, Any],
    texts: list[str],
    exports: Mapping[str, list[dict[str, Any]]],
) -> list[dict[str, str]]:
    """Return the findings, given the heads seen before (`history`, signatures already
    checked), the server's signed `head` now, its leaves [0, head size) as text, and the
    events of the games whose exports were read, by game id."""
    out = _heads(history, head)
    hashes = [merkle.leaf_hash(t.encode()) for t in texts]
    tree = merkle.Tree(lambda start, end: hashes[start:end])
    if len(texts) != head["size"]:
        served = f"the server served {len(texts)} leaves for a head of size {head['size']}"
        out.append(finding(LEAVES, served))
    elif tree.root(head["size"]).hex() != head["root"]:
        served = f"the {len(texts)} leaves served do not hash to the server's head"
        out.append(finding(LEAVES, served))
    else:  # the leaves are the signed tree's: each head seen must be a prefix of it
        for old in history:
            m = old["size"]
            if 0 < m < head["size"] and tree.root(m).hex() != old["root"]:
                out.append(
                    finding(
                        FORK,
                        f"fork: the log's first {m} leaves no longer hash to the head of "
                        f"size {m} seen at {old['at']}: the log was rewritten",
                    )
                )
    found = _by_game(texts)
    for (ref, kind), at in sorted(found.items(), key=lambda x: x[1][0]):
        if len(at) > 1:
            where = ", ".join(str(i) for i in at)
            out.append(
                finding(DUPLICATE, f"game {ref[:16]}... has {len(at)} {kind} leaves (at {where})")
            )
    for game_id, events in sorted(exports.items()):
        ref = transparency.game_ref(game_id)
        for kind, leaf in transparency.from_log(events).items():
            want = transparency.text(leaf)
            for index in found.get((ref, kind), []):
                if texts[index] != want:
                    out.append(
                        finding(
                            MISMATCH,
                            f"game {game_id}'s {kind} leaf (index {index}) does not match "
                            "the game's export: the game was rewritten after it was logged",
                        )
                    )
    return out


def _heads(history: list[Mapping[str, Any]], head: Mapping[str, Any]) -> list[dict[str, str]]:
    out = []
    biggest = max(history, key=lambda h: h["size"], default=None)
    if biggest is not None and biggest["size"] > head["size"]:
        out.append(
            finding(
                ROLLBACK,
                f"the log was rolled back: a head of size {biggest['size']} was seen "
                f"(at {biggest['at']}), the server's is {head['size']}",
            )
        )
    heads = [*history, head]
    for i, a in enumerate(heads):
        for b in heads[i + 1 :]:
            why = log_checks.fork(a, b, "another")
            if why and not any(f["detail"] == why for f in out):
                out.append(finding(FORK, why))
    return out


def _by_game(texts: list[str]) -> dict[tuple[str, str], list[int]]:
    """Where each game's leaves of each kind lie: {(game ref, kind): [index, ...]}."""
    found: dict[tuple[str, str], list[int]] = {}
    for i, text in enumerate(texts):
        try:
            leaf = json.loads(text)
            key = (str(leaf["game"]), str(leaf["kind"]))
        except (ValueError, TypeError, KeyError):
            continue
        found.setdefault(key, []).append(i)
    return found


def out_of_window(heads: list[Mapping[str, Any]], windows: Mapping[str, Any]) -> list[dict]:
    """Name each head signed outside its key's window (events.keylog: a retired key that
    signed after its retirement, or dated back over the rotation that retired it)."""
    out = []
    for head in heads:
        kid = (head.get("signature") or {}).get("kid")
        what = f"the head of size {head.get('size')} signed at {head.get('at')}"
        why = signed_dates.dated(kid, head.get("at"), windows, what) or signed_dates.sized(
            kid, head.get("size"), windows, what
        )
        if why:
            out.append(finding(why.split(":", 1)[0], why))
    return out


def remember(history: list[dict[str, Any]], head: dict[str, Any]) -> list[dict[str, Any]]:
    """The history with `head` added unless a head of its size and root is in it."""
    if any((h["size"], h["root"]) == (head["size"], head["root"]) for h in history):
        return history
    return [*history, head]
