"""A bundle is bound to its game: the header cannot be edited, nor the log moved to
another game, without the verifier naming what disagrees."""

import copy
import random
import re
from pathlib import Path

import pytest

from events import audit
from games.rng import commitment
from tests.api.helpers import by_seat, new_game, new_players, play_to_end
from tests.events.bundles import reseal

DOC = (Path(__file__).resolve().parents[2] / "docs" / "fairness.md").read_text()


@pytest.fixture(scope="module")
def finished(redis_server):
    """One finished Goblin Market game with a time control, exported (shared read-only)."""

    from cli.compose import create_app
    from tests.conftest import TEST_CONFIG

    app = create_app(
        {**TEST_CONFIG, "REDIS_URL": redis_server.url, "RQ_REDIS_URL": redis_server.url}
    )
    client = app.test_client()
    people = new_players(client, 3)
    gid = new_game(client, people, decision_timeout_s=600)
    play_to_end(client, app, gid, by_seat(client, gid, people), random.Random(4))
    return client.get(f"/v1/games/{gid}/export").get_json()


def check(report, name):
    return next(c for c in report.checks if c.name == name)


EDITS = {
    "id": "g_forged000000",
    "ruleset": "black-market",
    "rules_version": 99,
    "players": 4,
    "options": {"edition": "es", "courts": False},
    "decision_timeout_s": 3,
    "league": {"id": "l_x", "round": 1, "table": 1},
    "status": "active",
    "version": 7,
}


@pytest.mark.parametrize("field", [*EDITS, "seat player", "seat name"])
def test_every_header_field_edited_is_named(finished, field):
    bundle = copy.deepcopy(finished)
    if field == "seat player":
        bundle["game"]["seats"][1]["player"] = "p_forged"
        field = "seats[1].player"
    elif field == "seat name":
        bundle["game"]["seats"][0]["name"] = "mallory"
        field = "seats[0].name"
    else:
        bundle["game"][field] = EDITS[field]
    report = audit.verify(bundle)
    bound = check(report, "header bound to the log")
    assert not report.ok and not bound.ok
    assert f"game.{field}:" in bound.detail, bound.detail
    assert report.game_id == finished["events"][0]["data"]["game_id"]  # never the forged id
    assert "NOT verified" in report.to_text()


def test_the_untouched_header_is_bound(finished):
    report = audit.verify(finished)
    assert report.ok, report.to_text()
    assert check(report, "header bound to the log").ok


def test_a_log_moved_to_another_game_id_breaks_the_seed_commitment(finished):
    bundle = copy.deepcopy(finished)
    bundle["game"]["id"] = "g_other0000000"
    bundle["events"][0]["data"]["game_id"] = "g_other0000000"
    report = audit.verify(reseal(bundle, 1))  # the forger rebuilt the whole chain
    seed = check(report, "seed and random draws")
    assert not seed.ok and seed.seq == 1 and "commitment" in seed.detail


def test_the_commitment_binds_the_game_id_as_documented(finished):
    created, seed = finished["events"][0]["data"], bytes.fromhex(finished["seed"])
    assert created["seed_commitment"] == commitment(created["game_id"], seed)
    vector = re.search(r"commitment of `(g_\w+)`[^`]*`([0-9a-f]{64})`", DOC)
    assert vector, "docs/fairness.md gives the bound commitment's test vector"
    assert commitment(vector.group(1), bytes(range(32))) == vector.group(2)
