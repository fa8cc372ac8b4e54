"""What the server keeps of the computer players it seats (service.computer_turns,
service.computer_seeds): each one's player record (`mf:player:<id>`, a hash: name,
created, computer level) and the secret each seat committed to (`mf:{g:<id>}:
computer-secrets`, a hash: player id -> hex, beside the game's seed in its slot)."""

from __future__ import annotations

from typing import Protocol

import redis

from events import keys


class ComputerSeatsStore(Protocol):
    def add_player(self, player_id: str, name: str, created: str, level: str) -> None:
        """Keep a new computer player's record (a player like any, marked `computer`)."""

    def keep_secret(self, game_id: str, player_id: str, secret: bytes) -> None:
        """Keep the secret a computer seat of the game commits to."""

    def secret(self, game_id: str, player_id: str) -> bytes | None:
        """The secret kept for that seat (None: none)."""


class RedisComputerSeats:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def add_player(self, player_id: str, name: str, created: str, level: str) -> None:
        fields = {"name": name, "created": created, "computer": level}
        self.redis.hset(keys.player(player_id), mapping=fields)

    def keep_secret(self, game_id: str, player_id: str, secret: bytes) -> None:
        self.redis.hset(keys.computer_secrets(game_id), player_id, secret.hex())

    def secret(self, game_id: str, player_id: str) -> bytes | None:
        kept = self.redis.hget(keys.computer_secrets(game_id), player_id)
        return bytes.fromhex(kept.decode()) if kept is not None else None
