"""`marketfold backup DIR` and `marketfold restore DIR`: a consistent copy of a server's
data taken while it serves, and that copy laid out as a fresh data directory.

    marketfold backup DIR [--data-dir ./.marketfold]
    marketfold restore DIR --data-dir NEW [--force]

A backup holds, in DIR:
- `store.rdb`: the store (every game, league, player, token and the public log) as one
  point-in-time snapshot: the server writes it itself (BGSAVE, a forked child, so serving
  goes on), and the command copies it;
- `queues.rdb`: the job queues, the same way (a job lost here is re-derived from the
  deadline index in the store, docs/workers.md);
- `keys/`: the signing keys (SIGNING_KEY_DIR): without them new exports are signed by a
  key nobody has published, and players' saved keys no longer verify them;
- `vapid/`: the Web Push key pair (VAPID_KEY_DIR): without it every browser's push
  subscription, made for the old public key, stops receiving;
- `manifest.json`: when it was taken, by which version, the data format, and each file's
  SHA-256, which `restore` checks before writing anything.

The stores are found as `serve` runs them: `REDIS_URL` and `RQ_REDIS_URL` if set, else the
embedded servers' sockets in the data directory. A store on another machine (its snapshot
file is not readable here) or a Redis Cluster is refused with a message: back those up with
their own tools.

`restore` writes into a data directory no server is using, and only an empty one unless
`--force` (which first moves what was there aside to `<dir>.before-restore-<time>`). Each
snapshot becomes the base of the store's append-only file (the layout Valkey itself writes
after a rewrite), so the restored server starts with it and keeps appending to it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import time
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path
from typing import Any

import redis

from events import keys
from service import config
from service.data_format import FORMAT

MANIFEST = "appendonly.aof.manifest"
# the keys a server keeps beside its stores, by their directory in a data directory (where
# `serve` keeps them) and the setting that may put them elsewhere
KEY_DIRS = {"keys": "SIGNING_KEY_DIR", "vapid": "VAPID_KEY_DIR"}


class Refused(Exception):
    """The command cannot do what was asked; the message says why and what to do."""


def add_parser(sub: Any) -> None:
    backup = sub.add_parser("backup", help="copy a serving server's data and keys to DIR")
    backup.add_argument("dir", help="where the copy goes (created; must be empty)")
    backup.add_argument("--data-dir", default="./.marketfold")
    restore = sub.add_parser("restore", help="lay a backup out as a fresh data directory")
    restore.add_argument("dir", help="a directory `marketfold backup` wrote")
    restore.add_argument("--data-dir", required=True, help="the data directory to fill")
    restore.add_argument("--force", action="store_true", help="move existing data aside first")


def run(args: argparse.Namespace) -> int:
    try:
        if args.command == "backup":
            made = backup(Path(args.dir), Path(args.data_dir), dict(os.environ))
            print(f"backup written to {args.dir}: " + ", ".join(sorted(made["files"])))
        else:
            restore(Path(args.dir), Path(args.data_dir), force=args.force)
            print(
                f"restored into {args.data_dir}; start it with marketfold serve --data-dir "
                f"{args.data_dir}"
            )
        return 0
    except Refused as e:
        print(f"marketfold {args.command}: {e}", file=sys.stderr)
        return 2


def stores(data_dir: Path, env: dict[str, str]) -> dict[str, str]:
    """The URLs of the store and the queues, as `serve` with this data directory uses them."""
    store = config.raw(env, "REDIS_URL") or f"unix://{(data_dir / 'valkey.sock').resolve()}"
    queues = config.raw(env, "RQ_REDIS_URL")
    if not queues:
        queues = (
            store
            if config.raw(env, "REDIS_URL")
            else (f"unix://{(data_dir / 'queues' / 'valkey.sock').resolve()}")
        )
    return {"store": store, "queues": queues}


def snapshot(url: str, to: Path, timeout: float = 300.0) -> None:
    """Have the server at `url` write a snapshot (BGSAVE) and copy it to `to`."""
    if url.startswith("redis+cluster") or url.startswith("redis+sentinel"):
        raise Refused(f"{url.split(':')[0]} stores are backed up with their own tools")
    client = redis.Redis.from_url(url, socket_timeout=10)
    try:
        client.ping()
    except redis.RedisError as e:
        raise Refused(f"cannot reach {url} ({e}): is the server running?") from e
    where = Path(client.config_get("dir")["dir"]) / client.config_get("dbfilename")["dbfilename"]
    before = client.info("persistence")["rdb_saves"]
    client.execute_command("BGSAVE", "SCHEDULE")  # after an append-only file rewrite, if one runs
    ends = time.monotonic() + timeout
    while True:
        info = client.info("persistence")
        if not info["rdb_bgsave_in_progress"] and info["rdb_saves"] > before:
            break
        if not info["rdb_bgsave_in_progress"] and info["rdb_last_bgsave_status"] != "ok":
            raise Refused(f"{url} could not write its snapshot (see its log)")
        if time.monotonic() > ends:
            raise Refused(f"{url} did not finish its snapshot in {timeout:.0f} s")
        time.sleep(0.05)
    if not where.is_file():
        raise Refused(f"{url} wrote its snapshot to {where}, which is not on this machine")
    shutil.copyfile(where, to)
    where.unlink()  # the server never reads it (it starts from its append-only file)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def backup(to: Path, data_dir: Path, env: dict[str, str]) -> dict[str, Any]:
    """Write a backup of the server using `data_dir` (and `env`'s settings) into `to`."""
    if to.exists() and any(to.iterdir()):
        raise Refused(f"{to} is not empty")
    to.mkdir(parents=True, exist_ok=True)
    urls = stores(data_dir, env)
    try:
        stored = redis.Redis.from_url(urls["store"], socket_timeout=10).get(keys.data_format())
    except redis.RedisError as e:
        raise Refused(f"cannot reach {urls['store']} ({e}): is the server running?") from e
    snapshot(urls["store"], to / "store.rdb")
    if urls["queues"] != urls["store"]:
        snapshot(urls["queues"], to / "queues.rdb")
    for name, setting in KEY_DIRS.items():
        held = Path(config.raw(env, setting) or data_dir / name)
        if held.is_dir():
            shutil.copytree(held, to / name)
    files = {str(p.relative_to(to)): _sha256(p) for p in sorted(to.rglob("*")) if p.is_file()}
    manifest = {
        "taken_at": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "marketfold": version("marketfold"),
        "format": int(stored or 1),
        "files": files,
    }
    (to / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def _lay_out(rdb: Path, into: Path) -> None:
    """Make `rdb` the base of a Valkey append-only file in directory `into`."""
    aof = into / "appendonlydir"
    aof.mkdir(parents=True)
    shutil.copyfile(rdb, aof / "appendonly.aof.1.base.rdb")
    (aof / "appendonly.aof.1.incr.aof").write_bytes(b"")
    (aof / MANIFEST).write_text(
        "file appendonly.aof.1.base.rdb seq 1 type b\nfile appendonly.aof.1.incr.aof seq 1 type i\n"
    )


def restore(source: Path, data_dir: Path, force: bool = False) -> None:
    """Lay the backup in `source` out as the data directory `data_dir`."""
    try:
        manifest = json.loads((source / "manifest.json").read_text())
    except (OSError, ValueError) as e:
        raise Refused(f"{source} is not a marketfold backup (manifest.json: {e})") from e
    if manifest.get("format") != FORMAT:
        raise Refused(
            f"the backup's data format is {manifest.get('format')}; this build "
            f"reads format {FORMAT} (docs/operations.md, 'Upgrades')"
        )
    for name, digest in manifest["files"].items():
        if not (source / name).is_file() or _sha256(source / name) != digest:
            raise Refused(f"{source / name} is missing or changed since the backup")
    for pidfile in (data_dir / "valkey.pid", data_dir / "queues" / "valkey.pid"):
        try:
            pid = int(pidfile.read_text().strip())
            os.kill(pid, 0)
        except (OSError, ValueError):
            continue
        raise Refused(f"a server (pid {pid}) is running on {data_dir}: stop it first")
    if data_dir.exists() and any(data_dir.iterdir()):
        if not force:
            raise Refused(f"{data_dir} is not empty (--force moves what is there aside)")
        aside = data_dir.with_name(f"{data_dir.name}.before-restore-{int(time.time())}")
        data_dir.rename(aside)
        print(f"moved the old data to {aside}")
    data_dir.mkdir(parents=True, exist_ok=True)
    _lay_out(source / "store.rdb", data_dir)
    if (source / "queues.rdb").is_file():
        _lay_out(source / "queues.rdb", data_dir / "queues")
    for name in KEY_DIRS:
        if (source / name).is_dir():
            shutil.copytree(source / name, data_dir / name)
