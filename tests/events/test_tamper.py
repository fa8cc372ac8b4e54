"""The tamper suite: forgeries a careful forger makes (the hash chain rebuilt, the seed
commitment recomputed, every play check passing where it can), each reported with the
check that caught it by POST /v1/verify, marketfold verify and tools/rederive.js."""

import copy
import json
import random
import shutil
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events import audit, codec, signature, signed_dates
from events.fold import fold_all
from events.record import Record
from games.rng import commitment
from service import deadline_commands
from tests.api.helpers import by_seat, new_game, new_players, play_to_end
from tests.conftest import ROOT

NODE = shutil.which("node")
SIGNED, LOGGED, BOUND = (
    "signed by the service",
    "in the public log of games",
    "header bound to the log",
)
STORED = "the same as this server's log"
PLAY = {
    "hash chain",
    "seed and random draws",
    "every command decided again",
    "final result recounted",
}


def groups(events: list[dict]) -> list[tuple[int, int]]:
    """Each command's envelopes as [start, end) indexes into `events`."""
    starts = [i for i, e in enumerate(events) if "command" in e]
    return list(zip(starts, starts[1:] + [len(events)], strict=True))


def resealed(bundle: dict) -> dict:
    for i, env in enumerate(bundle["events"], start=1):
        env["seq"] = i
    codec.seal(bundle["events"], codec.GENESIS)
    bundle["game"]["version"] = len(bundle["events"])
    return bundle


def relabel(bundle: dict, other: dict) -> dict:
    forged = copy.deepcopy(other)
    gid = bundle["game"]["id"]
    forged["game"]["id"] = forged["events"][0]["data"]["game_id"] = gid
    forged["events"][0]["data"]["seed_commitment"] = commitment(gid, bytes.fromhex(forged["seed"]))
    forged["signature"] = bundle["signature"]
    forged["transparency"] = bundle["transparency"]
    return resealed(forged)


def renamed(bundle: dict, other: dict) -> dict:
    forged = copy.deepcopy(bundle)
    for env in forged["events"]:
        if env["type"] == "game.PlayerJoined" and env["data"]["seat"] == 0:
            env["data"]["name"] = "mallory"
            if env.get("command", {}).get("type") in ("join", "create"):
                env["command"]["name"] = "mallory"
    forged["game"]["seats"][0]["name"] = "mallory"
    return resealed(forged)


def league_round_changed(bundle: dict, other: dict) -> dict:
    """A league's game moved to another round: its id says round 3, its log round 4."""
    forged = copy.deepcopy(bundle)
    gid = "g_lg1_r3_t0"
    created = forged["events"][0]["data"]
    created["game_id"], created["league"] = gid, {"id": "lg1", "round": 4, "table": 0}
    created["seed_commitment"] = commitment(gid, bytes.fromhex(forged["seed"]))
    forged["game"].update(id=gid, league=created["league"])
    return resealed(forged)


def default_as_on_time(bundle: dict, other: dict) -> dict:
    """A missed deadline's default rewritten as the seat's own move, just in time."""
    forged = copy.deepcopy(bundle)
    events = forged["events"]
    start, end = next((a, b) for a, b in groups(events) if events[a]["command"]["type"] == "expire")
    timed_out, applied = events[start], events[start + 1 : end]
    seat = timed_out["data"]["seat"]
    player = next(s["player"] for s in forged["game"]["seats"] if s["seat"] == seat)
    for env in applied:
        env["actor"] = seat
    applied[0]["command"] = {
        "type": "act",
        "player": player,
        "action": timed_out["data"]["default"],
    }
    if "draws" in timed_out:
        applied[0]["draws"] = timed_out["draws"]
    forged["events"] = events[:start] + applied + events[end:]
    return resealed(forged)


