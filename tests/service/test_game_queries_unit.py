"""What players and spectators read of a game (service.game_queries), on in-memory ports
(the unit tier): the shuffled decks stay hidden from every seat and spectator until the
game ends, a player's own command and key are shown to that player only, only the seat
that owes a decision is offered actions, and a game in play is exported to its players
only."""

from __future__ import annotations

import random

import pytest

from events.redact import HIDDEN_CAUSE
from events.seating import NotSeated
from service import game_commands, game_queries
from service.errors import Invalid, Unauthorized
from tests.service.test_use_cases_unit import seated, turn

PLAYERS = ["ann", "bob", "cy"]


def shuffled(envelopes: list[dict]) -> dict:
    return next(e for e in envelopes if e["type"].endswith("DecksShuffled"))


def as_player(player_id: str) -> dict[str, str]:
    return {"id": player_id, "name": player_id.upper()}


def test_the_decks_order_stays_hidden_from_seats_and_spectators_until_the_game_ends(boot):
    gid = seated(boot, PLAYERS).game_id
    for viewer in (None, *map(as_player, PLAYERS)):
        _, seen = game_queries.events(boot, gid, 0, viewer)
        assert "auction_deck" not in shuffled(seen).get("data", {})
    for quitter in ("bob", "cy"):  # two resign: the game ends, and everything opens
        game_commands.resign(boot, gid, quitter)
    rec, seen = game_queries.events(boot, gid, 0, None)
    assert rec.status == "finished"
    assert len(shuffled(seen)["data"]["auction_deck"]) > 0


def test_a_players_command_and_key_are_shown_to_that_player_only(boot):
    rec = seated(boot, PLAYERS)
    player, action = turn(rec, random.Random(3))
    done = game_commands.act(boot, rec.game_id, player, action, "my-key", None)
    mine = game_queries.events(boot, rec.game_id, rec.version, as_player(player))[1]
    other = next(p for p in PLAYERS if p != player)
    theirs = game_queries.events(boot, rec.game_id, rec.version, as_player(other))[1]
    spectator = game_queries.events(boot, rec.game_id, rec.version, None)[1]
    assert mine[0]["command"]["action"] == action and mine[0]["cause"] != HIDDEN_CAUSE
    for seen in (theirs, spectator):
        assert "command" not in seen[0] and seen[0]["cause"] == HIDDEN_CAUSE
    assert [e["seq"] for e in mine] == list(range(rec.version + 1, done.version + 1))


def test_only_the_seat_that_owes_a_decision_is_offered_actions(boot):
    rec = seated(boot, PLAYERS)
    owing = rec.seats[rec.owed()[0].seat].player
    offered = {p: game_queries.legal(boot, rec.game_id, p)[1] for p in PLAYERS}
    assert offered[owing] and not any(offered[p] for p in PLAYERS if p != owing)
    assert game_queries.standing(rec, owing)["actions"]
    assert game_queries.standing(rec, "stranger") == {"version": rec.version, "actions": []}
    with pytest.raises(NotSeated):
        game_queries.legal(boot, rec.game_id, "stranger")


def test_a_game_in_play_is_exported_to_its_players_only(boot):
    gid = seated(boot, PLAYERS).game_id
    with pytest.raises(Unauthorized):
        game_queries.export(boot, gid, None)
    with pytest.raises(NotSeated):
        game_queries.export(boot, gid, as_player("stranger"))


def test_the_game_as_it_was_after_an_event_and_a_point_past_its_end_refused(boot):
    rec = seated(boot, PLAYERS)
    now, then = game_queries.state_at(boot, rec.game_id, 1)
    assert now.version == rec.version and then.version == 1 and then.status == "waiting"
    with pytest.raises(Invalid) as refused:
        game_queries.state_at(boot, rec.game_id, rec.version + 1)
    assert refused.value.code == "invalid_query" and "at" in refused.value.errors
