"""The players' and tokens' contract (stores.players, stores.tokens), run on Redis and in
memory alike: handles claimed once and freed only by their holder, a player kept with its
first token, a record's handle replaced, tokens listed, used, replaced and revoked."""

import json

import pytest

from events import keys
from stores.memory.players import MemoryPlayers
from stores.memory.tokens import MemoryTokens
from stores.players import RedisPlayers
from stores.tokens import Issued, Listed, RedisTokens


# the Redis one is marked `process`, so only the in-memory one is in the unit tier
@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def stores(request):
    if request.param == "memory":
        tokens = MemoryTokens()
        return MemoryPlayers(tokens), tokens
    client = request.getfixturevalue("r")
    return RedisPlayers(client), RedisTokens(client)


def issued(player="p_1", token="t_1", digest="d1", name="Ann", created="2026-01-01T00:00:00Z"):
    record = json.dumps({"id": player, "name": name, "token_id": token, "used": 1})
    return Issued(digest, player, token, record, created)


def test_a_handle_is_claimed_once_and_read_by_its_folded_form(stores):
    players, _ = stores
    assert players.claim_handle("ann", "p_1")
    assert not players.claim_handle("ann", "p_2")
    assert not players.claim_handle("ann", "p_1")  # bound already, also to the claimant
    assert players.holder("ann") == "p_1"
    assert players.holder("bob") is None


def test_a_handle_is_freed_only_by_the_player_it_names(stores):
    players, _ = stores
    players.claim_handle("ann", "p_1")
    assert not players.free_handle("ann", "p_2")
    assert players.holder("ann") == "p_1"
    assert players.free_handle("ann", "p_1")
    assert players.holder("ann") is None
    assert not players.free_handle("ann", "p_1")
    assert players.claim_handle("ann", "p_2")


def test_a_new_player_is_kept_with_its_first_token(stores):
    players, tokens = stores
    assert players.record("p_1") is None and players.name("p_1") is None
    players.create("p_1", {"name": "Ann", "created": "2026-01-01T00:00:00Z"}, issued())
    assert players.record("p_1") == {
        "name": "Ann",
        "handle": None,
        "created": "2026-01-01T00:00:00Z",
    }
    assert players.name("p_1") == "Ann"
    assert json.loads(tokens.record("d1"))["token_id"] == "t_1"
    assert tokens.listed("p_1") == [Listed("t_1", "2026-01-01T00:00:00Z", None)]


def test_set_handle_returns_the_handle_it_replaced(stores):
    players, _ = stores
    players.create("p_1", {"name": "Ann", "created": "x", "handle": "Ann"}, issued())
    assert players.set_handle("p_1", "Annie") == "Ann"
    assert players.set_handle("p_1", "Anna") == "Annie"
    assert players.record("p_1")["handle"] == "Anna"


def test_games_finished_are_read_per_ruleset(stores, request):
    players, _ = stores
    assert players.played("p_1") == {}
    if isinstance(players, MemoryPlayers):  # the follow-up writes it follows
        played = keys.player_played("p_1")
        players.follow += [("HINCRBY", played, "goblin", 2), ("HINCRBY", played, "gobcon", 1)]
    else:  # written by the games' follow-up writes (service.inbox), not by this port
        request.getfixturevalue("r").hset(
            keys.player_played("p_1"), mapping={"goblin": 2, "gobcon": 1}
        )
    assert players.played("p_1") == {"goblin": 2, "gobcon": 1}


def test_tokens_are_counted_listed_and_revoked_one_at_a_time(stores):
    _, tokens = stores
    tokens.issue(issued(token="t_1", digest="d1"))
    tokens.issue(issued(token="t_2", digest="d2", created="2026-01-02T00:00:00Z"))
    assert tokens.count("p_1") == 2 and tokens.count("p_2") == 0
    assert sorted(tokens.digests("p_1")) == ["d1", "d2"]
    assert tokens.digest_of("p_1", "t_2") == "d2"
    assert tokens.digest_of("p_1", "t_9") is None and tokens.digest_of("p_2", "t_1") is None
    tokens.revoke("p_1", "t_1", "d1")
    assert tokens.record("d1") is None and tokens.record("d2") is not None
    assert [t.token_id for t in tokens.listed("p_1")] == ["t_2"]
    assert tokens.count("p_1") == 1


def test_a_record_is_replaced_only_while_its_token_is_kept(stores):
    _, tokens = stores
    tokens.issue(issued())
    assert tokens.replace("d1", '{"id": "p_1", "banned": 1}')
    assert tokens.record("d1") == b'{"id": "p_1", "banned": 1}'
    tokens.revoke("p_1", "t_1", "d1")
    assert not tokens.replace("d1", "{}")
    assert tokens.record("d1") is None


def test_a_use_is_recorded_with_its_time_but_never_brings_a_revoked_token_back(stores):
    _, tokens = stores
    tokens.issue(issued())
    tokens.record_use("d1", '{"used": 2}', "p_1", "t_1", "2026-01-03T00:00:00Z")
    assert tokens.record("d1") == b'{"used": 2}'
    assert tokens.listed("p_1") == [Listed("t_1", "2026-01-01T00:00:00Z", "2026-01-03T00:00:00Z")]
    tokens.revoke("p_1", "t_1", "d1")
    tokens.record_use("d1", '{"used": 3}', "p_1", "t_1", "2026-01-04T00:00:00Z")
    assert tokens.record("d1") is None
    assert tokens.listed("p_1") == []


def test_a_token_issued_before_ids_is_listed_at_its_first_recorded_use(stores, request):
    _, tokens = stores
    if isinstance(tokens, MemoryTokens):
        tokens.records["d0"] = b'{"id": "p_1", "name": "Ann"}'
    else:  # kept by an older release: a record and no list entry
        request.getfixturevalue("r").set(keys.token("d0"), '{"id": "p_1", "name": "Ann"}')
    tokens.record_use("d0", '{"token_id": "t_d0"}', "p_1", "t_d0", "at1", listed="c1")
    assert tokens.listed("p_1") == [Listed("t_d0", "c1", "at1")]
    tokens.record_use("d0", '{"token_id": "t_d0"}', "p_1", "t_d0", "at2", listed="c2")
    assert tokens.listed("p_1") == [Listed("t_d0", "c1", "at2")]  # listed once
    assert tokens.digest_of("p_1", "t_d0") == "d0"
