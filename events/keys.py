"""Every Redis key the project uses, built in one place from one prefix.

Keys of one game share the hash tag `{g:<id>}` so one script touches one cluster slot.
"""

from __future__ import annotations

PREFIX = "mf"


def game_events(game_id: str) -> str:
    return f"{PREFIX}:{{g:{game_id}}}:events"


def game_snapshot(game_id: str) -> str:
    return f"{PREFIX}:{{g:{game_id}}}:snapshot"


def game_idem(game_id: str) -> str:
    return f"{PREFIX}:{{g:{game_id}}}:idem"


def game_seed(game_id: str) -> str:
    return f"{PREFIX}:{{g:{game_id}}}:seed"


def games() -> str:
    return f"{PREFIX}:games"


def player(player_id: str) -> str:
    return f"{PREFIX}:player:{player_id}"


def token(token_hash: str) -> str:
    return f"{PREFIX}:token:{token_hash}"


def deadlines() -> str:
    return f"{PREFIX}:deadlines"
