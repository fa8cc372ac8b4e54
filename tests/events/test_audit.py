"""Exported games verify offline; every kind of tampering is caught and named."""

import ast
import copy
import json
import random
import subprocess
import sys

import pytest

import games
from events import audit, signature
from tests.api.helpers import bearer, by_seat, new_game, new_players, play_to_end
from tests.api.openapi_check import spec as openapi_spec
from tests.conftest import ROOT
from tests.events.bundles import reseal

CASES = [(g.id, n) for g in games.REGISTRY.values() for n in (g.min_players, g.max_players)]


def finished_bundle(client, app, ruleset: str, players: int, seed: int) -> dict:
    people = new_players(client, players)
    gid = new_game(client, people, ruleset=ruleset)
    play_to_end(client, app, gid, by_seat(client, gid, people), random.Random(seed))
    res = client.get(f"/v1/games/{gid}/export")
    assert res.status_code == 200
    return res.get_json()


@pytest.fixture(scope="module")
def bundles():
    return {}


@pytest.fixture
def gm_bundle(client, app):
    return finished_bundle(client, app, "goblin-market", 4, 11)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset,players", CASES)
def test_random_finished_games_export_and_verify_clean(client, app, ruleset, players):
    for seed in range(2):
        bundle = finished_bundle(client, app, ruleset, players, seed)
        report = audit.verify(bundle)
        assert report.ok, report.to_text()


