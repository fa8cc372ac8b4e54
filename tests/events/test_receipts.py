"""Receipts every player keeps without trying (#45 §2): at a game's end every seat's event
stream sends the game's receipt after `game.Ended` (the service's signed promise of the
game's `ended` leaf, and its leaves with inclusion proofs), the same for every seat and
every ruleset, and each seat's `game_finished` note carries the promise."""

import json
import random
import shutil
import subprocess

import pytest

import games
from events import keys, log_checks, receipts, signature, transparency
from service.game_stream import RECEIPT, GameStream
from tests.api.helpers import bearer, by_seat, new_game, new_players, play_to_end
from tests.conftest import ROOT
from tests.events.test_public_log import named, verify_cli


def finished_game(client, app, ruleset: str, seed: int) -> tuple[str, list[dict]]:
    people = new_players(client, games.get(ruleset).min_players, prefix=f"r{seed}-")
    gid = new_game(client, people, ruleset)
    play_to_end(client, app, gid, by_seat(client, gid, people), random.Random(seed))
    return gid, people


def stream_frames(boot, gid: str, player_id: str | None) -> list:
    """Every frame a caller's stream sends from the game's start (a connect with
    Last-Event-ID 0), as api.streams renders them."""
    stream = GameStream(boot, gid, player_id, 0)
    frames = list(stream.opening())
    for entry_id, fields in boot.redis.xrange(keys.game_events(gid)):
        made, last = stream.entry(entry_id.decode(), fields)
        frames += made
        if last:
            break
    return frames


@pytest.mark.parametrize("ruleset", sorted(games.REGISTRY))
def test_every_seat_receives_the_games_receipt_on_its_stream_and_feed(client, app, ruleset):
    boot = app.extensions["marketfold"]
    gid, people = finished_game(client, app, ruleset, 5)
    trusted = signature.keyset(client.get("/v1/keys").get_json())
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    events = bundle["events"]
    kept = []
    for viewer in [p["id"] for p in people] + [None]:  # every seat, and a spectator
        frames = stream_frames(boot, gid, viewer)
        names = [f.event for f in frames]
        assert names[-2:] == ["game.Ended", RECEIPT], names[-3:]
        kept.append(json.loads(frames[-1].data))
    receipt = kept[0]
    assert all(k == receipt for k in kept)  # public facts only: the same for everyone
    assert receipt["format"] == receipts.FORMAT and receipt["game"] == gid
    assert receipts.check_promise(events, receipt["promise"], trusted)[0]
    assert receipt["promise"]["merge_delay_s"] == transparency.MERGE_DELAY_S
    # merged already: the leaves with their inclusion proofs, as a verifier checks them
    assert [json.loads(i["leaf"])["kind"] for i in receipt["leaves"]] == list(transparency.KINDS)
    assert log_checks.check_leaves(events, receipt, trusted)[0]
    for p in people:  # and on each seat's feed: the promise, in its game_finished note
        notes = client.get("/v1/players/me/notifications", headers=bearer(p)).get_json()
        done = [n["note"] for n in notes["notifications"] if n["note"]["type"] == "game_finished"]
        assert len(done) == 1 and done[0]["game"] == gid
        assert done[0]["receipt"]["format"] == receipts.FORMAT
        assert receipts.check_promise(events, done[0]["receipt"]["promise"], trusted)[0]


def test_a_promise_of_another_game_or_another_end_is_named(client, app):
    gid, _ = finished_game(client, app, "goblin-market", 6)
    other, _ = finished_game(client, app, "goblin-market", 7)
    trusted = signature.keyset(client.get("/v1/keys").get_json())
    boot = app.extensions["marketfold"]
    mine = json.loads(stream_frames(boot, gid, None)[-1].data)["promise"]
    theirs = json.loads(stream_frames(boot, other, None)[-1].data)["promise"]
    events = client.get(f"/v1/games/{gid}/export").get_json()["events"]
    ok, why = receipts.check_promise(events, theirs, trusted)
    assert not ok and why == f"the receipt is of another game, not of game {gid}"
    forged = {**mine, "leaf": theirs["leaf"]}  # the fields beside the signature changed
    assert receipts.check_promise(events, forged, trusted) == (
        False,
        "the receipt's promise differs from the statement its key signed",
    )
    assert receipts.check_promise(events, mine, trusted)[0]


def test_a_kept_receipt_verifies_its_genuine_game_offline_after_the_log_grew(client, app, tmp_path):
    boot = app.extensions["marketfold"]
    gid, _ = finished_game(client, app, "goblin-market", 8)
    kept = tmp_path / "kept.json"
    kept.write_text(stream_frames(boot, gid, None)[-1].data)  # as the client keeps it
    finished_game(client, app, "gobcon", 9)  # the log grows after it
    keyfile = tmp_path / "keys.json"
    keyfile.write_bytes(client.get("/v1/keys").data)
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    assert (
        bundle["transparency"]["tree_head"]["size"]
        > json.loads(kept.read_text())["tree_head"]["size"]
    )
    code, report = verify_cli(tmp_path, bundle, "--keys", str(keyfile), "--seen", str(kept))
    checks = named(report)
    assert code == 0, checks
    assert checks[receipts.PROMISED]["ok"]
    assert (
        "not checked: it needs the server's consistency proof" in checks[log_checks.SEEN]["detail"]
    )
    if shutil.which("node"):  # and the Node twin, offline as well
        done = subprocess.run(
            ["node", "tools/rederive.js", "--keys", str(keyfile), "--seen", str(kept),
             str(tmp_path / "game.json")],
            capture_output=True, text=True, cwd=ROOT,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