def on_time_as_default(bundle: dict, other: dict) -> dict:
    """A seat's own move rewritten as a default applied for it."""
    forged = copy.deepcopy(bundle)
    events = forged["events"]
    for start, end in groups(events):
        cmd = events[start]["command"]
        if cmd["type"] != "act":
            continue
        rec = fold_all(Record(forged["game"]["id"]), events[:start])
        owed = [o for o in rec.owed() if o.seat == events[start]["actor"]]
        if len(owed) == 1 and owed[0].default == cmd["action"] and not owed[0].simultaneous:
            o = owed[0]
            timed_out = {
                **{k: v for k, v in events[start].items() if k not in ("command", "draws", "salt")},
                "type": "game.DecisionTimedOut",
                "actor": "system",
                "visible_to": "all",
                "data": {"seat": o.seat, "kind": o.kind, "key": o.key, "default": o.default},
                "command": {"type": "expire", "key": o.key},
            }
            if "draws" in events[start]:
                timed_out["draws"] = events[start]["draws"]
            body = [{**e, "actor": "system"} for e in events[start:end]]
            for env in body:
                env.pop("command", None), env.pop("draws", None)
            forged["events"] = events[:start] + [timed_out] + body + events[end:]
            return resealed(forged)
    pytest.skip("no move equal to its default in this game")


def shifted(bundle: dict, other: dict) -> dict:
    """Every time from the middle on moved 5 s later: within every deadline and grace."""
    forged = copy.deepcopy(bundle)
    for env in forged["events"][len(forged["events"]) // 2 :]:
        at = codec.parse_time(env["at"]) + timedelta(seconds=5)
        env["at"] = at.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return resealed(forged)


def resigned_by_another_key(bundle: dict, other: dict) -> dict:
    forged = relabel(bundle, other)
    forged["signature"] = signature.sign(forged, Ed25519PrivateKey.generate())
    return forged


CASES = {  # the forgery -> the checks that must fail
    "whole game substituted": (relabel, {SIGNED, LOGGED}),
    "players relabelled": (renamed, {SIGNED, LOGGED}),
    "league round changed": (league_round_changed, {BOUND, SIGNED, LOGGED}),
    "default rewritten as on time": (default_as_on_time, {SIGNED, LOGGED}),
    "on-time move rewritten as a default": (on_time_as_default, {SIGNED, LOGGED}),
    "times shifted": (shifted, {SIGNED, LOGGED}),
    "re-signed with another key": (resigned_by_another_key, {SIGNED, LOGGED}),
}


def with_a_default(client, app, seed: int) -> dict:
    """A finished 3-player game (1 s per decision) whose first decision was defaulted."""
    people = new_players(client, 3)
    gid = new_game(client, people, decision_timeout_s=1)
    boot = app.extensions["marketfold"]
    rec = boot.store.load(gid).record
    (owed,) = rec.owed()
    deadline = codec.parse_time(rec.deadline(owed.key)).timestamp()
    time.sleep(max(0.0, deadline - time.time()) + 0.05)
    assert deadline_commands.expire(boot, gid, owed.key) == "applied"
    play_to_end(client, app, gid, by_seat(client, gid, people), random.Random(seed))
    return client.get(f"/v1/games/{gid}/export").get_json()


@pytest.fixture(scope="module")
def played():
    return {}


@pytest.fixture
def games_and_keys(client, app, played, tmp_path):
    """Two finished games (bundles outlive the flush between tests) and the published keys,
    saved as an auditor would."""
    keyfile = tmp_path / "keys.json"
    if not played:
        played["real"], played["other"] = (
            with_a_default(client, app, 1),
            with_a_default(client, app, 2),
        )
        played["keys"] = client.get("/v1/keys").get_json()
    keyfile.write_text(json.dumps(played["keys"]))
    return copy.deepcopy(played["real"]), copy.deepcopy(played["other"]), keyfile


def by_cli(tmp_path, bundle: dict, keyfile) -> tuple[int, set[str]]:
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(bundle))
    cmd = [sys.executable, "-m", "cli", "verify", "--json", "--keys", str(keyfile), str(path)]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    report = json.loads(done.stdout)
    return done.returncode, {c["name"] for c in report["checks"] if not c["ok"]}