def test_the_cli_verifies_offline_and_fails_on_tampering(client, gm_bundle, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(gm_bundle))
    keys = tmp_path / "keys.json"  # the published keys, saved as an auditor would
    keys.write_text(json.dumps(client.get("/v1/keys").get_json()))
    cli = [sys.executable, "-m", "cli", "verify", "--keys", str(keys)]
    ok = subprocess.run(
        [*cli, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert ok.returncode == 0 and "verified" in ok.stdout
    gm_bundle["events"][5]["data"]["tampered"] = 1
    path.write_text(json.dumps(gm_bundle))
    bad = subprocess.run(
        [*cli, "--json", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    report = json.loads(bad.stdout)
    assert bad.returncode == 1 and not report["ok"]
    assert report["checks"][0] == {
        "name": "hash chain",
        "ok": False,
        "seq": 6,
        "code": "hash_mismatch",
        "detail": "hash does not match the event's contents",
    }


def test_post_verify_returns_the_same_report(client, gm_bundle):
    trusted = signature.keyset(client.get("/v1/keys").get_json())
    same = audit.verify(gm_bundle, trusted).to_json()
    answer = client.post("/v1/verify", json=gm_bundle).get_json()
    stored = answer["checks"].pop()  # the server holds this game: it compares its log too
    assert stored["name"] == "the same as this server's log" and stored["ok"]
    assert answer == same
    broken = copy.deepcopy(gm_bundle)
    del broken["events"][3]
    answer = client.post("/v1/verify", json=broken).get_json()
    assert not answer["ok"] and answer["checks"][0]["seq"] == 4


def failing(bundle: dict) -> tuple[str, int | None]:
    report = audit.verify(bundle)
    assert not report.ok
    check = next(c for c in report.checks if not c.ok)
    assert check.code in check_codes(), check  # a page words it in its own language
    return check.name, check.seq


def check_codes() -> set[str]:
    """The codes openapi.yaml lists for a failed check (VerifyReport checks[].code)."""
    spec = openapi_spec()  # parsed once per process
    item = spec["components"]["schemas"]["VerifyReport"]["properties"]["checks"]["items"]
    return {c for c in item["properties"]["code"]["enum"] if c is not None}


def test_every_reason_a_check_fails_has_a_code_the_spec_lists():
    used, uncoded = set(), []
    for package in ("events", "leagues", "service", "cli"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "attr", getattr(node.func, "id", ""))
                if name not in ("fail", "_record"):
                    continue
                code = next((k.value for k in node.keywords if k.arg == "code"), None)
                if isinstance(code, ast.Constant):
                    used.add(code.value)
                elif isinstance(node.func, ast.Attribute) and name == "fail" and code is None:
                    uncoded.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert uncoded == []
    assert used == check_codes()


def test_each_kind_of_tampering_is_named(gm_bundle):
    events = gm_bundle["events"]
    shuffled = next(e["seq"] for e in events if e["type"] == "goblin-market.DecksShuffled")
    paid = next(e["seq"] for e in events if e["type"] == "goblin-market.GoblinPaid")

    t = copy.deepcopy(gm_bundle)
    t["events"][9]["at"] = t["events"][9]["at"].replace("Z", "1Z")
    assert failing(t) == ("hash chain", 10)

    t = copy.deepcopy(gm_bundle)
    t["events"][7], t["events"][8] = t["events"][8], t["events"][7]
    assert failing(t) == ("hash chain", 8)

    t = copy.deepcopy(gm_bundle)  # a seed beside the log's: said as such, at game.Ended
    t["seed"] = "00" * 32
    assert failing(t) == ("seed and random draws", len(t["events"]))
    detail = next(c.detail for c in audit.verify(t).checks if not c.ok)
    assert detail.startswith("the bundle's seed 0000000000000000... differs from the one")

    t = copy.deepcopy(gm_bundle)  # both seeds replaced: the commitment gives it away
    t["seed"] = t["events"][-1]["data"]["seed"] = "00" * 32
    assert failing(reseal(t, len(t["events"]))) == ("seed and random draws", 1)

    t = copy.deepcopy(gm_bundle)  # a re-ordered deck, with the chain forged to match
    deck = t["events"][shuffled - 1]["data"]["auction_deck"]
    deck[0], deck[1] = deck[1], deck[0]
    assert failing(reseal(t, shuffled)) == ("every command decided again", shuffled)

    t = copy.deepcopy(gm_bundle)  # a payout edited, chain forged
    t["events"][paid - 1]["data"]["payments"].append({"seat": 0, "coins": 5})
    assert failing(reseal(t, paid)) == ("every command decided again", paid)

    t = copy.deepcopy(gm_bundle)  # the result edited, chain forged
    t["events"][-1]["data"]["result"]["winners"] = [9]
    assert failing(reseal(t, len(events))) == ("final result recounted", len(events))


def test_random_tamperings_are_never_missed(gm_bundle):
    rnd, missed = random.Random(5), []
    for trial in range(300):
        t = copy.deepcopy(gm_bundle)
        events = t["events"]
        i = rnd.randrange(len(events))
        kind = rnd.choice(["data", "drop", "swap", "actor", "visible"])
        if kind == "data":
            if not mutate(events[i]["data"], rnd):
                continue
        elif kind == "drop":
            del events[i]
        elif kind == "swap":
            j = min(i + 1, len(events) - 1)
            if i == j:
                continue
            events[i], events[j] = events[j], events[i]
        elif kind == "actor":
            events[i]["actor"] = "system" if events[i]["actor"] != "system" else 0
        else:
            events[i]["visible_to"] = [] if events[i]["visible_to"] == "all" else "all"
        if rnd.random() < 0.5 and kind not in ("drop", "swap"):
            reseal(t, i + 1)
        if audit.verify(t).ok:
            missed.append((trial, kind, i))
    assert missed == []


def mutate(value, rnd) -> bool:
    """Change one leaf of a JSON value in place; return False if there was none."""
    if isinstance(value, dict) and value:
        key = rnd.choice(sorted(value))
        leaf = value[key]
        if isinstance(leaf, (dict, list)) and leaf:
            return mutate(leaf, rnd)
        value[key] = changed(leaf)
        return True
    if isinstance(value, list) and value:
        i = rnd.randrange(len(value))
        if isinstance(value[i], (dict, list)) and value[i]:
            return mutate(value[i], rnd)
        value[i] = changed(value[i])
        return True
    return False


def changed(leaf):
    if isinstance(leaf, bool):
        return not leaf
    if isinstance(leaf, int):
        return leaf + 1
    if isinstance(leaf, str):
        return leaf + "x"
    return 1 if leaf is None else None


def test_state_at_every_seq_equals_folding_its_prefix(client, app):
    from events.fold import fold
    from events.record import Record

    people = new_players(client, 3)
    gid = new_game(client, people)
    seats = by_seat(client, gid, people)
    play_to_end(client, app, gid, seats, random.Random(2))
    log = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    rec = Record(gid)
    for env in log:
        rec = fold(rec, env)
        shown = client.get(
            f"/v1/games/{gid}/state?at={env['seq']}", headers=bearer(seats[0])
        ).get_json()
        assert shown["version"] == env["seq"]
        if rec.state is not None:
            assert shown["view"] == rec.game.view(rec.state, shown["you"], "en")
            assert shown["views"] == [rec.game.view(rec.state, s, "en") for s in range(3)]


def test_a_game_in_play_is_exported_only_to_its_players_and_redacted(client):
    people = new_players(client, 3)
    gid = new_game(client, people)
    assert client.get(f"/v1/games/{gid}/export").status_code == 401
    (stranger,) = new_players(client, 1, "x")
    assert client.get(f"/v1/games/{gid}/export", headers=bearer(stranger)).status_code == 403
    mine = client.get(f"/v1/games/{gid}/export", headers=bearer(people[0])).get_json()
    assert mine["seed"] is None and any(e.get("redacted") for e in mine["events"])
    report = audit.verify(mine)
    assert not report.ok and "redacted" in report.checks[0].detail


def test_audit_routes_answer_as_the_spec_says(client, app):
    from tests.api.openapi_check import check, check_response

    people = new_players(client, 3)
    gid = new_game(client, people)
    play_to_end(client, app, gid, by_seat(client, gid, people), random.Random(1))
    bundle = check(client.get(f"/v1/games/{gid}/export"), "GET", "/v1/games/{id}/export")
    bundle = bundle.get_json()
    check_response(
        "get", "/v1/games/{id}/state", 200, client.get(f"/v1/games/{gid}/state?at=9").get_json()
    )
    check_response("post", "/v1/verify", 200, client.post("/v1/verify", json=bundle).get_json())
    res = client.get(f"/v1/games/{gid}/state?at=0")
    assert res.status_code == 422 and res.get_json()["code"] == "invalid_query"


def test_a_game_replays_under_the_rules_version_it_was_played_with(gm_bundle, monkeypatch):
    from types import SimpleNamespace

    current = games.get("goblin-market")
    played = current.rules_version
    newer = SimpleNamespace(**{**vars(current), "rules_version": played + 1})
    monkeypatch.setitem(games.REGISTRY, "goblin-market", newer)
    report = audit.verify(gm_bundle)  # played under a version that is no longer current
    assert not report.ok
    assert f"no rules 'goblin-market' at version {played}" in report.checks[2].detail
    monkeypatch.setitem(games.ARCHIVE, ("goblin-market", played), current)
    assert audit.verify(gm_bundle).ok
