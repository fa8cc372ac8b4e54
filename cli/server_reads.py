"""What the command-line auditors (`marketfold verify`, `monitor`, `witness`) read from a
server over plain HTTP (no client library): JSON or text at a path, the signing keys they
trust, and a consistency proof between two sizes of the public log. An unreadable answer
is a ValueError naming the URL."""

from __future__ import annotations

import argparse
import json
import urllib.request
from pathlib import Path
from typing import Any


def _url(server: str, path: str) -> str:
    return server.rstrip("/").removesuffix("/v1") + path


def get_json(server: str, path: str) -> Any:
    url = _url(server, path)
    try:
        with urllib.request.urlopen(url, timeout=10) as res:
            return json.loads(res.read())
    except OSError as e:
        raise ValueError(f"cannot read {url}: {e}") from e


def get_text(server: str, path: str) -> str:
    url = _url(server, path)
    try:
        with urllib.request.urlopen(url, timeout=10) as res:
            return res.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read {url}: {e}") from e


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


def consistency_proof(server: str, first: int, second: int) -> list[str] | None:
    """The server's consistency proof between two sizes, or None if it gives none."""
    try:
        found = get_json(server, f"/v1/transparency/consistency?first={first}&second={second}")
    except ValueError:
        return None
    return found.get("path") if isinstance(found, dict) else None
