"""The link key port in memory (stores/link_key.py): made on first use, then the same."""

from __future__ import annotations

import secrets


class MemoryLinkKey:
    def __init__(self) -> None:
        self.known: bytes | None = None

    def key(self) -> bytes:
        if self.known is None:
            self.known = secrets.token_hex(32).encode()
        return self.known
