"""`marketfold monitor`: watch a server's public log of games from outside it.

Each run reads the server's signed tree head and every leaf (`GET
/v1/transparency/leaves`, 1,000 at a time), the exports of the finished games the lobby
lists and of any `--game` given, and keeps the heads it saw in a local file (`--state`).
It reports by name a fork, a rollback, leaves that do not hash to the signed head, a game
with two leaves of one kind, and a leaf that does not match its game's export
(events.log_monitor). Run it from cron on a machine the operator does not control, with
keys saved once from `GET /v1/keys` (`--keys`): its history is the proof.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

from cli import server_reads

MOST_GAMES = 10_000  # finished games read from the lobby per run


def add_parser(sub: Any) -> None:
    monitor = sub.add_parser(
        "monitor", help="read a server's public log of games and report forks, rollbacks, ..."
    )
    monitor.add_argument("--server", required=True, help="e.g. https://host (its /v1 API)")
    monitor.add_argument(
        "--state",
        default="marketfold-monitor.json",
        metavar="FILE",
        help="the heads seen before, kept between runs (default: ./marketfold-monitor.json)",
    )
    monitor.add_argument(
        "--keys",
        action="append",
        default=[],
        metavar="FILE",
        help="trusted signing keys saved from GET /v1/keys (default: those the server "
        "publishes now)",
    )
    monitor.add_argument(
        "--game",
        action="append",
        default=[],
        metavar="ID",
        help="also check this game's leaves against its export (an unlisted game you hold)",
    )
    monitor.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    """Exit 0 with no finding, 1 with findings, 2 if the server or the state cannot be read."""
    from events import keylog, log_checks, log_monitor

    state_path = Path(args.state)
    try:
        state = json.loads(state_path.read_text("utf-8")) if state_path.exists() else {}
        history = list(state.get("heads") or [])
        trusted = server_reads.trusted_keys(
            argparse.Namespace(keys=args.keys, server=None if args.keys else args.server)
        )
        head = server_reads.get_json(args.server, "/v1/transparency/head")
        texts = leaves(args.server, head["size"])
        # the keys the log's rotations made active, each endorsed by the key it retired
        trusted.update(keylog.learn(texts, trusted))
        if why := log_checks.check_head(head, trusted):
            raise ValueError(f"the server's tree head: {why}")
        exports = _exports(args.server, [*args.game, *_finished(args.server)])
    except (ValueError, OSError, AttributeError, KeyError, TypeError) as e:
        print(f"marketfold monitor: {e}", file=sys.stderr)
        return 2
    findings = log_monitor.check(history, head, texts, exports)
    findings += log_monitor.out_of_window([*history, head], keylog.history(texts))
    state["heads"] = log_monitor.remember(history, head)
    state_path.write_text(json.dumps(state, indent=2), "utf-8")
    if args.json:
        print(json.dumps({"head": head, "games": len(exports), "findings": findings}, indent=2))
    else:
        print(
            f"log of {head['size']} leaves, head signed at {head['at']}; "
            f"{len(exports)} games checked against their exports; "
            f"{len(state['heads'])} heads in {state_path}"
        )
        for f in findings:
            print(f"  {f['finding'].upper()}: {f['detail']}")
        if not findings:
            print("  no findings")
    return 1 if findings else 0


def leaves(server: str, end: int, start: int = 0) -> list[str]:
    """The log's leaves [start, end) as text, read 1,000 at a time (fewer if it has fewer)."""
    texts: list[str] = []
    while start + len(texts) < end:
        at = start + len(texts)
        page = server_reads.get_json(server, f"/v1/transparency/leaves?start={at}&end={end}")
        got = [item["leaf"] for item in page.get("leaves") or []]
        if not got:
            break  # fewer leaves than the head: the caller names it
        texts += got
    return texts[: end - start]


def _finished(server: str) -> list[str]:
    ids: list[str] = []
    cursor = None
    while len(ids) < MOST_GAMES:
        query = "status=finished&limit=100" + (f"&cursor={quote(cursor)}" if cursor else "")
        page = server_reads.get_json(server, f"/v1/games?{query}")
        ids += [g["id"] for g in page.get("games") or []]
        cursor = page.get("next")
        if not cursor:
            break
    return ids


def _exports(server: str, ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    out = {}
    for game_id in dict.fromkeys(ids):
        try:
            bundle = server_reads.get_json(server, f"/v1/games/{quote(game_id)}/export")
        except ValueError:
            continue  # not finished, or gone: nothing to compare
        if isinstance(bundle, dict) and isinstance(bundle.get("events"), list):
            out[game_id] = bundle["events"]
    return out
