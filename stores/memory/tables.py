"""What is kept about tables before they start, in memory (stores.tables.RedisTables's
twin); the players' indexes are read as the appends wrote them (`players`)."""

from __future__ import annotations

from events import keys
from stores.memory.sorted_sets import SortedSets


class MemoryTables:
    def __init__(self, players: SortedSets | None = None) -> None:
        self.players = players or SortedSets()
        self._secrets: dict[str, str] = {}
        self._rematches: dict[str, str] = {}

    def keep_secret(self, game_id: str, secret: str) -> str:
        return self._secrets.setdefault(game_id, secret)

    def secret(self, game_id: str) -> str | None:
        return self._secrets.get(game_id)

    def link_rematch(self, game_id: str, rematch_id: str) -> bool:
        if game_id in self._rematches:
            return False
        self._rematches[game_id] = rematch_id
        return True

    def rematch(self, game_id: str) -> str | None:
        return self._rematches.get(game_id)

    def invitations(self, player_id: str, most: int) -> list[str]:
        return [g for g, _ in self.players.descending(keys.player_invitations(player_id))][:most]

    def drop_invitation(self, player_id: str, game_id: str) -> None:
        self.players.remove(keys.player_invitations(player_id), game_id)

    def note_created(self, player_id: str, game_id: str, at: float) -> None:
        self.players.add(keys.player_created(player_id), game_id, at)

    def own_games(self, player_id: str) -> tuple[list[str], list[str]]:
        created = self.players.ascending(keys.player_created(player_id))
        seated = self.players.ascending(keys.player_games(player_id))
        return [g for g, _ in created], [g for g, _ in seated]

    def forget_created(self, player_id: str, game_ids: list[str]) -> None:
        self.players.remove(keys.player_created(player_id), *game_ids)
