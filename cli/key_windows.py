"""The signing keys' windows an auditor's `marketfold verify` checks statements against
(events.keylog, docs/audit.md "Keys with a history"): published with the keys, and fixed
by the log's `key` leaves, which win when the server serves the leaves of a checkpoint.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from cli import server_reads, verify_log


def of(args: argparse.Namespace, trusted: dict[str, Any]) -> dict[str, Any]:
    """The signing keys' windows (events.keylog): those the --keys files and --server's
    keys publish, overridden by the `key` leaves of the log when --server serves the
    leaves of a trusted --checkpoint (or of its own signed head): the log is what the
    operator cannot change unseen."""
    from events import keylog

    found: dict[str, Any] = {}
    for name in args.keys:
        found.update(keylog.from_jwks(json.loads(Path(name).read_text("utf-8-sig"))))
    if not args.server:
        return found
    published = keylog.from_jwks(server_reads.get_json(args.server, "/v1/keys"))
    size, root = _log_extent(args, trusted)
    if size:
        from cli import monitor
        from events import merkle

        try:
            texts = monitor.leaves(args.server, size)
        except (ValueError, KeyError, TypeError):
            texts = []  # no leaves served: the published windows only
        hashes = [merkle.leaf_hash(t.encode()) for t in texts]
        if texts and merkle.frontier_root(merkle.extend([], hashes)) == root:
            return {**found, **keylog.history(texts)}
    return {**found, **published}


def _log_extent(args: argparse.Namespace, trusted: dict[str, Any]) -> tuple[int, bytes]:
    """The size and root of the largest trusted checkpoint given, else the server's head."""
    best = (0, b"")
    for cp, _ in _checkpoints(args, trusted):
        if cp.size > best[0]:
            best = (cp.size, cp.root)
    if best[0]:
        return best
    head = server_reads.get_json(args.server, "/v1/transparency/head")
    return head.get("size", 0), bytes.fromhex(head.get("root", ""))


def saved(args: argparse.Namespace, seen: Any, trusted: Any, windows: Any) -> list[str]:
    """Findings about the saved --seen head and --checkpoint notes: each must lie in the
    window of the key that signed it (events.keylog)."""
    from events import signed_dates

    out = []
    saved = verify_log.saved_head(seen)
    kid = (saved.get("signature") or {}).get("kid") if isinstance(saved, dict) else None
    if isinstance(kid, str) and isinstance(saved.get("size"), int):
        what = f"the saved tree head of {saved['size']} leaves"
        why = signed_dates.dated(kid, saved.get("at"), windows, what)
        out += [x for x in [why or signed_dates.sized(kid, saved["size"], windows, what)] if x]
    for cp, signer in _checkpoints(args, trusted):
        why = signed_dates.sized(signer, cp.size, windows, f"the checkpoint of size {cp.size}")
        out += [why] if why else []
    return out


def _checkpoints(args: argparse.Namespace, trusted: Any) -> list[tuple[Any, str]]:
    """The --checkpoint notes a trusted key of the log signed, each with that key's id."""
    from events import note, witness

    out = []
    for name in args.checkpoint:
        try:
            text, lines = note.split(Path(name).read_text("utf-8"))
            cp = note.parse_checkpoint(text)
        except (OSError, note.NoteError):
            continue
        if (signer := witness.log_signed(text, lines, trusted)) is not None:
            out.append((cp, signer))
    return out
