"""`marketfold verify`'s checks against the public log of games: that a game's bundle
agrees with a tree head or receipt kept earlier (--seen), that the server's log still
extends it and still holds the game's leaves it held then (--server), and that
witnesses cosigned checkpoints holding them (--witness, --quorum, --checkpoint)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

from cli.server_reads import consistency_proof, get_json, get_text


def seen_head(args: argparse.Namespace, data: Any) -> tuple[Any, list[str] | None]:
    """The saved tree head or receipt, and the consistency proof between it and the
    bundle's tree head (from --server; None if it is needed and there is no server, or
    the server cannot give it: a log rolled back holds fewer leaves than the head seen)."""
    if not args.seen:
        return None, None
    try:
        seen = json.loads(Path(args.seen).read_text("utf-8-sig"))
    except (OSError, ValueError) as e:
        raise ValueError(f"cannot read {args.seen}: {e}") from e
    saved = saved_head(seen)
    ours = (
        ((data.get("transparency") or {}).get("tree_head") or {}) if isinstance(data, dict) else {}
    )
    sizes = sorted(x for x in (saved.get("size"), ours.get("size")) if isinstance(x, int))
    if len(sizes) < 2 or sizes[0] == sizes[1] or not args.server or sizes[0] == 0:
        return seen, None
    return seen, consistency_proof(args.server, sizes[0], sizes[1])


def saved_head(seen: Any) -> dict[str, Any]:
    """The tree head in a saved file ({} for a receipt that holds only a promise)."""
    if not isinstance(seen, dict) or not ("tree_head" in seen or "size" in seen):
        return {}
    saved = seen.get("tree_head", seen)
    return saved if isinstance(saved, dict) else {}


def history(args: argparse.Namespace, seen: Any, trusted: dict[str, Any]) -> Any:
    """With --seen and --server, the check that the server's log now extends the head
    seen: a rolled-back or forked log is named (events.log_checks.check_history)."""
    from events import log_checks
    from events.audit import Check

    saved = saved_head(seen)
    check = Check(log_checks.HISTORY)
    try:
        current = get_json(args.server, "/v1/transparency/head")
    except ValueError as e:
        check.fail(None, f"the server gave no tree head: {e}", code="server_unreachable")
        return check
    proof = None
    sizes = (saved.get("size"), (current or {}).get("size") if isinstance(current, dict) else None)
    if all(isinstance(x, int) for x in sizes) and 0 < sizes[0] < sizes[1]:
        proof = consistency_proof(args.server, sizes[0], sizes[1])
    ok, found = log_checks.check_history(saved, current, proof, trusted)
    if ok:
        check.detail = found
    else:
        check.fail(None, found, code="history_broken")
    return check


def held(args: argparse.Namespace, seen: Any, data: Any) -> Any:
    """With --seen and --server, the check that every leaf of this game that the tree head
    seen already held is the bundle's (events.receipts.check_held): the log's first leaves
    are fetched from the server and checked against the saved head's root."""
    from cli import monitor
    from events import receipts
    from events.audit import Check

    saved = saved_head(seen)
    check = Check(receipts.HELD)
    try:
        texts = monitor.leaves(args.server, saved["size"])  # 1,000 a request
    except (ValueError, KeyError, TypeError) as e:
        check.fail(
            None, f"the server gave no leaves of the tree head seen: {e}", code="server_unreachable"
        )
        return check
    ok, found = receipts.check_held(
        data.get("events") or [], data.get("transparency"), saved, texts
    )
    if ok:
        check.detail = found
    else:
        check.fail(None, found, code="not_held")
    return check


def witnesses(args: argparse.Namespace) -> list[Any]:
    """The --witness verifier keys (each given as text or as a file holding it)."""
    from events import note

    out = []
    for given in args.witness:
        path = Path(given)
        text = path.read_text("utf-8") if "+" not in given and path.exists() else given
        out.append(note.parse_vkey(text))
    return out


def witnessed(args: argparse.Namespace, data: Any, trusted: dict[str, Any]) -> Any:
    """With --witness, the check that K of the witnesses cosigned checkpoints holding the
    game's leaves (events.witness_count.witnessed): a rollback or a fork is named."""
    from events import witness_count
    from events.audit import Check

    check = Check(witness_count.CHECK)
    keys = witnesses(args)
    quorum = args.quorum if args.quorum is not None else len(keys)
    proof = (data.get("transparency") or {}) if isinstance(data, dict) else {}
    head, items = proof.get("tree_head"), proof.get("leaves") or []
    if not isinstance(head, dict) or not items:
        check.fail(
            None,
            "the bundle carries no tree head and leaves to find in a checkpoint",
            code="no_proofs",
        )
        return check
    notes = [Path(f).read_text("utf-8") for f in args.checkpoint]
    size = None
    if args.server:
        paths = ["/v1/transparency/checkpoint"]
        paths += [f"/v1/transparency/checkpoint?witness={quote(k.name)}" for k in keys]
        for path in paths:
            try:
                notes.append(get_text(args.server, path))
            except ValueError:
                continue  # no checkpoint kept for that witness
        try:
            size = get_json(args.server, "/v1/transparency/head")["size"]
        except (ValueError, KeyError, TypeError):
            size = None
    ok, found = witness_count.witnessed(
        head,
        [i.get("index", -1) for i in items if isinstance(i, dict)],
        notes,
        keys,
        quorum,
        trusted,
        lambda m, n: consistency_proof(args.server, m, n) if args.server else None,
        size,
    )
    if not ok and found.startswith("unwitnessed") and args.server:
        found = _logged_again(args.server, notes, keys, trusted, items) or found
    if ok:
        check.detail = found
    else:
        check.fail(None, found, code="unwitnessed")
    return check


def _logged_again(server: str, notes: list[str], keys: list[Any], trusted: Any, items: Any) -> Any:
    """For a game its witnesses never accepted: name it logged a second time when the
    largest cosigned checkpoint holds its leaves elsewhere (read from the server's leaves,
    checked against that checkpoint's root)."""
    from cli import monitor
    from events import witness_count

    found, _ = witness_count.cosigned(notes, keys, trusted)
    if not found:
        return None
    _, size, root = max(found, key=lambda cp: cp[1])
    try:
        texts = monitor.leaves(server, size)
    except (ValueError, KeyError, TypeError):
        return None
    return witness_count.logged_again(texts, root, [i for i in items if isinstance(i, dict)])
