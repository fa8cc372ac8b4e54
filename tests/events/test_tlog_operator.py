"""The operator against the public log of games (#45): a finished game's stream rewritten
in Redis and its entries deleted from the log's index must not get new leaves at the next
sweep: the log keeps the game's first leaves, the index is named again from the log, and
the operator's log, /metrics and /readyz raise an alarm. Unlisted games are swept like
listed ones."""

import json
import logging
import random

import pytest

from events import codec, keys, log_checks, tlog_keys, transparency
from service import transparency as public_log
from tests.api.helpers import bearer, by_seat, new_game, new_players, play_to_end
from tests.conftest import api_server
from tests.events.test_public_log import verify_cli


def finished(client, app, seed: int, unlisted: bool = False) -> str:
    return played(client, app, seed, unlisted)[0]


def played(client, app, seed: int, unlisted: bool = False) -> tuple[str, list[dict]]:
    """A finished game of three new players, and the players."""
    people = new_players(client, 3, prefix=f"s{seed}-")
    if unlisted:  # invited players only: the game is in no lobby list
        body = {"ruleset": "goblin-market", "players": 3, "unlisted": True, "join": True}
        body["invite"] = [p["id"] for p in people[1:]]
        gid = client.post("/v1/games", json=body, headers=bearer(people[0])).get_json()["id"]
        for p in people[1:]:
            assert client.post(f"/v1/games/{gid}/join", headers=bearer(p)).status_code == 200
    else:
        gid = new_game(client, people)
    play_to_end(client, app, gid, by_seat(client, gid, people), random.Random(seed))
    if unlisted:
        assert gid not in json.dumps(client.get("/v1/games?status=finished").get_json())
    return gid, people


def swap_names(value, a: str, b: str):
    """The operator's rewrite: two players' names swapped wherever the log names them."""
    if isinstance(value, dict):
        out = {k: swap_names(v, a, b) for k, v in value.items()}
        if out.get("name") in (a, b) and isinstance(out.get("name"), str):
            out["name"] = b if out["name"] == a else a
        return out
    if isinstance(value, list):
        return [swap_names(v, a, b) for v in value]
    return value


def rewrite_stream(boot, gid: str) -> None:
    """Edit a finished game's stream in Redis as the operator can: the events rewritten
    and chained again, the snapshot dropped so the service folds the new stream."""
    envelopes = boot.store.read(gid, 0)
    seats = transparency.from_log(envelopes)["started"]["seats"]
    a, b = seats[0]["name"], seats[1]["name"]
    forged = codec.seal([swap_names(e, a, b) for e in envelopes], codec.GENESIS)
    boot.redis.delete(keys.game_events(gid), keys.game_snapshot(gid))
    for env in forged:
        boot.redis.xadd(keys.game_events(gid), {"e": codec.dumps(env)}, id=f"{env['seq']}-0")
    assert transparency.from_log(boot.store.read(gid, 0)) != transparency.from_log(envelopes)


