"""The roles' contract (stores.roles), run on Redis and in memory alike: a role granted
and taken back once, its holders by id, and the log of changes, newest first."""

import pytest

from stores.memory.roles import MemoryRoles
from stores.roles import RedisRoles


# the Redis one is marked `process`, so only the in-memory one is in the unit tier
@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def roles(request):
    if request.param == "memory":
        return MemoryRoles()
    return RedisRoles(request.getfixturevalue("r"))


def test_a_role_is_granted_once_and_taken_back_once(roles):
    assert not roles.holds("organizer", "p_1")
    assert roles.add("organizer", "p_1")
    assert not roles.add("organizer", "p_1")
    assert roles.holds("organizer", "p_1")
    assert not roles.holds("operator", "p_1")  # one role says nothing of another
    assert roles.remove("organizer", "p_1")
    assert not roles.remove("organizer", "p_1")
    assert not roles.holds("organizer", "p_1")


def test_holders_are_listed_by_id(roles):
    for player in ("p_c", "p_a", "p_b"):
        roles.add("organizer", player)
    roles.add("operator", "p_z")
    assert roles.holders("organizer") == ["p_a", "p_b", "p_c"]
    assert roles.holders("operator") == ["p_z"]
    roles.remove("organizer", "p_b")
    assert roles.holders("organizer") == ["p_a", "p_c"]


def test_the_log_reads_newest_first(roles):
    assert roles.changes(10) == []
    for i, change in enumerate(("granted", "revoked", "granted")):
        roles.log({"player": "p_1", "role": "organizer", "change": change, "by": "p_op", "at": i})
    assert [c["at"] for c in roles.changes(10)] == [2, 1, 0]
    assert roles.changes(2)[1] == {
        "player": "p_1",
        "role": "organizer",
        "change": "revoked",
        "by": "p_op",
        "at": 1,
    }
