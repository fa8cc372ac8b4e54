"""`marketfold verify`: check an exported game offline, and whose signature it carries; a
league's export (leagues.audit): its chain, its signature, and its standings recounted
with the organizer's rulings.

The play checks need nothing but the bundle. Whether the service signed it needs a key the
auditor trusts: a JWK Set saved from `GET /v1/keys` (`--keys FILE`, any number), or the
set a server publishes now (`--server URL`). Without either, the signature is not checked
and the bundle is reported as not verified: a valid chain alone does not show which
service played the game.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import quote

EXPECTED = "the game asked for"


def add_parser(sub: Any) -> None:
    verify = sub.add_parser(
        "verify", help="check an exported game or league offline (no server needed)"
    )
    verify.add_argument(
        "bundle",
        help="a file from GET /v1/games/{id}/export or GET /v1/leagues/{id}/export "
        "(a league's standings are recounted with its rulings) ('-' for stdin)",
    )
    verify.add_argument("--json", action="store_true", help="print the report as JSON")
    verify.add_argument(
        "--keys",
        action="append",
        default=[],
        metavar="FILE",
        help="trusted signing keys: a JWK Set saved from GET /v1/keys (repeatable)",
    )
    verify.add_argument(
        "--server",
        help="trust the keys this server publishes now (GET URL/v1/keys), and ask it for the "
        "consistency proof a --seen tree head needs",
    )
    verify.add_argument(
        "--seen",
        metavar="FILE",
        help="a receipt kept at the game's end (the web client's download, `marketfold bot "
        "--receipts`), a game's receipt (GET /v1/games/{id}/transparency) or a tree head "
        "(GET /v1/transparency/head) saved earlier: the bundle must agree with it, and with "
        "--server the server's log must extend it (a rollback or a fork is named) and the "
        "game's leaves the head already held must be the bundle's",
    )
    verify.add_argument(
        "--game",
        metavar="ID",
        help="the game the bundle must be (its log names it): another game's bundle fails",
    )
    verify.add_argument(
        "--witness",
        action="append",
        default=[],
        metavar="VKEY",
        help="a witness's verifier key (name+id+key, or a file holding it; repeatable): "
        "with --server, the game's leaves must be in checkpoints these witnesses cosigned",
    )
    verify.add_argument(
        "--quorum",
        type=int,
        metavar="K",
        help="how many of the --witness keys must have cosigned (default: all of them)",
    )
    verify.add_argument(
        "--checkpoint",
        action="append",
        default=[],
        metavar="FILE",
        help="a cosigned checkpoint saved earlier (GET /v1/transparency/checkpoint, or a "
        "witness's state DIR/checkpoint), counted with those the server serves",
    )


def trusted_keys(args: argparse.Namespace) -> dict[str, Any]:
    """Return {kid: public key} from --keys files and --server; ValueError if unreadable."""
    from events import signature

    keys: dict[str, Any] = {}
    for name in args.keys:
        try:
            keys.update(signature.keyset(json.loads(Path(name).read_text("utf-8-sig"))))
        except OSError as e:
            raise ValueError(f"cannot read {name}: {e}") from e
    if args.server:
        keys.update(signature.keyset(get_json(args.server, "/v1/keys")))
    return keys


def get_json(server: str, path: str) -> Any:
    url = server.rstrip("/").removesuffix("/v1") + path
    try:
        with urllib.request.urlopen(url, timeout=10) as res:
            return json.loads(res.read())
    except OSError as e:
        raise ValueError(f"cannot read {url}: {e}") from e


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
    saved = _saved(seen)
    ours = (
        ((data.get("transparency") or {}).get("tree_head") or {}) if isinstance(data, dict) else {}
    )
    sizes = sorted(x for x in (saved.get("size"), ours.get("size")) if isinstance(x, int))
    if len(sizes) < 2 or sizes[0] == sizes[1] or not args.server or sizes[0] == 0:
        return seen, None
    return seen, consistency_proof(args.server, sizes[0], sizes[1])


def _saved(seen: Any) -> dict[str, Any]:
    """The tree head in a saved file ({} for a receipt that holds only a promise)."""
    if not isinstance(seen, dict) or not ("tree_head" in seen or "size" in seen):
        return {}
    saved = seen.get("tree_head", seen)
    return saved if isinstance(saved, dict) else {}


def consistency_proof(server: str, first: int, second: int) -> list[str] | None:
    """The server's consistency proof between two sizes, or None if it gives none."""
    try:
        found = get_json(server, f"/v1/transparency/consistency?first={first}&second={second}")
    except ValueError:
        return None
    return found.get("path") if isinstance(found, dict) else None


