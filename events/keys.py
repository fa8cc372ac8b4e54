"""Every Redis key the project uses, built in one place from one prefix.

Keys of one game share the hash tag `{g:<id>}` (a league's `{l:<id>}`) so one script
touches one cluster slot.
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


def league_events(league_id: str) -> str:
    return f"{PREFIX}:{{l:{league_id}}}:events"


def league_idem(league_id: str) -> str:
    return f"{PREFIX}:{{l:{league_id}}}:idem"


def league_snapshot(league_id: str) -> str:
    return f"{PREFIX}:{{l:{league_id}}}:snapshot"


def leagues() -> str:
    return f"{PREFIX}:leagues"


def player_games(player_id: str) -> str:
    """A player's games not yet finished (sorted by when they took the seat)."""
    return f"{PREFIX}:player:{player_id}:games"


def player_feed(player_id: str) -> str:
    """A player's notifications: your turn, game started, game finished."""
    return f"{PREFIX}:player:{player_id}:feed"


def rate_limits() -> str:
    """The prefix of the rate limiter's counters (Flask-Limiter's `key_prefix`)."""
    return f"{PREFIX}:rate"


def open_streams(caller: str) -> str:
    """The event streams a caller holds open now (`player:<id>` or `ip:<address>`)."""
    return f"{PREFIX}:streams:{caller}"


def heartbeat() -> str:
    """When a worker last swept (a Unix time): a gap longer than OUTAGE_AFTER_S is an outage."""
    return f"{PREFIX}:workers:heartbeat"


def outages() -> str:
    """The outages seen (sorted set, member `<start>:<end>`, scored by the end)."""
    return f"{PREFIX}:outages"