def test_a_rewritten_game_whose_index_entries_were_deleted_is_not_logged_again(client, app, caplog):
    boot = app.extensions["marketfold"]
    gid = finished(client, app, 21)
    finished(client, app, 22)
    ids = [f"{gid}:{k}" for k in transparency.KINDS]
    before = boot.tlog.indexes(ids)
    size = boot.tlog.size()
    texts = boot.tlog.texts(0, size)
    assert client.get("/readyz").get_json()["checks"]["transparency_log"]["ok"]

    rewrite_stream(boot, gid)
    boot.redis.hdel(tlog_keys.tlog_ids(), *ids)
    body = client.get("/readyz").get_json()
    assert body["checks"]["transparency_log"]["unindexed_leaves"] == 3
    assert not body["checks"]["transparency_log"]["ok"]

    with caplog.at_level(logging.ERROR, logger="marketfold.events"):
        assert public_log.sweep(boot) == 0  # no new leaf: the log keeps the game's first ones
        assert public_log.sweep(boot) == 0
    assert boot.tlog.size() == size and boot.tlog.texts(0, size) == texts
    assert boot.tlog.indexes(ids) == before  # named again from the log itself
    alarms = [r for r in caplog.records if getattr(r, "alarm", None) == "tlog_index_lost"]
    assert sorted(r.kind for r in alarms) == sorted(transparency.KINDS)
    assert all(r.game == gid and "ALARM" in r.getMessage() for r in alarms)

    res = client.get("/readyz")
    check = res.get_json()["checks"]["transparency_log"]
    assert res.status_code == 503 and check == {
        "ok": False,
        "leaves": size,
        "unindexed_leaves": 0,
        "alarms": 3,
    }
    assert "marketfold_transparency_alarms 3.0" in client.get("/metrics").get_data(as_text=True)
    # the game as the store now tells it no longer matches the leaves the log kept
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    leaves = [json.loads(x["leaf"]) for x in bundle["transparency"]["leaves"]]
    assert [x for x in leaves if x["kind"] == "started"] == [json.loads(texts[before[1]])]
    answer = {c["name"]: c for c in client.post("/v1/verify", json=bundle).get_json()["checks"]}
    assert not answer[log_checks.CHECK]["ok"], answer[log_checks.CHECK]


def test_unlisted_games_and_rematches_are_swept_like_listed_ones(client, app):
    boot = app.extensions["marketfold"]
    hidden = finished(client, app, 23, unlisted=True)
    listed, people = played(client, app, 24)
    res = client.post(f"/v1/games/{listed}/rematch", headers=bearer(people[0]))
    rematch = res.get_json()["id"]  # unlisted, waiting for the former players
    ids = [f"{g}:{k}" for g in (hidden, listed) for k in transparency.KINDS]
    ids.append(f"{rematch}:created")
    texts = boot.tlog.texts(*(lambda at: (min(at), max(at) + 1))(boot.tlog.indexes(ids)))
    texts = [t for t in texts if json.loads(t)["kind"] != "key"]  # the signing key's leaf
    for key in (
        tlog_keys.tlog_hashes(),
        tlog_keys.tlog_texts(),
        tlog_keys.tlog_ids(),
        tlog_keys.tlog_head(),
    ):
        boot.redis.delete(key)  # as if every writer died right after its append
    boot.tlog.tree.full.clear()
    assert public_log.sweep(boot) == 7
    assert None not in boot.tlog.indexes(ids)
    hidden_leaves = [json.loads(t) for t in texts if "sealed" in json.loads(t)]
    assert len(hidden_leaves) == 4  # the unlisted game's and the rematch's stay sealed
    again = boot.tlog.texts(0, boot.tlog.size())
    assert sorted(again) == sorted(texts)
    assert client.get("/readyz").get_json()["checks"]["transparency_log"]["ok"]


def drop_log(boot) -> None:
    for key in (
        tlog_keys.tlog_hashes(),
        tlog_keys.tlog_texts(),
        tlog_keys.tlog_ids(),
        tlog_keys.tlog_head(),
    ):
        boot.redis.delete(key)
    boot.tlog.tree.full.clear()