def history(args: argparse.Namespace, seen: Any, trusted: dict[str, Any]) -> Any:
    """With --seen and --server, the check that the server's log now extends the head
    seen: a rolled-back or forked log is named (events.transparency.check_history)."""
    from events import transparency
    from events.audit import Check

    saved = _saved(seen)
    check = Check(transparency.HISTORY)
    try:
        current = get_json(args.server, "/v1/transparency/head")
    except ValueError as e:
        check.fail(None, f"the server gave no tree head: {e}", code="server_unreachable")
        return check
    proof = None
    sizes = (saved.get("size"), (current or {}).get("size") if isinstance(current, dict) else None)
    if all(isinstance(x, int) for x in sizes) and 0 < sizes[0] < sizes[1]:
        proof = consistency_proof(args.server, sizes[0], sizes[1])
    ok, found = transparency.check_history(saved, current, proof, trusted)
    if ok:
        check.detail = found
    else:
        check.fail(None, found, code="history_broken")
    return check


def expected_game(data: Any, game: str) -> Any:
    """The check `--game ID` adds: the game the bundle's log names (in `game.Created`, bound
    to the seed commitment and the signature) is the one the auditor expects."""
    from events.audit import Check

    check = Check(EXPECTED)
    events = data.get("events") if isinstance(data, dict) else None
    first = events[0] if isinstance(events, list) and events else {}
    logged = (first.get("data") or {}).get("game_id") if isinstance(first, dict) else None
    if logged != game:
        check.fail(
            1,
            f"the bundle is game {logged}, not game {game} (--game): another game",
            code="another_game",
        )
    else:
        check.detail = f"the bundle's log is game {game}"
    return check


def held(args: argparse.Namespace, seen: Any, data: Any) -> Any:
    """With --seen and --server, the check that every leaf of this game that the tree head
    seen already held is the bundle's (events.receipts.check_held): the log's first leaves
    are fetched from the server and checked against the saved head's root."""
    from cli import monitor
    from events import receipts
    from events.audit import Check

    saved = _saved(seen)
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
    game's leaves (events.witness.witnessed): a rollback or a fork is named."""
    from events import witness
    from events.audit import Check

    check = Check(witness.CHECK)
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
    ok, found = witness.witnessed(
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
    from events import witness

    found, _ = witness.cosigned(notes, keys, trusted)
    if not found:
        return None
    _, size, root = max(found, key=lambda cp: cp[1])
    try:
        texts = monitor.leaves(server, size)
    except (ValueError, KeyError, TypeError):
        return None
    return witness.logged_again(texts, root, [i for i in items if isinstance(i, dict)])


def get_text(server: str, path: str) -> str:
    url = server.rstrip("/").removesuffix("/v1") + path
    try:
        with urllib.request.urlopen(url, timeout=10) as res:
            return res.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read {url}: {e}") from e


def run(args: argparse.Namespace) -> int:
    """Verify a bundle; exit 0 only when every check passes, the signature included."""
    from cli import key_windows
    from events import audit, bundle, keylog

    try:
        trusted = trusted_keys(args)
    except ValueError as e:
        print(f"marketfold verify: no trusted keys: {e}", file=sys.stderr)
        return 2
    try:
        raw = sys.stdin.buffer.read() if args.bundle == "-" else Path(args.bundle).read_bytes()
        bundle.check_text(raw)
        data = json.loads(raw)
        if isinstance(data, dict) and data.get("format") == "marketfold-league/1":
            if args.game is not None:
                raise bundle.BundleError("format", f"a league's export, not game {args.game}")
            from leagues import audit as league_audit

            report = league_audit.verify(data, trusted, key_windows.of(args, trusted))
        else:
            seen, consistency = seen_head(args, data)
            windows = key_windows.of(args, trusted)
            report = audit.verify(data, trusted, seen, consistency, windows)
            if found := key_windows.saved(args, seen, trusted, windows):
                report.checks.append(audit.Check(keylog.CHECK))
                report.checks[-1].fail(None, "; ".join(found), code="key_out_of_window")
            if args.game is not None:
                report.checks.insert(0, expected_game(data, args.game))
            if seen is not None and args.server and _saved(seen):
                report.checks.append(history(args, seen, trusted))
                report.checks.append(held(args, seen, data))
            if args.witness:
                report.checks.append(witnessed(args, data, trusted))
    except bundle.BundleError as e:
        print(f"marketfold verify: {args.bundle} is not a bundle: {e}", file=sys.stderr)
        return 2
    except (OSError, ValueError, RecursionError) as e:
        print(f"marketfold verify: cannot read {args.bundle}: {e}", file=sys.stderr)
        return 2
    if not trusted:
        for check in report.checks:
            if check.name == "signed by the service" and "no trusted key" not in check.detail:
                check.detail += "; no trusted key given (--keys FILE or --server URL)"
    print(json.dumps(report.to_json(), indent=2) if args.json else report.to_text())
    return 0 if report.ok else 1
