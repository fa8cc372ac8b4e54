"""Joining, invitations and settings on in-memory ports (service.league_commands beyond
test_leagues_unit): an invited player is invited once and may decline; joining closes
when the first round starts; a setting already in effect cannot change, one to come can."""

from __future__ import annotations

import pytest

from api.schemas import LeagueUpdate
from service import league_commands, league_queries
from service.errors import Conflict
from tests.service.league_setup import later, league, started

ZED = {"id": "zed", "name": "Zed"}


def refused(code: str, command, *args) -> None:
    with pytest.raises(Conflict) as err:
        command(*args)
    assert err.value.code == code


def test_an_invitation_is_given_once_and_may_be_declined(boot):
    lid = league(boot)
    assert "zed" in league_commands.invite(boot, lid, ZED, "op").invited
    refused("already_invited", league_commands.invite, boot, lid, ZED, "op")
    refused("already_member", league_commands.invite, boot, lid, {"id": "m0", "name": "M0"}, "op")
    assert "zed" not in league_commands.decline(boot, lid, "zed").invited
    refused("not_invited", league_commands.decline, boot, lid, "zed")
    refused("already_member", league_commands.join, boot, lid, {"id": "m0", "name": "M0"}, "m0")


def test_joining_closes_when_the_league_starts(boot, monkeypatch):
    lid = league(boot)
    later(monkeypatch, 120)  # the start passed; no round started yet
    refused("league_started", league_commands.join, boot, lid, ZED, "zed")
    assert "zed" not in league_queries.load(boot, lid).members


def test_a_setting_in_effect_cannot_change_and_one_to_come_can(boot, monkeypatch):
    lid = started(boot, monkeypatch)
    refused(
        "setting_in_effect",
        league_commands.change,
        boot,
        lid,
        LeagueUpdate().load({"start_at": "2031-01-01T00:00:00Z"}),
        "op",
    )
    lg = league_commands.change(boot, lid, LeagueUpdate().load({"rounds": 3}), "op")
    assert lg.settings["rounds"] == 3
