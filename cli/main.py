"""The `marketfold` command: `serve` runs the whole service, `worker` runs one worker,
`bot` and `demo` play through the API, `verify` checks an exported game offline, `monitor`
watches a server's public log of games, `witness` cosigns its checkpoints, `admin`
grants and revokes roles (operator, organizer) in the store."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from cli import admin, backup, keys, logs, monitor, verify, witness
from cli.bot_receipts import RECEIPTS
from cli.embedded import AlreadyRunning
from cli.serve import Stack, run
from service import config


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="marketfold", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the API, workers, and Redis unless REDIS_URL")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--data-dir", default="./.marketfold")
    serve.add_argument("--http-workers", type=int, default=2, help="gunicorn processes")
    serve.add_argument(
        "--connections", type=int, default=2000, help="open connections per gunicorn process"
    )
    serve.add_argument("--workers", type=int, default=1, help="RQ worker processes")
    serve.add_argument("--appendfsync", default="always", choices=["always", "everysec", "no"])
    serve.add_argument("--log-format", choices=["text", "json"], help="default: LOG_FORMAT, text")
    worker = sub.add_parser("worker", help="run an RQ worker and deadline sweeper on REDIS_URL")
    worker.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    bot = sub.add_parser("bot", help="play one seat of a game to its end through the API")
    bot.add_argument("--server", required=True, help="e.g. http://127.0.0.1:8000")
    bot.add_argument("--game", required=True, help="the game id")
    bot.add_argument(
        "--token", required=True, help="the seated player's token (--token=T if T starts with -)"
    )
    bot.add_argument("--strategy", help="package.module:function (default: random legal)")
    bot.add_argument("--seed", type=int, default=None)
    bot.add_argument(
        "--receipts",
        metavar="DIR",
        default=str(RECEIPTS),
        help="where to keep the game's receipt at its end, as <game>.receipt.json, for "
        "`marketfold verify --seen` (default: %(default)s)",
    )
    demo = sub.add_parser("demo", help="play a whole game with bots and print the standings")
    demo.add_argument("ruleset", help="goblin-market, sorcerous-futures, black-market, gobcon")
    demo.add_argument("--players", type=int, default=None, help="default: the ruleset's minimum")
    demo.add_argument("--server", help="a running service (default: start one for the demo)")
    demo.add_argument("--options", default="{}", help="game options as JSON")
    demo.add_argument("--strategy", help="package.module:function for every bot")
    demo.add_argument("--seed", type=int, default=0)
    verify.add_parser(sub)
    monitor.add_parser(sub)
    witness.add_parser(sub)
    keys.add_parser(sub)
    backup.add_parser(sub)
    admin.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line."""
    args = _parser().parse_args(argv)
    if getattr(args, "log_format", None):  # serve's children read it from the environment
        os.environ["MARKETFOLD_LOG_FORMAT"] = args.log_format
    logs.setup(config.load()["LOG_FORMAT"])
    if args.command == "verify":
        return verify.run(args)
    if args.command == "monitor":
        return monitor.run(args)
    if args.command == "witness":
        return witness.run(args)
    if args.command == "keys":
        return keys.run(args)
    if args.command in ("backup", "restore"):
        return backup.run(args)
    if args.command == "admin":
        return admin.run(args)
    if args.command == "bot":
        return bot(args)
    if args.command == "demo":
        return demo(args)
    if args.command == "worker":
        from cli import compose

        compose.run_worker(burst=args.burst)
        return 0
    return serve(args)


def bot(args: argparse.Namespace) -> int:
    """Play one seat to the end of the game, then print the result."""
    from cli.bot import Bot
    from cli.strategies import load_strategy

    player = Bot(
        args.server,
        args.game,
        args.token,
        load_strategy(args.strategy),
        args.seed,
        receipts=args.receipts,
    )
    game = player.play()
    print(json.dumps(game["result"], indent=2))
    if player.receipt is not None:
        print(
            f"receipt kept: {Path(args.receipts) / (args.game + '.receipt.json')}", file=sys.stderr
        )
    return 0


def demo(args: argparse.Namespace) -> int:
    """Play a whole game with bots; print the standings and the replay URL."""
    import games
    from cli import demo as demos
    from cli.strategies import load_strategy

    game = games.get(args.ruleset)
    if game is None:
        print(
            f"marketfold demo: no ruleset {args.ruleset!r}; one of {sorted(games.REGISTRY)}",
            file=sys.stderr,
        )
        return 2
    players = args.players or game.min_players
    print(
        demos.run(
            args.ruleset,
            players,
            args.server,
            json.loads(args.options),
            load_strategy(args.strategy),
            args.seed,
        )
    )
    return 0


def serve(args: argparse.Namespace) -> int:
    """Start Redis and the queues' Redis (unless REDIS_URL is set), gunicorn and the
    workers; restart any that
    dies; stop them all on Ctrl-C or SIGTERM."""
    stack = Stack(
        args.host,
        args.port,
        args.data_dir,
        args.http_workers,
        args.connections,
        args.appendfsync,
        args.workers,
    )
    try:
        stack.start()
    except AlreadyRunning as e:
        print(f"marketfold: {e}", file=sys.stderr)
        return 1
    queues = stack.setting("RQ_REDIS_URL")
    print(
        f"marketfold is serving on {stack.url}/v1 (Redis: {stack.setting('REDIS_URL')}"
        + (f", queues: {queues}" if queues else "")
        + "); Ctrl-C stops it",
        flush=True,
    )
    run(stack)
    restarts = {k: v for k, v in stack.supervisor.restarts().items() if v}
    print(f"marketfold stopped{f' (restarts: {restarts})' if restarts else ''}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
