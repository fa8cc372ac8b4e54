"""`marketfold verify`: check an exported game offline, and whose signature it carries; a
league's export (leagues.audit): its chain, its signature, and its standings recounted
with the organizer's rulings.

The play checks need nothing but the bundle. Whether the service signed it needs a key the
auditor trusts: a JWK Set saved from `GET /v1/keys` (`--keys FILE`, any number), or the
set a server publishes now (`--server URL`). Without either, the signature is not checked
and the bundle is reported as not verified: a valid chain alone does not show which
service played the game. The checks against the public log of games (--seen, --witness)
are in cli/verify_log.py, what is read from a server in cli/server_reads.py.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

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


def run(args: argparse.Namespace) -> int:
    """Verify a bundle; exit 0 only when every check passes, the signature included."""
    from cli import key_windows, server_reads, verify_log
    from events import audit, bundle, signed_dates

    try:
        trusted = server_reads.trusted_keys(args)
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
            seen, consistency = verify_log.seen_head(args, data)
            windows = key_windows.of(args, trusted)
            report = audit.verify(data, trusted, seen, consistency, windows)
            if found := key_windows.saved(args, seen, trusted, windows):
                report.checks.append(audit.Check(signed_dates.CHECK))
                report.checks[-1].fail(None, "; ".join(found), code="key_out_of_window")
            if args.game is not None:
                report.checks.insert(0, expected_game(data, args.game))
            if seen is not None and args.server and verify_log.saved_head(seen):
                report.checks.append(verify_log.history(args, seen, trusted))
                report.checks.append(verify_log.held(args, seen, data))
            if args.witness:
                report.checks.append(verify_log.witnessed(args, data, trusted))
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
