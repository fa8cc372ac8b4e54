"""The `marketfold` command: `serve` runs the whole service, `worker` runs one worker."""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from service.embedded import AlreadyRunning, EmbeddedRedis


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="marketfold", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the API, one worker, and Redis unless REDIS_URL")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--data-dir", default="./.marketfold")
    serve.add_argument("--http-workers", type=int, default=2, help="gunicorn processes")
    serve.add_argument("--threads", type=int, default=8, help="threads per gunicorn process")
    serve.add_argument("--appendfsync", default="always", choices=["always", "everysec", "no"])
    worker = sub.add_parser("worker", help="run an RQ worker and deadline sweeper on REDIS_URL")
    worker.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    verify = sub.add_parser("verify", help="check an exported game offline (no server needed)")
    verify.add_argument("bundle", help="a file from GET /v1/games/{id}/export ('-' for stdin)")
    verify.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line."""
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    if args.command == "verify":
        return verify(args)
    if args.command == "worker":
        from workers import runner

        runner.run(burst=args.burst)
        return 0
    return serve(args)


def verify(args: argparse.Namespace) -> int:
    """Verify a bundle offline; exit 0 only when every check passes."""
    from events import audit

    try:
        text = sys.stdin.read() if args.bundle == "-" else Path(args.bundle).read_text("utf-8")
        data = json.loads(text)
    except (OSError, ValueError) as e:
        print(f"marketfold verify: cannot read {args.bundle}: {e}", file=sys.stderr)
        return 2
    report = audit.verify(data if isinstance(data, dict) else {})
    print(json.dumps(report.to_json(), indent=2) if args.json else report.to_text())
    return 0 if report.ok else 1


def serve(args: argparse.Namespace) -> int:
    """Start Redis (unless REDIS_URL is set), gunicorn and a worker; stop all on Ctrl-C."""
    redis_server = None
    env = dict(os.environ)
    if not env.get("REDIS_URL"):
        try:
            redis_server = EmbeddedRedis(args.data_dir, appendfsync=args.appendfsync).start()
        except AlreadyRunning as e:
            print(f"marketfold: {e}", file=sys.stderr)
            return 1
        env["REDIS_URL"] = redis_server.url
    http = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "service.wsgi:app",
            "--bind",
            f"{args.host}:{args.port}",
            "--workers",
            str(args.http_workers),
            "--worker-class",
            "gthread",
            "--threads",
            str(args.threads),
            "--graceful-timeout",
            "5",
            "--log-level",
            "warning",
        ],
        env=env,
    )
    worker = subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env=env)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    print(
        f"marketfold is serving on http://{args.host}:{args.port}/v1 "
        f"(Redis: {env['REDIS_URL']}); Ctrl-C stops it",
        flush=True,
    )
    try:
        while not stopping and http.poll() is None and worker.poll() is None:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    for proc in (worker, http):  # workers first, the store last
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in (worker, http):
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
    if redis_server:
        redis_server.stop()
    print("marketfold stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
