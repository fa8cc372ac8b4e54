"""The leagues' use cases on in-memory ports (the unit tier): the list of leagues and its
cursors, a player's own leagues, a member's seat commitment, and a repeated league command
answered from its idempotency key (stores.memory.leagues beside the in-memory recorder)."""

from __future__ import annotations

import hashlib

import pytest

from api.schemas import LeagueCreate
from games.base import Event
from service import league_commands, league_queries, league_seeds, metrics
from service.bootstrap import Bootstrap
from service.errors import Invalid

BODY = {
    "name": "Spring",
    "ruleset": "goblin-market",
    "table_size": {"min": 3, "max": 4},
    "rounds": 2,
    "start_at": "2030-01-01T00:00:00Z",
    "cadence_s": 3600,
    "decision_timeout_s": 60,
}


def create(boot: Bootstrap, organizer: str = "op", **body) -> str:
    spec = LeagueCreate().load({**BODY, **body})
    return league_commands.create(boot, {"id": organizer, "name": organizer}, spec).league_id


def test_leagues_are_listed_newest_first_a_page_at_a_time(boot):
    made = [create(boot, name=f"L{i}") for i in range(5)]
    page, cursor = league_queries.listing(boot, None, None, None, 2)
    assert [lg.league_id for lg in page] == made[::-1][:2]
    page, cursor = league_queries.listing(boot, None, None, cursor, 2)
    assert [lg.league_id for lg in page] == made[::-1][2:4]
    page, cursor = league_queries.listing(boot, None, None, cursor, 2)
    assert [lg.league_id for lg in page] == made[:1] and cursor is None


def test_the_list_filters_by_ruleset_and_refuses_a_cursor_it_never_gave(boot):
    gm = create(boot)
    create(boot, ruleset="gobcon", table_size={"min": 2, "max": 2})
    page, cursor = league_queries.listing(boot, None, "goblin-market", None, 10)
    assert [lg.league_id for lg in page] == [gm] and cursor is None
    assert league_queries.listing(boot, "running", None, None, 10) == ([], None)
    with pytest.raises(Invalid) as err:
        league_queries.listing(boot, None, None, "l_unknown", 10)
    assert err.value.code == "invalid_query" and "cursor" in err.value.errors


def test_a_player_sees_the_leagues_it_organizes_or_joined(boot):
    mine = create(boot, organizer="ana")
    joined = create(boot, organizer="bo")
    create(boot, organizer="cy")
    league_commands.join(boot, joined, {"id": "ana", "name": "Ana"}, "ana")
    assert [lg.league_id for lg in league_queries.of_player(boot, "ana")] == [joined, mine]
    assert metrics.exposition(boot).count(b"marketfold_leagues 3.0") == 1


def test_a_seat_commitment_is_held_and_advances_only_on_its_opening(boot):
    lid = create(boot)
    secret = b"r" * 32
    commitment = hashlib.sha256(secret).hexdigest()
    assert league_seeds.held(boot, lid, "ana") is None
    league_seeds.register(boot, lid, "ana", commitment)
    league_seeds.advance(boot, lid, "ana", (b"x" * 32).hex())  # not its opening
    assert league_seeds.held(boot, lid, "ana") == commitment
    league_seeds.advance(boot, lid, "ana", secret.hex())
    assert league_seeds.held(boot, lid, "ana") == secret.hex()
    assert league_seeds.held(boot, lid, "bo") is None


def test_a_repeated_league_command_appends_once_and_another_body_is_refused(boot):
    lid = create(boot)
    note = lambda lg, rng: [Event("league.Invited", {"player": "dee", "name": "Dee"})]  # noqa: E731
    first = league_commands.run(boot, lid, note, "invite", idem="op:k1", body={"p": "dee"})
    again = league_commands.run(boot, lid, note, "invite", idem="op:k1", body={"p": "dee"})
    assert first.created and not again.created
    assert again.record.version == first.record.version == 2
    assert league_queries.load(boot, lid).version == 2
    assert "dee" in league_queries.load(boot, lid).invited
    with pytest.raises(Invalid) as err:
        league_commands.run(boot, lid, note, "invite", idem="op:k1", body={"p": "eve"})
    assert err.value.code == "idempotency_key_reused"
