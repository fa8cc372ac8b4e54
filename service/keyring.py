"""The service's signing keys (Ed25519), kept as files in one directory.

    <dir>/<kid>.pem   a private key, PKCS#8 PEM, readable by its owner only
    <dir>/active      the id of the key new signatures use

The first process that needs a key and finds none makes one (under a file lock, so the
API's processes and workers starting together agree on one). `rotate` makes a new key
active and keeps the old ones: bundles they signed still verify, and `GET /v1/keys`
publishes every key with which one is active (and, from the log, each key's window:
service/key_history.py). An operator brings a key of their own with
`marketfold keys add FILE.pem`. Every process of one service must share the directory
(`SIGNING_KEY_DIR`; `marketfold serve` puts it in its data directory).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
)

from events import signature

ACTIVE = "active"


class Keyring:
    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def active(self) -> Ed25519PrivateKey:
        """Return the key new signatures use, making the first one if there is none."""
        name = self.path / ACTIVE
        if not name.exists():
            with self._locked():
                if not name.exists():
                    self._activate(self._store(Ed25519PrivateKey.generate()))
        return self._load(name.read_text().strip())

    def private(self, kid: str) -> Ed25519PrivateKey | None:
        """A key of the ring by id (None if it is not kept): a retired key endorses the
        key that replaces it (events.keylog.leaf)."""
        return self._load(kid) if (self.path / f"{kid}.pem").exists() else None

    def public(self) -> dict[str, Ed25519PublicKey]:
        """Return every key's public half, by id (the active one and the retired)."""
        if not self.path.is_dir():
            return {}
        keys = (self._load(p.stem) for p in sorted(self.path.glob("*.pem")))
        return {signature.key_id(k.public_key()): k.public_key() for k in keys}

    def jwks(self) -> dict[str, Any]:
        """Return the published keys as a JWK Set, marking the active one."""
        active = signature.key_id(self.active().public_key())
        return {
            "keys": [
                signature.jwk(key, status="active" if kid == active else "retired")
                for kid, key in self.public().items()
            ]
        }

    def rotate(self) -> str:
        """Make a new key active; return its id. The old keys stay published."""
        with self._locked():
            return self._activate(self._store(Ed25519PrivateKey.generate()))

    def add(self, pem: bytes) -> str:
        """Keep an operator's Ed25519 private key (PEM) and make it active; return its id."""
        key = load_pem_private_key(pem, password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError("not an Ed25519 private key")
        with self._locked():
            return self._activate(self._store(key))

    def _store(self, key: Ed25519PrivateKey) -> str:
        kid = signature.key_id(key.public_key())
        pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
        target = self.path / f"{kid}.pem"
        if not target.exists():
            write_private(target, pem)
        return kid

    def _activate(self, kid: str) -> str:
        write_private(self.path / ACTIVE, kid.encode())
        return kid

    def _load(self, kid: str) -> Ed25519PrivateKey:
        key = load_pem_private_key((self.path / f"{kid}.pem").read_bytes(), password=None)
        assert isinstance(key, Ed25519PrivateKey), f"{kid}.pem is not an Ed25519 key"
        return key

    def _locked(self):
        return locked(self.path)


def of(config: dict[str, Any]) -> Keyring:
    """Return the service's keyring (SIGNING_KEY_DIR): what signs exports and tree heads."""
    return Keyring(config["SIGNING_KEY_DIR"])


@contextmanager
def locked(directory: Path) -> Iterator[None]:
    """Hold a key directory's lock (made owner-only if new) for the block: one process
    of the service makes a missing key, the others then read it."""
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    with open(directory / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def write_private(path: Path, data: bytes) -> None:
    """Write a file whole or not at all (a temporary file renamed), owner-only."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
