"""What is kept about tables before they start, beside the games' logs (service.tables,
service.lobby_commands, service.waiting): an unlisted game's secret, a finished game's
rematch, the waiting games holding a seat for a player, and the games a player created.

Keys (events.keys): `mf:{g:<id>}:secret`, `mf:{g:<id>}:rematch` (strings, each written
once: SET NX), `mf:player:<id>:invitations` (sorted by when the seat was reserved;
written by service.inbox with the append, pruned here), `mf:player:<id>:created`
(sorted by creation), and, read only, `mf:player:<id>:games` (the unfinished games a
player sits in, kept by service.inbox).
"""

from __future__ import annotations

from typing import Protocol

import redis

from events import keys


class TablesStore(Protocol):
    def keep_secret(self, game_id: str, secret: str) -> str:
        """Keep an unlisted game's secret unless one is kept already; return the kept one."""

    def secret(self, game_id: str) -> str | None:
        """The game's secret (None: it has none)."""

    def link_rematch(self, game_id: str, rematch_id: str) -> bool:
        """Name the finished game's rematch; False if another was named first."""

    def rematch(self, game_id: str) -> str | None:
        """The finished game's rematch (None: nobody asked for one yet)."""

    def invitations(self, player_id: str, most: int) -> list[str]:
        """Up to `most` of the games holding a seat for the player, newest first."""

    def drop_invitation(self, player_id: str, game_id: str) -> None:
        """Forget a game that holds no seat for the player any more."""

    def note_created(self, player_id: str, game_id: str, at: float) -> None:
        """Remember a game the player created (`at`: its creation, Unix time)."""

    def own_games(self, player_id: str) -> tuple[list[str], list[str]]:
        """The games the player created (kept by `note_created`, oldest first) and the
        unfinished games it sits in, in one round trip."""

    def forget_created(self, player_id: str, game_ids: list[str]) -> None:
        """Forget games the player created that stopped waiting."""


class RedisTables:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def keep_secret(self, game_id: str, secret: str) -> str:
        self.redis.set(keys.game_secret(game_id), secret, nx=True)
        return self.redis.get(keys.game_secret(game_id)).decode()

    def secret(self, game_id: str) -> str | None:
        found = self.redis.get(keys.game_secret(game_id))
        return found.decode() if found else None

    def link_rematch(self, game_id: str, rematch_id: str) -> bool:
        return bool(self.redis.set(keys.game_rematch(game_id), rematch_id, nx=True))

    def rematch(self, game_id: str) -> str | None:
        found = self.redis.get(keys.game_rematch(game_id))
        return found.decode() if found else None

    def invitations(self, player_id: str, most: int) -> list[str]:
        held = self.redis.zrevrange(keys.player_invitations(player_id), 0, most - 1)
        return [g.decode() for g in held]

    def drop_invitation(self, player_id: str, game_id: str) -> None:
        self.redis.zrem(keys.player_invitations(player_id), game_id)

    def note_created(self, player_id: str, game_id: str, at: float) -> None:
        self.redis.zadd(keys.player_created(player_id), {game_id: at})

    def own_games(self, player_id: str) -> tuple[list[str], list[str]]:
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrange(keys.player_created(player_id), 0, -1)
        pipe.zrange(keys.player_games(player_id), 0, -1)
        created, seated = pipe.execute()
        return [g.decode() for g in created], [g.decode() for g in seated]

    def forget_created(self, player_id: str, game_ids: list[str]) -> None:
        if game_ids:
            self.redis.zrem(keys.player_created(player_id), *game_ids)