def by_node(tmp_path, bundle: dict, keyfile) -> tuple[int, str]:
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(bundle))
    cmd = [NODE, str(ROOT / "tools" / "rederive.js"), "--keys", str(keyfile), str(path)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout


def test_the_real_games_verify_everywhere(client, tmp_path, games_and_keys):
    real, _, keyfile = games_and_keys
    assert client.post("/v1/verify", json=real).get_json()["ok"]
    assert by_cli(tmp_path, real, keyfile) == (0, set())
    if NODE:
        code, out = by_node(tmp_path, real, keyfile)
        assert code == 0 and "signed by key" in out and "in the public log of games" in out, out


@pytest.mark.parametrize("case", list(CASES))
def test_each_forgery_is_caught_and_named_by_every_verifier(client, tmp_path, games_and_keys, case):
    real, other, keyfile = games_and_keys
    forge, caught = CASES[case]
    forged = forge(real, other)
    report = client.post("/v1/verify", json=forged).get_json()
    failed = {c["name"] for c in report["checks"] if not c["ok"]}
    assert not report["ok"] and caught <= failed, (case, report)
    # the key windows an auditor saved with the keys are those of the first test's log;
    # the server reads its own, made again after each test's flush (events.keylog):
    # whether a forged signature's date also falls outside them is not what is compared
    code, named = by_cli(tmp_path, forged, keyfile)
    assert (code, named - {signed_dates.CHECK}) == (1, failed - {STORED, signed_dates.CHECK})
    if NODE:
        code, out = by_node(tmp_path, forged, keyfile)
        assert code == 1 and f"FAIL {SIGNED}:" in out, out


def test_the_forgeries_that_rebuild_the_play_pass_every_play_check(games_and_keys):
    """What only the signature and the log catch: the play itself re-decides cleanly."""
    real, other, _ = games_and_keys
    for case in ("whole game substituted", "players relabelled", "default rewritten as on time"):
        report = audit.verify(CASES[case][0](real, other))
        assert all(c.ok for c in report.checks if c.name in PLAY), (case, report.to_text())


def test_a_player_not_seated_is_named_with_the_seat_and_both_identities(games_and_keys):
    real, _, _ = games_and_keys
    forged = copy.deepcopy(real)
    start = next(
        a for a, _ in groups(forged["events"]) if forged["events"][a]["command"]["type"] == "act"
    )
    act = forged["events"][start]
    act["command"]["player"] = "p_stranger"
    report = audit.verify(resealed(forged))
    replay = next(c for c in report.checks if c.name == "every command decided again")
    holder = next(s for s in real["game"]["seats"] if s["seat"] == act["actor"])
    assert "names player p_stranger, who is not seated in this game" in replay.detail
    assert f"seat {act['actor']} is {holder['player']} ({holder['name']})" in replay.detail


def test_draws_that_skip_say_which_draw_of_which_event(games_and_keys):
    real, _, _ = games_and_keys
    forged = copy.deepcopy(real)
    env = next((e for e in forged["events"][1:] if "draws" in e and e["draws"][0] > 0), None)
    if env is None:  # every draw of this game was in its first random command
        env = next(e for e in forged["events"] if "draws" in e)
    env["draws"] = [env["draws"][0] + 1, env["draws"][1] + 1]
    report = audit.verify(resealed(forged))
    seed = next(c for c in report.checks if c.name == "seed and random draws")
    assert f"event {env['seq']}: its draws start at draw {env['draws'][0]}" in seed.detail
    assert f"ended at draw {env['draws'][0] - 1}" in seed.detail


def test_a_truncated_bundle_says_it_ends_before_the_game_did(games_and_keys):
    real, _, _ = games_and_keys
    cut = copy.deepcopy(real)
    cut["events"] = cut["events"][:40]
    cut["seed"] = None
    report = audit.verify(cut)
    seed = next(c for c in report.checks if c.name == "seed and random draws")
    assert seed.detail == (
        f"no seed revealed: the bundle ends at event 40, before the game did "
        f"(its header says finished, {real['game']['version']} events)"
    )


def test_the_server_that_holds_the_game_names_the_first_event_that_differs(client, app):
    people = new_players(client, 3)
    gid = new_game(client, people)
    play_to_end(client, app, gid, by_seat(client, gid, people), random.Random(4))
    real = client.get(f"/v1/games/{gid}/export").get_json()
    forged = copy.deepcopy(real)
    forged["events"][30]["at"] = codec.iso(
        codec.parse_time(real["events"][30]["at"]).timestamp() + 1
    )
    report = client.post("/v1/verify", json=resealed(forged)).get_json()
    stored = next(c for c in report["checks"] if c["name"] == STORED)
    assert stored["seq"] == 31 and stored["detail"].startswith(
        "event 31 differs from this server's log (at:"
    )
    cut = copy.deepcopy(real)
    cut["events"] = cut["events"][:-1]
    report = client.post("/v1/verify", json=cut).get_json()
    stored = next(c for c in report["checks"] if c["name"] == STORED)
    assert (
        stored["detail"]
        == f"the bundle has {len(cut['events'])} events, this server's log {len(real['events'])}"
    )
