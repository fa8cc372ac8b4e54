"""Players, tokens, roles and profiles on in-memory ports, no Redis (the unit tier):
registration and handles, tokens issued, used, listed and revoked, roles granted and
revoked (tests/support/memory_boot.py; the ports' contracts are in tests/stores/)."""

from __future__ import annotations

import time

import pytest

from service import game_commands, league_commands, lobby_commands, players, profiles, roles, tokens
from service.bootstrap import Bootstrap
from service.errors import Conflict, Forbidden, Invalid, NotFound
from tests.service import league_setup
from tests.service.tables_setup import table


def me(boot: Bootstrap, made: dict) -> dict:
    return players.me(boot, players.authenticate(boot, made["token"]))


def test_a_new_player_signs_in_with_the_token_it_was_given_once(boot):
    made = players.create_player(boot, "Ann", "Ann.B")
    assert made["token"].startswith(tokens.PREFIX) and made["handle"] == "Ann.B"
    who = players.authenticate(boot, made["token"])
    assert who["id"] == made["id"] and who["name"] == "Ann"
    shown = players.me(boot, who)
    assert (shown["handle"], shown["roles"], shown["token_id"]) == ("Ann.B", [], who["token_id"])
    assert shown["created"]
    assert players.authenticate(boot, made["token"] + "x") is None
    assert all(made["token"].encode() not in raw for raw in boot.tokens.records.values())


def test_a_taken_handle_in_any_case_is_refused_and_nothing_is_written(boot):
    players.create_player(boot, "Ann", "ann")
    with pytest.raises(Conflict) as taken:
        players.create_player(boot, "Other", "ANN")
    assert taken.value.code == "handle_taken"
    assert len(boot.players.records) == 1 and len(boot.tokens.records) == 1
    with pytest.raises(Invalid) as bad:
        players.create_player(boot, "Pat", "p_like_an_id")
    assert "handle" in bad.value.errors


def test_a_new_handle_frees_the_old_one_and_is_found_in_any_case(boot):
    ann = players.create_player(boot, "Ann")
    bob = players.create_player(boot, "Bob", "bob")
    assert me(boot, ann)["handle"] is None
    caller = players.authenticate(boot, ann["token"])
    assert players.set_handle(boot, caller, "Annie")["handle"] == "Annie"
    assert players.set_handle(boot, caller, "ANNIE")["handle"] == "ANNIE"  # hers already
    players.set_handle(boot, caller, "ann2")
    assert players.by_handle(boot, "annie") is None  # freed
    assert players.by_handle(boot, "ANN2") == ann["id"]
    with pytest.raises(Conflict):
        players.set_handle(boot, caller, "Bob")
    assert players.named(boot, "BOB") == {"id": bob["id"], "name": "Bob"}


def test_players_are_resolved_by_id_or_handle_and_an_unknown_one_is_named(boot):
    ann = players.create_player(boot, "Ann", "ann")
    bob = players.create_player(boot, "Bob")
    assert players.resolve(boot, ["ann", bob["id"]], "invite") == [
        {"id": ann["id"], "name": "Ann"},
        {"id": bob["id"], "name": "Bob"},
    ]
    with pytest.raises(Invalid) as unknown:
        players.resolve(boot, ["ann", "nobody"], "invite")
    assert list(unknown.value.errors) == ["invite[1]"]
    with pytest.raises(NotFound):
        players.player(boot, "p_nobody")
    with pytest.raises(NotFound):
        players.named(boot, "nobody")


def test_tokens_are_listed_oldest_first_limited_and_revoked_at_once(boot):
    made = players.create_player(boot, "Ann")
    caller = players.authenticate(boot, made["token"])
    second = tokens.create(boot, caller)
    listed = tokens.listed(boot, made["id"], caller["token_id"])
    assert {t["id"] for t in listed} == {caller["token_id"], second["id"]}
    assert listed == sorted(listed, key=lambda t: (t["created"], t["id"]))  # oldest first
    assert [t["id"] for t in listed if t["current"]] == [caller["token_id"]]
    assert all("token" not in t and "hash" not in t for t in listed)
    tokens.revoke(boot, made["id"], second["id"])
    assert players.authenticate(boot, second["token"]) is None
    with pytest.raises(NotFound) as gone:
        tokens.revoke(boot, made["id"], second["id"])
    assert gone.value.code == "token_not_found"
    for _ in range(tokens.MAX_TOKENS - 1):
        tokens.create(boot, caller)
    with pytest.raises(Conflict) as full:
        tokens.create(boot, caller)
    assert full.value.code == "too_many_tokens"


