"""Games for the replay viewer tests, and the check that nothing hidden reaches the page."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from tests.api.helpers import bearer, by_seat, new_game, new_players, play_to_end, random_action

SHOTS = Path("/tmp/replay-shots")
ASSET = re.compile(r'(?:href|src)="([^"]+)"')
OTHER_HOST = re.compile(r"https?://|(?<![:\w])//[A-Za-z0-9.-]+\.[a-z]{2,}")
PAGE_TYPES = {".css": "text/css", ".js": "text/javascript"}


def finished_game(client, app, seed: int = 5) -> tuple[str, list[dict]]:
    """Play a 3-player Goblin Market game to its end with random legal actions."""
    players = new_players(client, 3)
    gid = new_game(client, players)
    play_to_end(client, app, gid, by_seat(client, gid, players), random.Random(seed))
    return gid, players


def game_in_play(client, actions: int = 6) -> tuple[str, list[dict]]:
    """Start a 3-player Goblin Market game and play a few actions; the decks stay secret."""
    players = new_players(client, 3)
    gid = new_game(client, players)
    seats, rnd = by_seat(client, gid, players), random.Random(2)
    for _ in range(actions):
        seat = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
        legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[seat])).get_json()
        action = random_action(rnd, legal["actions"])
        res = client.post(f"/v1/games/{gid}/actions", json=action, headers=bearer(seats[seat]))
        assert res.status_code == 201, res.get_json()
    return gid, players


def assert_nothing_hidden(raw: list[dict], bodies: list[str]) -> None:
    """Check no body shows a hidden event's data or salt, a seat's command, or an undrawn card."""
    secrets = [e for e in raw if e["visible_to"] != "all"]
    assert secrets, "the game should have hidden events (the shuffled decks)"
    deck = next(e["data"] for e in secrets if "auction_deck" in e["data"])
    for body in bodies:
        assert '"salt"' not in body
        assert json.dumps(deck["auction_deck"], separators=(",", ":")) not in body
        assert f'"{deck["auction_deck"][-1]}"' not in body  # deep in the deck: not drawn yet
        data = json.loads(body)
        for ev in data.get("events", []):
            if ev["visible_to"] != "all":
                assert ev.get("redacted") is True and "auction_deck" not in ev["data"]
            if isinstance(ev["actor"], int):
                assert "command" not in ev  # a seat's command is its own until the end


# --- (a) the page and its assets ------------------------------------------------------------
