"""An organizer's remedies and a league's organizers on in-memory ports
(service.league_remedies, league_organizers): a substitute takes a member's seat in
their running game, a withdrawn member is reinstated, one table's clock stops and starts;
co-organizers come and go (the last stays); each refusal with its code."""

from __future__ import annotations

import pytest

from service import league_lifecycle, league_organizers, league_remedies
from service.errors import Conflict, NotFound
from service.roles import MissingRole
from tests.service.league_setup import game_of, started


def test_a_substitute_takes_the_members_seat_in_their_running_game(boot, monkeypatch):
    lid = started(boot, monkeypatch)
    gid = game_of(boot, lid)
    lg = league_remedies.substitute(boot, lid, "m1", {"id": "s1", "name": "S1"}, "op")
    assert lg.substitutes == {"s1": "m1"} and "m1" in lg.withdrawn
    assert "s1" in [s.player for s in boot.store.load(gid).record.seats]
    with pytest.raises(Conflict) as err:
        league_remedies.substitute(boot, lid, "m2", {"id": "m0", "name": "M0"}, "op")
    assert err.value.code == "already_member"


def test_a_withdrawn_member_is_reinstated_once(boot, monkeypatch):
    lid = started(boot, monkeypatch)
    with pytest.raises(Conflict) as err:
        league_remedies.reinstate(boot, lid, "m1", "op")
    assert err.value.code == "not_withdrawn"
    league_lifecycle.withdraw(boot, lid, "m1", "organizer", "op")
    assert "m1" not in league_remedies.reinstate(boot, lid, "m1", "op").withdrawn


def test_one_tables_clock_stops_and_starts_again(boot, monkeypatch):
    lid = started(boot, monkeypatch)
    gid = game_of(boot, lid)
    lg = league_remedies.pause_table(boot, lid, 1, 1, "op")
    assert gid in lg.paused_tables and boot.store.load(gid).record.paused_at is not None
    with pytest.raises(Conflict) as err:
        league_remedies.pause_table(boot, lid, 1, 1, "op")
    assert err.value.code == "table_paused"
    league_remedies.resume_table(boot, lid, 1, 1, "op")
    assert boot.store.load(gid).record.paused_at is None
    with pytest.raises(Conflict) as err:
        league_remedies.resume_table(boot, lid, 1, 1, "op")
    assert err.value.code == "table_not_paused"
    for number, table, code in ((2, 1, "round_not_found"), (1, 9, "table_not_found")):
        with pytest.raises(NotFound) as err:
            league_remedies.pause_table(boot, lid, number, table, "op")
        assert err.value.code == code


def test_co_organizers_run_the_league_and_the_last_one_stays(boot, monkeypatch):
    lid = started(boot, monkeypatch)
    lg = league_organizers.add(boot, lid, {"id": "co", "name": "Co"}, "op")
    assert lg.organizers == ["op", "co"] and league_organizers.may_run(boot, lg, "co")
    with pytest.raises(Conflict) as err:
        league_organizers.add(boot, lid, {"id": "co", "name": "Co"}, "op")
    assert err.value.code == "already_organizer"
    lg = league_organizers.remove(boot, lid, "op", "co")
    assert lg.organizers == ["co"]
    with pytest.raises(MissingRole):
        league_organizers.require(boot, lg, "op", "pause the league")
    with pytest.raises(NotFound) as err:
        league_organizers.remove(boot, lid, "op", "co")
    assert err.value.code == "organizer_not_found"
    with pytest.raises(Conflict) as err:
        league_organizers.remove(boot, lid, "co", "co")
    assert err.value.code == "last_organizer"
