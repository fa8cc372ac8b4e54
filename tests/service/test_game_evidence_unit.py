"""A game's evidence for a dispute (service.game_evidence) on in-memory ports (the unit
tier): the refused attempts and the outages while it ran, to its players and, for a
league's game, its league's organizers; a finished game's outages end with its last
event."""

from __future__ import annotations

import time

import pytest

from games.base import RuleViolation
from service import attempts, game_commands, game_evidence, outages
from service.errors import Forbidden, NotFound
from tests.service import league_setup
from tests.service.tables_setup import ANN, BOB, CY, started


def evidence(boot, game_id, viewer):
    return game_evidence.evidence(boot, game_evidence.game(boot, game_id), viewer)


def test_a_finished_games_evidence_ends_with_it_and_a_running_ones_runs_on(boot, monkeypatch):
    ended, running = started(boot).game_id, started(boot).game_id
    t0 = time.time()
    for down, up in ((100, 200), (1100, 1300)):  # during the game, then after it ended
        outages.beat(boot.operations, t0 + down, threshold=10_000)  # up till then
        outages.beat(boot.operations, t0 + up, threshold=15)
    league_setup.later(monkeypatch, 1000)
    for quitter in (BOB, CY):
        game_commands.resign(boot, ended, quitter["id"])  # ended 1000 s after it started
    league_setup.later(monkeypatch, 1000)
    shown = evidence(boot, ended, ANN["id"])
    assert (shown["game"], shown["status"]) == (ended, "finished")
    assert [o["seconds"] for o in shown["outages"]] == [100.0]
    assert [o["seconds"] for o in evidence(boot, running, ANN["id"])["outages"]] == [100.0, 200.0]


def test_a_finished_games_refused_actions_are_shown_to_its_players(boot):
    rec = started(boot)
    game_commands.resign(boot, rec.game_id, BOB["id"])
    with pytest.raises(RuleViolation) as refused:  # resigned: it plays no more
        game_commands.act(boot, rec.game_id, BOB["id"], {"type": "pass"}, "after", None)
    arrived = time.time()
    loaded = game_evidence.game(boot, rec.game_id)
    attempts.record(boot, loaded, BOB["id"], {"type": "pass"}, refused.value, arrived)
    before = evidence(boot, rec.game_id, ANN["id"])["refused"]
    assert [("action" in e, e["player"]) for e in before] == [(False, BOB["id"])]
    (own,) = evidence(boot, rec.game_id, BOB["id"])["refused"]  # its author sees it
    assert own["action"] == {"type": "pass"}
    game_commands.resign(boot, rec.game_id, CY["id"])  # over: every action shown
    after = evidence(boot, rec.game_id, ANN["id"])["refused"]
    assert [e["action"] for e in after] == [{"type": "pass"}]


def test_a_league_games_evidence_is_read_by_its_organizers_too(boot, monkeypatch):
    lid = league_setup.started(boot, monkeypatch)
    gid = league_setup.game_of(boot, lid)
    for reader in (league_setup.OP["id"], "m0"):
        assert evidence(boot, gid, reader)["status"] == "active"
    with pytest.raises(Forbidden) as stranger:
        evidence(boot, gid, "p_dee")
    assert stranger.value.code == "not_seated"
    with pytest.raises(NotFound) as none:
        game_evidence.game(boot, "g_none")
    assert none.value.code == "game_not_found"
