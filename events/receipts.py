"""What a player keeps of a finished game, and how a verifier uses it (docs/audit.md,
"What a player keeps").

At a game's end every seat receives its **receipt** (`marketfold-receipt/1`) on its event
stream (and the promise in it on its feed, in the `game_finished` note):

- `promise`: the service's signed statement of the game's `ended` leaf and its promise to
  merge it into the public log of games within `transparency.MERGE_DELAY_S` of `at` (in
  the manner of a Certificate Transparency SCT). The `ended` leaf states the log's length
  and final hash, which commits to every event: a game rewritten afterwards cannot have
  the promised leaf, even if the service signs it again.
- `tree_head` and `leaves`: once merged, the game's leaves with inclusion proofs to a
  signed tree head (as `GET /v1/games/{id}/transparency`).

Pure: the caller fetches; events.transparency says what a leaf is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from events import log_checks, merkle, signature, transparency

FORMAT = "marketfold-receipt/1"
PROMISE = "promise"  # the statement's `kind`
PROMISED = "the end its receipt promised"
HELD = "the game's leaves in the tree head seen"


def promise_statement(game_id: str, leaf_text: str, at: str) -> dict[str, Any]:
    """What the service signs at a game's end: its `ended` leaf, and the promise to merge
    it within the merge delay of `at`."""
    return {
        "log": transparency.LOG,
        "kind": PROMISE,
        "game": transparency.game_ref(game_id),
        "leaf": leaf_text,
        "at": at,
        "merge_delay_s": transparency.MERGE_DELAY_S,
    }


def promise(game_id: str, leaf_text: str, at: str, key: Any) -> dict[str, Any]:
    """The signed promise: the statement's fields and the service's signature over them."""
    statement = promise_statement(game_id, leaf_text, at)
    fields = {k: statement[k] for k in ("game", "leaf", "at", "merge_delay_s")}
    return {**fields, "signature": signature.signed(statement, key)}


def check_promise(
    events: list[dict[str, Any]], promised: Any, trusted: Mapping[str, Any]
) -> tuple[bool, str]:
    """Check a bundle against a kept promise: signed by a trusted key, of this game, and
    the `ended` leaf the bundle's log calls for is the promised one, byte for byte."""
    if not isinstance(promised, dict):
        return False, "the receipt's promise is not an object"
    said, kid = signature.opened(promised.get("signature"), trusted)
    if said is None:
        return False, f"the receipt's promise: {kid}"
    if not isinstance(said, dict) or (said.get("kind"), said.get("log")) != (
        PROMISE,
        transparency.LOG,
    ):
        return False, "the receipt's signature is not over a promise of the log of games"
    if any(promised.get(k) != said.get(k) for k in ("game", "leaf", "at", "merge_delay_s")):
        return False, "the receipt's promise differs from the statement its key signed"
    gid = (events[0].get("data") or {}).get("game_id") if events else None
    if said.get("game") != transparency.game_ref(gid):
        return False, f"the receipt is of another game, not of game {gid}"
    ended = transparency.from_log(events).get("ended")
    if ended is None:
        return False, "the bundle's log has no end, but the receipt promised one"
    ours = transparency.text(ended)
    if said.get("leaf") != ours:
        try:
            theirs = json.loads(said["leaf"])
        except (TypeError, ValueError):
            theirs = {}
        field = next((k for k in ended if theirs.get(k) != ended[k]), "leaf")
        return False, (
            f"the service promised at {said.get('at')} (key {kid}) that this game ended with "
            f"{field} {_short(theirs.get(field))}; the bundle's log says "
            f"{_short(ended.get(field))}: the game was rewritten after it ended"
        )
    return True, (
        f"the bundle's end is the one the service promised at {said.get('at')} (key {kid})"
    )


def check_kept(
    events: list[dict[str, Any]],
    proof: Mapping[str, Any],
    kept: Mapping[str, Any],
    trusted: Mapping[str, Any],
) -> tuple[bool, str]:
    """Check a bundle's leaves against a kept receipt's, offline: with the same head, as
    log_checks.check_seen; with another and no consistency proof between them (that
    needs a server), each leaf the receipt kept must be the bundle's, at the same index,
    both included in heads the service signed."""
    saved, head = kept.get("tree_head", kept), proof["tree_head"]
    if (saved.get("size"), saved.get("root")) == (head.get("size"), head.get("root")):
        return log_checks.check_seen(events, proof, kept, None, trusted)
    if why := log_checks.check_head(saved, trusted):
        return False, f"the saved tree head: {why}"
    if why := log_checks.fork(saved, head, "the bundle's"):
        return False, why
    try:
        ours = {json.loads(i["leaf"])["kind"]: (i["index"], i["leaf"]) for i in proof["leaves"]}
        mine = [(json.loads(i["leaf"])["kind"], i["index"], i["leaf"]) for i in kept["leaves"]]
    except (TypeError, KeyError, ValueError):
        return False, "the receipt kept holds no leaves of this game (index, leaf, path)"
    for kind, index, text in mine:
        if ours.get(kind) != (index, text):
            return False, (
                f"the receipt kept records this game's {kind} as leaf {index}; the "
                "bundle's is another: the game was rewritten"
            )
    return True, (
        f"the game's leaves are the ones kept in the receipt (head of {saved['size']} leaves "
        f"saved at {saved['at']}); that the log's later head of {head['size']} extends it "
        "was not checked: it needs the server's consistency proof (--server)"
    )


def check_held(
    events: list[dict[str, Any]], proof: Any, saved: Mapping[str, Any], texts: list[str]
) -> tuple[bool, str]:
    """Check a bundle against the leaves of a tree head seen before (`texts`: the log's
    first `saved["size"]` leaves, fetched from anyone, checked here against the head's
    root): every leaf of this game that the head already held must be the bundle's own,
    at the same index. A game rewritten and logged again fails, however soon after its end
    the head was saved."""
    size = saved["size"]
    if len(texts) != size:
        return False, (
            f"the server gave {len(texts)} leaves of the tree head of size {size} seen: "
            "the log was rolled back"
        )
    hashes = [merkle.leaf_hash(t.encode()) for t in texts]
    if size and merkle.Tree(lambda s, e: hashes[s:e]).root(size).hex() != saved["root"]:
        return False, (
            f"fork: the log's first {size} leaves no longer hash to the head seen at "
            f"{saved['at']}: the log was rewritten"
        )
    gid = (events[0].get("data") or {}).get("game_id") if events else None
    ref = transparency.game_ref(gid)
    ours: dict[str, tuple[int, str]] = {}
    items = proof.get("leaves") if isinstance(proof, dict) else None
    for item in items or []:
        try:
            ours[json.loads(item["leaf"])["kind"]] = (item["index"], item["leaf"])
        except (TypeError, KeyError, ValueError):
            continue
    held = 0
    for i, text in enumerate(texts):
        try:
            leaf = json.loads(text)
            if leaf.get("game") != ref:
                continue
            kind = leaf["kind"]
        except (ValueError, TypeError, KeyError, AttributeError):
            continue
        held += 1
        if ours.get(kind) != (i, text):
            where = f"leaf {ours[kind][0]}" if kind in ours else "none"
            return False, (
                f"the tree head of size {size} seen at {saved['at']} already held this "
                f"game's {kind} leaf as leaf {i}; the bundle's is {where} with other "
                "contents: the game was rewritten and logged again"
            )
    return True, f"the tree head of size {size} seen held {held} of this game's leaves, the same"


def _short(value: Any) -> str:
    out = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return out if len(out) <= 80 else out[:77] + "..."
