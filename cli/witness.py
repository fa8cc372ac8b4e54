"""`marketfold witness`: cosign a server's checkpoints only while its log stays append-only
and keeps its invariants (docs/audit.md, "Checkpoints and witnesses").

Each round reads the server's checkpoint (`GET /v1/transparency/checkpoint`), the
consistency proof from the last checkpoint this witness cosigned, and the new leaves, and
checks them (events.witness.review). It then cosigns (C2SP `cosignature/v1`) and posts the
cosignature to the server (`POST /v1/transparency/cosignatures`), or refuses and prints
what it found: a rollback, a fork, leaves that do not hash to the checkpoint, a game's
second leaf of one kind or a leaf out of order. Its state (`--state DIR`) holds the last
checkpoint it cosigned, the compact range of that tree and the games it has seen; run it
on a machine the operator does not control.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from cli import monitor, server_reads

STATE, COSIGNED = "state.json", "checkpoint"


def add_parser(sub: Any) -> None:
    w = sub.add_parser("witness", help="cosign a server's checkpoints while its log stays honest")
    w.add_argument("--server", help="e.g. https://host (its /v1 API)")
    w.add_argument(
        "--key-file",
        required=True,
        metavar="F",
        help="the witness's private key (C2SP PRIVATE+KEY+... text); made if missing (--name)",
    )
    w.add_argument("--name", help="the witness's key name when the key is made, e.g. w1.example")
    w.add_argument("--state", metavar="DIR", help="where the witness keeps what it cosigned")
    w.add_argument(
        "--keys",
        action="append",
        default=[],
        metavar="FILE",
        help="the log's signing keys saved from GET /v1/keys (default: those it publishes now)",
    )
    w.add_argument("--once", action="store_true", help="one round: exit 0 cosigned, 1 refused")
    w.add_argument("--interval", type=float, default=60.0, help="seconds between rounds")
    w.add_argument("--vkey", action="store_true", help="print the witness's verifier key, exit")


def run(args: argparse.Namespace) -> int:
    """Exit 0 cosigned, 1 refused (a finding), 2 when the server, key or state can't be read."""
    try:
        name, key = _key(Path(args.key_file), args.name)
    except (OSError, ValueError) as e:
        print(f"marketfold witness: {e}", file=sys.stderr)
        return 2
    from events import note

    if args.vkey:
        print(note.Verifier(name, note.COSIGNATURE, key.public_key()).text())
        return 0
    if not args.server or not args.state:
        print("marketfold witness: --server and --state are needed", file=sys.stderr)
        return 2
    while True:
        code = round_(args, name, key)
        if args.once:
            return code
        time.sleep(args.interval)


def round_(args: argparse.Namespace, name: str, key: Any) -> int:
    from events import keylog, note, witness

    state_dir = Path(args.state)
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        path = state_dir / STATE
        state = json.loads(path.read_text("utf-8")) if path.exists() else None
        trusted = server_reads.trusted_keys(
            argparse.Namespace(keys=args.keys, server=None if args.keys else args.server)
        )
        # the keys the log's rotations made active since, each endorsed by the one before
        trusted.update(keylog.learn([t for _, t in (state or {}).get("keys", [])], trusted))
        text, lines = note.split(_get(args.server, "/v1/transparency/checkpoint").decode())
        cp = note.parse_checkpoint(text)
        m = (state or {}).get("size", 0)
        hexes = server_reads.consistency_proof(args.server, m, cp.size) if 0 < m < cp.size else []
        proof = None if hexes is None else [bytes.fromhex(h) for h in hexes]
        leaves = monitor.leaves(args.server, cp.size, m) if cp.size > m else []
        signer = witness.log_signed(text, lines, trusted)
        if signer is None:  # a rotation among the new leaves (review checks they are the log's)
            trusted.update(keylog.learn(leaves, trusted))
            signer = witness.log_signed(text, lines, trusted)
        if signer is None:
            ids = ", ".join(witness.log_key_ids(cp.origin, trusted))
            why = f"the checkpoint of size {cp.size} carries no valid signature of the log's"
            found = {"finding": "unsigned", "detail": f"{why} keys ({ids} for {cp.origin})"}
            return _refuse([found])
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"marketfold witness: {e}", file=sys.stderr)
        return 2
    findings, after = witness.review(state, cp, proof, leaves, signer)
    if findings:
        return _refuse(findings)
    line = note.cosign(text, name, key, int(time.time()))
    cosigned = note.note(text, [*(x for x in lines if x.name == cp.origin), line])  # log's too
    _write(path, json.dumps({**after, "checkpoint": cosigned}))
    _write(state_dir / COSIGNED, cosigned)
    try:
        answer = _post(args.server, "/v1/transparency/cosignatures", {"note": cosigned})
    except ValueError as e:
        print(f"marketfold witness: cosigned size {cp.size}, not delivered: {e}", file=sys.stderr)
        return 2
    print(f"cosigned {cp.origin} at size {cp.size}; the server kept it: {answer}")
    return 0


def _refuse(findings: list[dict[str, str]]) -> int:
    print("refused to cosign:")
    for f in findings:
        print(f"  {f['finding'].upper()}: {f['detail']}")
    return 1


def _key(path: Path, name: str | None) -> tuple[str, Any]:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from events import note

    if path.exists():
        found, _, key = note.parse_signer(path.read_text("utf-8"))
        return found, key
    if not name:
        raise ValueError(f"{path} does not exist: give --name to make a new witness key")
    key = Ed25519PrivateKey.generate()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(note.signer_text(name, note.COSIGNATURE, key) + "\n")
    public = note.Verifier(name, note.COSIGNATURE, key.public_key()).text()
    print(f"made the witness key {path}; its verifier key: {public}", file=sys.stderr)
    return name, key


def _write(path: Path, text: str) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, "utf-8")
    os.replace(tmp, path)


def _url(server: str, path: str) -> str:
    return server.rstrip("/").removesuffix("/v1") + path


def _get(server: str, path: str) -> bytes:
    try:
        with urllib.request.urlopen(_url(server, path), timeout=10) as res:
            return res.read()
    except OSError as e:
        raise ValueError(f"cannot read {_url(server, path)}: {e}") from e


def _post(server: str, path: str, data: Any) -> Any:
    req = urllib.request.Request(
        _url(server, path),
        data=json.dumps(data).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            return json.loads(res.read())
    except urllib.error.HTTPError as e:
        raise ValueError(f"{e.code}: {e.read().decode(errors='replace')[:300]}") from e
    except OSError as e:
        raise ValueError(f"cannot reach {_url(server, path)}: {e}") from e
