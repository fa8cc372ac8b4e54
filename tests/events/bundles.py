"""Real exported bundles of every ruleset, played once per test process and reused
(verification is offline, so a bundle outlives the Redis flush between tests)."""

from __future__ import annotations

import copy
import random

import games
from events import codec
from tests.api.helpers import by_seat, new_game, new_players, play_to_end

_PLAYED: dict[str, dict] = {}


def real_bundle(client, app, ruleset: str = "goblin-market") -> dict:
    """Return a copy of a finished game's export (the ruleset's fewest players)."""
    if ruleset not in _PLAYED:
        people = new_players(client, games.get(ruleset).min_players)
        gid = new_game(client, people, ruleset=ruleset)
        play_to_end(client, app, gid, by_seat(client, gid, people), random.Random(7))
        res = client.get(f"/v1/games/{gid}/export")
        assert res.status_code == 200
        _PLAYED[ruleset] = res.get_json()
    return copy.deepcopy(_PLAYED[ruleset])


def reseal(bundle: dict, start: int) -> dict:
    """Recompute the hash chain from event `start` on, as a careful forger would."""
    events = bundle["events"]
    prev = events[start - 2]["hash"] if start > 1 else codec.GENESIS
    codec.seal(events[start - 1 :], prev)
    return bundle
