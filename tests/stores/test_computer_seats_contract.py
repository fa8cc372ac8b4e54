"""The computer seats' store (stores.computer_seats), on Redis and in memory alike."""

import pytest

from events import keys
from stores.computer_seats import RedisComputerSeats
from stores.memory.computer_seats import MemoryComputerSeats


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def seats(request):
    if request.param == "memory":
        return MemoryComputerSeats()
    return RedisComputerSeats(request.getfixturevalue("r"))


def test_a_seats_secret_is_kept_per_game_and_player(seats):
    secret = bytes(range(32))
    seats.keep_secret("g1", "p1", secret)
    assert seats.secret("g1", "p1") == secret
    assert seats.secret("g1", "p2") is None and seats.secret("g2", "p1") is None


def test_a_computer_players_record_is_a_player_marked_computer(request, seats):
    seats.add_player("p1", "Ada", "2026-01-01T00:00:00Z", "easy")
    record = {"name": "Ada", "created": "2026-01-01T00:00:00Z", "computer": "easy"}
    if isinstance(seats, MemoryComputerSeats):
        assert seats.players["p1"] == record
    else:
        kept = request.getfixturevalue("r").hgetall(keys.player("p1"))
        assert {k.decode(): v.decode() for k, v in kept.items()} == record
