"""Clients generated from openapi.yaml, with no hand patches, play every ruleset over HTTP.

Each test runs one example exactly as docs/clients.md says (`examples/<language>/run.sh`):
it regenerates the client into a temporary directory, then plays a short game of every
ruleset against a live server and worker, every seat a bot choosing among legal actions,
follows the event stream, exports the game as a file and verifies that file as downloaded.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

import games
from tests.conftest import ROOT, _env

pytestmark = pytest.mark.slow


def played(done: subprocess.CompletedProcess) -> dict[str, dict]:
    assert done.returncode == 0, done.stderr[-3000:]
    return {g["ruleset"]: g for g in map(json.loads, done.stdout.splitlines())}


def assert_every_ruleset_played_streamed_and_verified(results: dict[str, dict]) -> None:
    # two tables left early: aborted before anyone moved, an idle untimed game claimed
    assert results.pop("quiet-tables")["reasons"] == ["aborted", "abandoned"]
    assert sorted(results) == sorted(games.REGISTRY)
    for ruleset, game in results.items():
        assert game["status"] == "finished", game
        # the stream delivered every event once, in order, and ended after game.Ended
        assert game["streamed"] == list(range(1, game["version"] + 1)), ruleset
        assert game["verified"] is True, ruleset  # the downloaded file, byte for byte
        assert game["winners"], ruleset
        # one call per move: every action sent was accepted, so each stream frame the bots
        # acted on, and each answer, was news and told them all they needed
        assert game["moves"] > 0 and game["calls"] == game["moves"], (ruleset, game)
        # the table was an invitation (handles, GET /players/me, the invitation list, held
        # seats taken by joining), and a rematch was offered (201) and declined (200)
        assert game["invited"] is True, ruleset
        assert game["rematch"] == [201, True, 200], ruleset


def assert_every_seat_kept_its_receipt(results: dict[str, dict], folder) -> None:
    """Each seat kept the receipt its stream sent at the end (#45 §2), as a file."""
    for game in results.values():
        kept = sorted(folder.glob(f"{game['game']}.seat*.receipt.json"))
        assert game["receipts"] == game["players"] == len(kept), game
        assert json.loads(kept[0].read_text())["game"] == game["game"]


def run_example(language: str, server: str, redis_url: str, build: str) -> dict[str, dict]:
    env = {**_env(redis_url), "BUILD_DIR": build, "PYTHON": sys.executable}
    env["RECEIPTS_DIR"] = os.path.join(build, "receipts")  # where the examples keep them
    done = subprocess.run(
        ["bash", str(ROOT / "examples" / language / "run.sh"), server],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=280,
    )
    return played(done)


def test_the_generated_python_client_plays_every_ruleset(
    live_server, worker_process, redis_url, tmp_path
):
    worker_process()
    results = run_example("python", live_server, redis_url, str(tmp_path))
    assert_every_ruleset_played_streamed_and_verified(results)
    assert_every_seat_kept_its_receipt(results, tmp_path / "receipts")
    # the generated package is complete: one module per operation of the spec
    generated = {p.stem for p in (tmp_path / "marketfold_client" / "api").rglob("*.py")}
    assert {"create_game", "post_action", "stream_events", "export_game", "verify_bundle"} <= (
        generated
    )
    assert_event_unions_round_trip(tmp_path)


def assert_event_unions_round_trip(build) -> None:
    """A seat actor, a restricted `visible_to` and `redacted` parse into the generated
    models and write back unchanged (each union tries the right branch)."""
    sys.path.insert(0, str(build))
    try:
        from marketfold_client.models import Event

        base = {
            "seq": 7,
            "type": "black-market.GoodsProduced",
            "data": {"seat": 2},
            "cause": "k",
            "at": "2026-03-01T12:00:00.000Z",
            "prev": "0" * 64,
            "hash": "f" * 64,
        }
        for extra in [
            {"actor": 2, "visible_to": [2], "redacted": True},
            {"actor": "system", "visible_to": "all", "draws": [3, 5]},
        ]:
            event = {**base, **extra}
            assert Event.from_dict(event).to_dict() == event
    finally:
        sys.path.remove(str(build))
        for name in [m for m in sys.modules if m.startswith("marketfold_client")]:
            del sys.modules[name]


@pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None,
    reason="node and npm are needed to generate, compile and run the TypeScript client",
)
def test_the_generated_typescript_client_compiles_and_plays_every_ruleset(
    live_server, worker_process, redis_url, tmp_path
):
    worker_process()
    results = run_example("typescript", live_server, redis_url, str(tmp_path / "ts"))
    assert_every_ruleset_played_streamed_and_verified(results)
    assert_every_seat_kept_its_receipt(results, tmp_path / "ts" / "receipts")
    assert os.path.exists(tmp_path / "ts" / "schema.d.ts")  # types generated, tsc --strict ok