def test_a_use_is_recorded_at_most_once_a_minute(boot, monkeypatch):
    made = players.create_player(boot, "Ann")
    caller = players.authenticate(boot, made["token"])
    assert tokens.listed(boot, made["id"], None)[0]["last_used"] is None  # issued just now
    later = time.time() + tokens.USED_EVERY_S
    monkeypatch.setattr(tokens.time, "time", lambda: later)
    players.authenticate(boot, made["token"])
    assert tokens.listed(boot, made["id"], None)[0]["last_used"] is not None
    assert caller["token_id"] == tokens.listed(boot, made["id"], None)[0]["id"]


def test_roles_are_granted_once_revoked_and_held_by_config_operators(boot):
    boot.config["OPERATORS"] = "p_boss"
    ann = players.create_player(boot, "Ann")
    assert not roles.has(boot, ann["id"], roles.ORGANIZER)
    with pytest.raises(Forbidden) as missing:
        roles.require(boot, ann["id"], roles.ORGANIZER, "creating a league")
    assert missing.value.code == "not_organizer"
    assert roles.grant(boot, ann["id"], roles.ORGANIZER, "p_boss") == ["organizer"]
    assert roles.grant(boot, ann["id"], roles.ORGANIZER, "p_boss") == ["organizer"]
    assert roles.has(boot, "p_boss", roles.ORGANIZER)  # an operator may do what organizers do
    assert roles.holders(boot) == [
        {"player": "p_boss", "role": "operator", "source": "config", "name": None},
        {"player": ann["id"], "role": "organizer", "source": "store", "name": "Ann"},
    ]
    assert roles.revoke(boot, ann["id"], roles.ORGANIZER, "p_boss") == []
    assert [c["change"] for c in boot.roles.changes(10)] == ["revoked", "granted"]  # once each
    with pytest.raises(Conflict) as config:
        roles.revoke(boot, "p_boss", roles.OPERATOR, "p_boss")
    assert config.value.code == "role_from_config"
    with pytest.raises(Invalid):
        roles.grant(boot, ann["id"], "king", "p_boss")


def test_a_profile_of_no_player_is_not_found(boot):
    with pytest.raises(NotFound) as none:
        profiles.profile(boot, "p_nobody")
    assert none.value.code == "player_not_found"


def test_a_profile_counts_the_games_finished_per_ruleset_and_rates_league_members_only(boot):
    ann, bob, cy = (
        {"id": made["id"], "name": made["name"]}
        for made in (players.create_player(boot, n, n.lower()) for n in ("Ann", "Bob", "Cy"))
    )
    before = profiles.profile(boot, ann["id"])
    assert (before["name"], before["handle"], before["games_played"]) == ("Ann", "ann", {})
    for quitters in ((bob, cy), (ann, cy)):
        rec, _ = table(boot, creator=ann)
        for p in (bob, cy):
            game_commands.join(boot, rec.game_id, p)
        for p in quitters:
            game_commands.resign(boot, rec.game_id, p["id"])
    cancelled, _ = table(boot, creator=ann)
    lobby_commands.cancel(boot, cancelled.game_id, ann["id"])  # never played: not counted
    assert profiles.profile(boot, ann["id"])["games_played"] == {"goblin-market": 2}
    member = league_setup.league(boot, members=0)
    league_commands.join(boot, member, ann, ann["id"])
    invited = league_setup.league(boot, members=0)
    league_commands.invite(boot, invited, ann, league_setup.OP["id"])
    (rating,) = profiles.profile(boot, ann["id"])["leagues"]  # invited: no rating yet
    assert rating["league"] == member and rating["ruleset"] == "goblin-market"
    assert (rating["mu"], rating["sigma"], rating["ordinal"]) == (25.0, 8.3333, 0.0)  # initial
