"""`marketfold keys`: the service's signing keys (service/keyring.py).

    marketfold keys list              every key's id, the active one marked
    marketfold keys rotate            a new active key; the old ones stay published
    marketfold keys add FILE.pem      an operator's Ed25519 private key, made active
    marketfold keys jwks              the public keys as GET /v1/keys publishes them

The directory is `--dir`, else SIGNING_KEY_DIR, else `./.marketfold/keys` (where
`marketfold serve` keeps them with its default data directory). Every process of the
service reads the active key on each export, so a rotation needs no restart: the next
signature logs the new key's `key` leaf (endorsed by the retired key) in the public log
of games, and from then on the retired key is valid only for what it signed before
(service/key_history.py; docs/operations.md, "Rotating the signing key").
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    keys = sub.add_parser("keys", help="list, rotate or add the service's signing keys")
    keys.add_argument("action", choices=["list", "rotate", "add", "jwks"])
    keys.add_argument("file", nargs="?", help="with add: an Ed25519 private key (PEM)")
    keys.add_argument("--dir", help="the key directory (default: SIGNING_KEY_DIR)")


def run(args: argparse.Namespace) -> int:
    from service import config
    from service.keyring import Keyring

    ring = Keyring(args.dir or config.load()["SIGNING_KEY_DIR"])
    if args.action == "rotate":
        print(ring.rotate())
    elif args.action == "add":
        if not args.file:
            print("marketfold keys add: name a PEM file", file=sys.stderr)
            return 2
        try:
            print(ring.add(Path(args.file).read_bytes()))
        except (OSError, ValueError, TypeError) as e:
            print(f"marketfold keys add: {e}", file=sys.stderr)
            return 2
    elif args.action == "jwks":
        print(json.dumps(ring.jwks(), indent=2))
    else:
        for key in ring.jwks()["keys"]:
            print(f"{key['kid']}  {key['status']}")
    return 0