@pytest.mark.slow
def test_verify_names_a_log_rolled_back_below_a_head_seen(client, app, tmp_path, redis_url):
    boot = app.extensions["marketfold"]
    gid = finished(client, app, 31)
    for seed in (32, 33, 34):
        finished(client, app, seed)
    seen, keyfile = tmp_path / "head.json", tmp_path / "keys.json"
    seen.write_bytes(client.get("/v1/transparency/head").data)  # an auditor saves it
    keyfile.write_bytes(client.get("/v1/keys").data)
    assert json.loads(seen.read_text())["size"] == 13  # 4 games and the signing key's leaf
    # the operator cuts the log back to its first 10 leaves and restarts
    for key in (tlog_keys.tlog_hashes(), tlog_keys.tlog_texts()):
        boot.redis.ltrim(key, 0, 9)
    boot.redis.delete(tlog_keys.tlog_head())
    boot.tlog.tree.full.clear()
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    assert bundle["transparency"]["tree_head"]["size"] == 10
    with api_server(redis_url, MARKETFOLD_SIGNING_KEY_DIR=app.config["SIGNING_KEY_DIR"]) as (
        server,
        _,
    ):
        code, report = verify_cli(
            tmp_path, bundle, "--keys", str(keyfile), "--seen", str(seen), "--server", server
        )
    checks = {c["name"]: c for c in report["checks"]}
    assert code == 1 and not checks[log_checks.HISTORY]["ok"]
    assert checks[log_checks.HISTORY]["detail"] == (
        "the log was rolled back: a head of size 13 was seen, the server's is 10"
    )
    assert checks[log_checks.CHECK]["ok"]  # the game itself is in the rolled-back log


@pytest.mark.slow
def test_verify_names_a_fork_two_heads_of_one_size(client, app, tmp_path, redis_url):
    boot = app.extensions["marketfold"]
    gid = finished(client, app, 41)
    finished(client, app, 42)
    finished(client, app, 43)
    seen, keyfile = tmp_path / "head.json", tmp_path / "keys.json"
    seen.write_bytes(client.get("/v1/transparency/head").data)
    keyfile.write_bytes(client.get("/v1/keys").data)
    # the operator rewrites a finished game, deletes the log's keys and restarts: the
    # sweep logs every game anew, the rewritten one from its rewritten stream
    rewrite_stream(boot, gid)
    drop_log(boot)
    assert public_log.sweep(boot) == 9  # and the signing key's leaf at the next head
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    head = json.loads(seen.read_text())
    assert bundle["transparency"]["tree_head"]["size"] == head["size"] == 10
    with api_server(redis_url, MARKETFOLD_SIGNING_KEY_DIR=app.config["SIGNING_KEY_DIR"]) as (
        server,
        _,
    ):
        code, report = verify_cli(
            tmp_path, bundle, "--keys", str(keyfile), "--seen", str(seen), "--server", server
        )
    checks = {c["name"]: c for c in report["checks"]}
    assert code == 1
    for name in (log_checks.SEEN, log_checks.HISTORY):
        assert checks[name]["detail"].startswith(
            "fork: two heads of size 10 with different roots"
        ), checks[name]


def test_a_log_cut_back_raises_an_alarm_and_its_lost_game_is_not_logged_again(client, app, caplog):
    boot = app.extensions["marketfold"]
    finished(client, app, 71)
    gone = finished(client, app, 72)
    for key in (tlog_keys.tlog_hashes(), tlog_keys.tlog_texts()):  # the operator cuts the log back
        boot.redis.ltrim(key, 0, 3)  # to the first game and the signing key's leaf
    boot.redis.delete(tlog_keys.tlog_head())
    boot.tlog.tree.full.clear()
    with caplog.at_level(logging.ERROR, logger="marketfold.events"):
        assert public_log.sweep(boot) == 0  # the cut game is not logged again
        assert public_log.sweep(boot) == 0
    cut = [r for r in caplog.records if getattr(r, "alarm", None) == "tlog_cut"]
    assert sorted((r.game, r.kind) for r in cut) == sorted((gone, k) for k in transparency.KINDS)
    assert boot.tlog.size() == 4
    assert boot.tlog.indexes([f"{gone}:{k}" for k in transparency.KINDS]) == [None] * 3
    check = client.get("/readyz").get_json()["checks"]["transparency_log"]
    assert check == {"ok": False, "leaves": 4, "unindexed_leaves": 0, "alarms": 3}
    # a game played afterwards gets its own leaves, not the cut game's old places
    later = finished(client, app, 73)
    assert boot.tlog.indexes([f"{later}:{k}" for k in transparency.KINDS]) == [4, 5, 6]
    assert client.get(f"/v1/games/{gone}/transparency").get_json()["leaves"] == []
