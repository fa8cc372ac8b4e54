"""tools/rederive.js, written from docs/fairness.md alone, re-derives every shuffle, deal,
choice and roll of an exported game of every ruleset, and names a forged one."""

import json
import random
import shutil
import subprocess

import pytest

from tests.api.helpers import bearer, by_seat, new_game, new_players, play_to_end
from tests.conftest import ROOT

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed: tools/rederive.js runs on Node (CI has it)"
)
GAMES = [
    ("goblin-market", 4),
    ("sorcerous-futures", 3),
    ("sorcerous-futures", 4),
    ("black-market", 3),
    ("gobcon", 2),
]


def exported(client, app, ruleset: str, players: int) -> dict:
    people = new_players(client, players)
    if (ruleset, players) == ("sorcerous-futures", 4):  # every random step of the ruleset:
        gid = new_game(client, people, ruleset=ruleset, options={"sly_excuse": True})
        seats = by_seat(client, gid, people)
        holder = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
        answer = client.post(  # the Crowns handed out at random, the Sly Excuse's peek
            f"/v1/games/{gid}/actions",
            json={"type": "random_crowns"},
            headers=bearer(seats[holder]),
        )
        assert answer.status_code == 201, answer.get_json()
        types = {e["type"] for e in answer.get_json()["events"]}
        assert "sorcerous-futures.ValuationCardsShuffled" in types, types
    else:
        gid = new_game(client, people, ruleset=ruleset)
        seats = by_seat(client, gid, people)
    play_to_end(client, app, gid, seats, random.Random(7))
    res = client.get(f"/v1/games/{gid}/export")
    assert res.status_code == 200
    return res.get_json()


def rederive(bundle: dict, tmp_path) -> subprocess.CompletedProcess:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(bundle))
    return subprocess.run(
        [NODE, str(ROOT / "tools" / "rederive.js"), str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("ruleset,players", GAMES)
def test_every_random_outcome_of_an_exported_game_re_derives_in_node(
    client, app, tmp_path, ruleset, players
):
    bundle = exported(client, app, ruleset, players)
    done = rederive(bundle, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"re-derived: {ruleset}," in done.stdout and "all as logged" in done.stdout
    draws = max(e["draws"][1] for e in bundle["events"] if "draws" in e)
    assert f"from {draws} draws" in done.stdout

    deck_event = next(
        e for e in bundle["events"] if e["type"].endswith(("DeckShuffled", "DecksShuffled"))
    )
    data = deck_event["data"]
    name = next(k for k, v in data.items() if isinstance(v, list) and len(v) > 1)
    data[name][0], data[name][1] = data[name][1], data[name][0]  # a stacked deck
    forged = rederive(bundle, tmp_path)
    assert forged.returncode == 1
    assert f"FAIL event {deck_event['seq']} ({deck_event['type']})" in forged.stdout


def test_a_seed_that_does_not_match_its_game_is_named(client, app, tmp_path):
    bundle = exported(client, app, "goblin-market", 3)
    bundle["events"][0]["data"]["game_id"] = "g_another00000"
    done = rederive(bundle, tmp_path)
    assert done.returncode == 1 and "event 1: the seed does not match" in done.stdout
