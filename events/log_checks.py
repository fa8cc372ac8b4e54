"""How a game is checked against the public log of games (events.transparency): a bundle's
leaves included in a trusted tree head (`check_leaves`), a bundle against a tree head or
receipt saved earlier (`check_seen`), and a server's current head against one seen before
(`check_history`), naming a rollback or a fork (RFC 9162 consistency proofs).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from events import catalog, codec, merkle, signature
from events.transparency import KINDS, LOG, MERGE_DELAY_S, from_log, text

CHECK = "in the public log of games"
SEEN = "consistent with a tree head seen before"
HISTORY = "the server's log extends the tree head seen"


def check_head(head: Any, trusted: Mapping[str, Any]) -> str | None:
    """Return why `head` is not a tree head signed by a trusted key, or None if it is."""
    if not isinstance(head, dict):
        return "the tree head is not an object with size, root, at and signature"
    said, why = signature.opened(head.get("signature"), trusted)
    if said is None:
        return f"the tree head: {why}"
    fields = {k: head.get(k) for k in ("size", "root", "at")}
    if said != {"log": LOG, **fields}:
        return "the tree head's fields differ from the statement its key signed"
    return None


def check_leaves(
    events: list[dict[str, Any]], proof: Any, trusted: Mapping[str, Any]
) -> tuple[bool, str]:
    """Check a bundle's `transparency` member: a trusted tree head, and every leaf its log
    calls for included in it, each leaf equal to what the log says."""
    if not isinstance(proof, dict):
        return False, "not in the log: the bundle carries no transparency proofs"
    head = proof.get("tree_head")
    if why := check_head(head, trusted):
        return False, why
    size, root = head["size"], bytes.fromhex(head["root"])
    given = {}
    for item in proof.get("leaves") or []:
        try:
            leaf = json.loads(item["leaf"])
            given[leaf["kind"]] = (leaf, item)
        except (TypeError, KeyError, ValueError):
            return False, "a transparency leaf is not a JSON object with a kind"
    for kind, expected in from_log(events).items():
        if kind not in given:
            return False, f"the log of games holds no {kind} leaf for this game in the bundle"
        leaf, item = given[kind]
        if leaf != json.loads(text(expected)):
            field = next((k for k in expected if leaf.get(k) != expected[k]), "kind")
            return False, (
                f"the {kind} leaf logged for this game says {field} "
                f"{_short(leaf.get(field))}, the bundle's log says {_short(expected[field])}"
            )
        try:
            path = [bytes.fromhex(h) for h in item["path"]]
            merkle.verify_inclusion(item["leaf"].encode(), item["index"], size, path, root)
        except (KeyError, TypeError, ValueError) as e:
            return (
                False,
                f"the {kind} leaf (index {item.get('index')}) is not in the tree head: {e}",
            )
    kinds = ", ".join(k for k in KINDS if k in given)
    return (
        True,
        f"{kinds} included in the tree head of {size} leaves signed by {head['signature']['kid']}",
    )


def check_seen(
    events: list[dict[str, Any]],
    proof: Mapping[str, Any],
    seen: Mapping[str, Any],
    consistency: list[str] | None,
    trusted: Mapping[str, Any],
) -> tuple[bool, str]:
    """Check a bundle against a tree head (or a game's receipt) saved earlier: the later
    head extends it, and the game's leaves it records are the bundle's."""
    saved = seen.get("tree_head", seen)
    if why := check_head(saved, trusted):
        return False, f"the saved tree head: {why}"
    head = proof["tree_head"]
    if why := fork(saved, head, "the bundle's"):
        return False, why
    first, second = sorted([(saved["size"], saved["root"]), (head["size"], head["root"])])
    if first[0] != second[0] or first[1] != second[1]:
        if consistency is None:
            return False, "no consistency proof between the saved tree head and the bundle's"
        try:
            merkle.verify_consistency(
                first[0],
                second[0],
                [bytes.fromhex(h) for h in consistency],
                bytes.fromhex(first[1]),
                bytes.fromhex(second[1]),
            )
        except ValueError as e:
            return False, (
                f"the tree of {second[0]} leaves does not extend the one of {first[0]}: {e}"
            )
    ours = {json.loads(i["leaf"])["kind"]: i for i in proof.get("leaves") or []}
    for item in seen.get("leaves") or []:
        kind = json.loads(item["leaf"]).get("kind")
        mine = ours.get(kind)
        if mine is None or (mine["index"], mine["leaf"]) != (item["index"], item["leaf"]):
            where = f"leaf {mine['index']}" if mine else "no leaf"
            return False, (
                f"the saved receipt records this game's {kind} as leaf {item['index']}; "
                f"the bundle has {where} with other contents: the game was rewritten"
            )
    ended = events[-1] if events and events[-1].get("type") == catalog.ENDED else None
    end = ours.get("ended")
    if ended and end and end["index"] >= saved["size"]:
        late = codec.parse_time(saved["at"]) - codec.parse_time(ended["at"])
        if late.total_seconds() > MERGE_DELAY_S:
            return False, (
                f"the game ended at {ended['at']}, before the saved tree head of {saved['at']}, "
                f"but its end was logged later (leaf {end['index']}, "
                f"the saved head has {saved['size']}): the game was rewritten"
            )
    return True, f"consistent with the tree head of {saved['size']} leaves saved at {saved['at']}"


def fork(seen: Mapping[str, Any], other: Mapping[str, Any], whose: str) -> str | None:
    """Name a fork: two signed heads of one size with different roots (None if not)."""
    if seen["size"] != other["size"] or seen["root"] == other["root"]:
        return None
    return (
        f"fork: two heads of size {seen['size']} with different roots "
        f"({seen['root'][:16]}... seen at {seen['at']}, {other['root'][:16]}... {whose} "
        f"at {other['at']}): the log was rewritten"
    )


def check_history(
    seen: Mapping[str, Any],
    current: Any,
    consistency: list[str] | None,
    trusted: Mapping[str, Any],
) -> tuple[bool, str]:
    """Check that a server's current tree head extends a head seen before (`consistency`:
    the server's RFC 9162 proof from the seen size to its own, hex): name a rollback (a
    head smaller than one seen) or a fork (two heads of one size, or a later head that
    does not extend the one seen)."""
    for name, head in (("the saved tree head", seen), ("the server's tree head", current)):
        if why := check_head(head, trusted):
            return False, f"{name}: {why}"
    m, n = seen["size"], current["size"]
    if n < m:
        return False, f"the log was rolled back: a head of size {m} was seen, the server's is {n}"
    if why := fork(seen, current, "the server's"):
        return False, why
    if n > m and m > 0:
        try:
            merkle.verify_consistency(
                m,
                n,
                [bytes.fromhex(h) for h in consistency or []],
                bytes.fromhex(seen["root"]),
                bytes.fromhex(current["root"]),
            )
        except (ValueError, TypeError) as e:
            return False, (
                f"fork: the server's head of size {n} does not extend the head of size {m} "
                f"seen ({e}): the log was rewritten"
            )
    return True, f"the server's head of size {n} extends the head of size {m} seen at {seen['at']}"


def _short(value: Any) -> str:
    out = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return out if len(out) <= 80 else out[:77] + "..."
