"""Computer players and their secrets in memory (stores.computer_seats's twin). A
computer player's record goes to `records`, the players' twin's (stores.memory.players),
as the Redis adapter writes it among the players' records."""

from __future__ import annotations


class MemoryComputerSeats:
    def __init__(self, records: dict[str, dict[str, str]] | None = None) -> None:
        self.players = records if records is not None else {}
        self._secrets: dict[tuple[str, str], bytes] = {}

    def add_player(self, player_id: str, name: str, created: str, level: str) -> None:
        self.players[player_id] = {"name": name, "created": created, "computer": level}

    def keep_secret(self, game_id: str, player_id: str, secret: bytes) -> None:
        self._secrets[(game_id, player_id)] = secret

    def secret(self, game_id: str, player_id: str) -> bytes | None:
        return self._secrets.get((game_id, player_id))
