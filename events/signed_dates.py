"""Whether each signed statement is dated within its key's window (the windows:
events/keylog.py; docs/audit.md, "Keys with a history"): a bundle's signature and tree
head, a saved head, a checkpoint. Each finding is named:

- `retired_key`: dated at or after its key's retirement;
- `key_not_yet_valid`: dated before its key's `key` leaf;
- `backdated`: dated inside its key's window but holding what came after it: a tree head
  or checkpoint holding the leaf that retired its key, or a bundle whose game's leaves
  lie at or after that leaf, or a bundle dated before its own game's end;
- `unlogged_key`: signed by a key the log never named while it holds rotations.

Pure: the caller passes the windows in.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from events import codec
from events.keylog import Window

CHECK = "signed within its key's window"
RETIRED, NOT_YET, BACKDATED, UNLOGGED = (
    "retired_key",
    "key_not_yet_valid",
    "backdated",
    "unlogged_key",
)


def dated(kid: str, at: Any, windows: Mapping[str, Window], what: str) -> str | None:
    """Name why `what`, signed by `kid` and dated `at`, lies outside the key's window."""
    window = windows.get(kid)
    if window is None:
        if any(w.first is not None for w in windows.values()):
            return f"{UNLOGGED}: {what} is signed by key {kid}, which no key leaf of the log names"
        return None
    when = _time(at)
    if when is None:
        return f"{BACKDATED}: {what} signed by key {kid} carries no valid date ({at!r})"
    if window.not_after is not None and when >= codec.parse_time(window.not_after):
        return (
            f"{RETIRED}: {what} is dated {at}, but key {kid} was retired at "
            f"{window.not_after} (leaf {window.last}): a retired key signed it"
        )
    if window.not_before is not None and when < codec.parse_time(window.not_before):
        return (
            f"{NOT_YET}: {what} is dated {at}, before key {kid} became active at "
            f"{window.not_before} (leaf {window.first})"
        )
    return None


def sized(kid: str, size: int, windows: Mapping[str, Window], what: str) -> str | None:
    """Name why a tree head or checkpoint of `size` leaves cannot be `kid`'s: it holds the
    leaf that retired the key (backdated), or not yet the key's own leaf."""
    window = windows.get(kid)
    if window is None:
        return None
    if window.last is not None and size > window.last:
        return (
            f"{BACKDATED}: {what} holds {size} leaves, the rotation that retired key {kid} "
            f"(leaf {window.last}) among them, yet that key signed it: a retired key signed "
            "it later and dated it back"
        )
    if window.first is not None and size <= window.first:
        return (
            f"{NOT_YET}: {what} holds {size} leaves, not yet the leaf {window.first} that "
            f"made key {kid} active"
        )
    return None


def covers(kid: str, indexes: list[int], windows: Mapping[str, Window], what: str) -> str | None:
    """Name a statement by `kid` about leaves logged at or after the key's retirement."""
    window = windows.get(kid)
    late = [i for i in indexes if window and window.last is not None and i >= window.last]
    if not late or window is None:
        return None
    return (
        f"{BACKDATED}: {what} is signed by key {kid}, retired at leaf {window.last}, but its "
        f"game's leaf {max(late)} was logged after: a retired key signed it later"
    )


def bundle_date(bundle: Mapping[str, Any], said: Mapping[str, Any]) -> tuple[Any, str]:
    """A bundle's date and the rule that dates it: `signed_at` of its signed statement
    (rule 2), else its last event's time (rule 1: bundles signed before dates were)."""
    if "signed_at" in said:
        return said["signed_at"], "signed_at"
    events = bundle.get("events") or []
    last = events[-1] if events and isinstance(events[-1], Mapping) else {}
    return last.get("at"), "its last event's time"


def check_bundle(bundle: Mapping[str, Any], windows: Mapping[str, Window]) -> tuple[bool, str]:
    """Check that a bundle's signature and its tree head lie in their keys' windows."""
    found = []
    sig = bundle.get("signature")
    proof = bundle.get("transparency") if isinstance(bundle.get("transparency"), Mapping) else {}
    items = [i for i in proof.get("leaves") or [] if isinstance(i, Mapping)]
    indexes = [i["index"] for i in items if isinstance(i.get("index"), int)]
    if isinstance(sig, Mapping) and isinstance(sig.get("kid"), str):
        kid, said = sig["kid"], _said(sig)
        at, rule = bundle_date(bundle, said)
        what = f"the bundle's signature (dated by {rule})"
        why = dated(kid, at, windows, what) or covers(kid, indexes, windows, "the bundle")
        if why is None and rule == "signed_at":
            why = _before_end(bundle, at, kid)
        found += [why] if why else []
    head = proof.get("tree_head")
    hsig = head.get("signature") if isinstance(head, Mapping) else None
    if isinstance(hsig, Mapping) and isinstance(hsig.get("kid"), str):
        what = f"the bundle's tree head of {head.get('size')} leaves"
        why = dated(hsig["kid"], head.get("at"), windows, what)
        if why is None and isinstance(head.get("size"), int):
            why = sized(hsig["kid"], head["size"], windows, what)
        found += [why] if why else []
    if found:
        return False, "; ".join(found)
    kids = sorted({w.kid for w in windows.values()})
    return True, f"every signature lies in its key's window ({len(kids)} keys with a history)"


def _said(sig: Mapping[str, Any]) -> dict[str, Any]:
    try:
        said = json.loads(sig.get("statement") or "")
    except (TypeError, ValueError):
        return {}
    return said if isinstance(said, dict) else {}


def _before_end(bundle: Mapping[str, Any], at: Any, kid: str) -> str | None:
    events = bundle.get("events") or []
    last = events[-1] if events and isinstance(events[-1], Mapping) else {}
    when, end = _time(at), _time(last.get("at"))
    if when is None or end is None or when >= end:
        return None
    return (
        f"{BACKDATED}: key {kid} dated the bundle {at}, before its last event "
        f"({last.get('at')}): it was signed later and dated back"
    )


def _time(at: Any) -> Any:
    if not isinstance(at, str):
        return None
    try:
        return codec.parse_time(at)
    except (ValueError, TypeError):
        return None
