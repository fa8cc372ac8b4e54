"""Black Market wild trade: others learn nothing of a private offer, its decline or its
withdrawal (not their number, not their timing) until the game ends: no version, ETag,
feed or stream entry moves for them; the export and the audit cover them after the end
(issue #33 point 3; rules version 2's inline placeholders still verify)."""

from __future__ import annotations

import json
import shutil
import subprocess

from tests.api.helpers import bearer, play_to_end
from tests.api.openapi_check import assert_matches
from tests.api.wild_trade import act, legal_offer, wild_trade
from tests.conftest import ROOT

NODE = shutil.which("node")
PRIVATE = ("black-market.OfferMade", "black-market.OfferDeclined", "black-market.OfferWithdrawn")


def _stream(client, gid: str, headers: dict, version: int) -> list[tuple[str, dict]]:
    """Read the SSE stream from the start up to `version`: (event name, data) frames."""
    res = client.get(f"/v1/games/{gid}/events/stream", headers=headers, buffered=False)
    frames, text = [], ""
    for chunk in res.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        *done, text = text.split("\n\n")
        for frame in done:
            lines = dict(ln.split(": ", 1) for ln in frame.split("\n") if ": " in ln)
            if "data" in lines and "id" in lines:  # an event (not a chat line)
                data = json.loads(lines["data"])
                data.pop("owes", None)  # what a seated caller owes: not part of the event
                frames.append((lines["event"], data))
        if frames and frames[-1][1]["seq"] >= version:
            break
    res.close()
    return frames


def test_others_learn_nothing_of_private_offers_declines_and_withdrawals_until_the_end(
    client, app, tmp_path
):
    gid, seats, rnd = wild_trade(client, app)
    a, b, c = seats[0], seats[1], seats[2]
    outsiders = (bearer(c), {})
    before = {}
    for who in outsiders:
        res = client.get(f"/v1/games/{gid}", headers=who)
        feed = client.get(f"/v1/games/{gid}/events", headers=who).get_json()["events"]
        before[str(who)] = (res.headers["ETag"], res.get_json()["version"], feed)
    version = before[str({})][1]
    etag_a = client.get(f"/v1/games/{gid}", headers=bearer(a)).headers["ETag"]

    made = act(client, gid, a, legal_offer(client, gid, a, 1, rnd))
    step = made["events"][0]
    assert step["type"] == "black-market.OfferMade" and step["data"]["to"] == 1
    assert (made["version"], step["seq"]) == (version, version)
    # nothing that counts the private log's steps of others: no number there, no links
    assert not {"private", "prev", "hash", "salt"} & set(step)
    assert_matches("ActionResult", made)
    act(client, gid, b, {"type": "decline", "offer": step["data"]["id"]})
    again = act(client, gid, a, legal_offer(client, gid, a, 1, rnd))["events"][0]
    act(client, gid, a, {"type": "withdraw", "offer": again["data"]["id"]})
    third = act(client, gid, a, legal_offer(client, gid, a, 1, rnd))["events"][0]

    # nothing a third seat or a spectator can read moved: version, ETag, feed, stream
    for who in outsiders:
        res = client.get(f"/v1/games/{gid}", headers=who)
        feed = client.get(f"/v1/games/{gid}/events", headers=who).get_json()["events"]
        assert (res.headers["ETag"], res.get_json()["version"], feed) == before[str(who)]
        assert (
            client.get(
                f"/v1/games/{gid}", headers={**who, "If-None-Match": res.headers["ETag"]}
            ).status_code
            == 304
        )
        assert not any(e["type"] in (*PRIVATE, "hidden") for e in feed)
        assert [data for _, data in _stream(client, gid, who, version)] == feed
        assert third["data"]["id"] not in json.dumps(res.get_json())
    # the parties see their offer, and their ETag moved (the version did not)
    res = client.get(f"/v1/games/{gid}", headers=bearer(a))
    assert res.get_json()["version"] == version and res.headers["ETag"] != etag_a
    assert third["data"]["id"] in json.dumps(res.get_json()["view"])
    assert res.headers["ETag"] == f'"{version}.5"'  # five private steps seat 0 is party to

    # once the game is over, everything opens and the export verifies, private steps too
    play_to_end(client, app, gid, seats, rnd)
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    steps = bundle["private"]
    assert [e["private"] for e in steps][:5] == [1, 2, 3, 4, 5]
    assert [e["type"] for e in steps[:5]] == [*PRIVATE[:2], PRIVATE[0], PRIVATE[2], PRIVATE[0]]
    assert client.post("/v1/verify", json=bundle).get_json()["ok"]
    forged = json.loads(json.dumps(bundle))
    forged["private"][1]["data"]["from"] = 2
    report = client.post("/v1/verify", json=forged).get_json()
    assert not report["ok"] and report["checks"][0]["name"] == "hash chain"
    if NODE:  # the Node re-deriver checks the private chain and the signature over it too
        keys, path = tmp_path / "keys.json", tmp_path / "game.json"
        keys.write_bytes(client.get("/v1/keys").data)
        node = [NODE, str(ROOT / "tools" / "rederive.js"), "--keys", str(keys), str(path)]
        path.write_text(json.dumps(bundle))
        done = subprocess.run(node, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout
        path.write_text(json.dumps(forged))
        done = subprocess.run(node, capture_output=True, text=True)
        assert "FAIL hash chain: private step 2" in done.stdout, done.stdout


def test_a_wild_game_of_rules_version_2_keeps_its_inline_private_events_and_still_verifies(
    client, app, monkeypatch
):
    import games

    old = games.ARCHIVE[("black-market", 2)]
    with monkeypatch.context() as m:  # created and played while version 2 was current
        m.setitem(games.REGISTRY, "black-market", old)
        gid, seats, rnd = wild_trade(client, app)
        a = seats[0]
        made = act(client, gid, a, legal_offer(client, gid, a, 1, rnd))["events"][0]
        assert "private" not in made and made["seq"] > 1  # in the public log, as then
    # version 3 is current again: the game goes on under its own rules (inline steps)
    again = act(client, gid, a, legal_offer(client, gid, a, 1, rnd))["events"][0]
    assert "private" not in again
    feed = client.get(f"/v1/games/{gid}/events", headers=bearer(seats[2])).get_json()["events"]
    assert [e["type"] for e in feed if e["seq"] in (made["seq"], again["seq"])] == ["hidden"] * 2
    play_to_end(client, app, gid, seats, rnd)
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    assert bundle["game"]["rules_version"] == 2 and "private" not in bundle
    assert client.post("/v1/verify", json=bundle).get_json()["ok"]


def test_a_private_step_is_retried_by_its_key_and_if_match_takes_a_partys_etag(client, app):
    gid, seats, rnd = wild_trade(client, app)
    a = seats[0]
    offer = legal_offer(client, gid, a, 1, rnd)
    etag = client.get(f"/v1/games/{gid}", headers=bearer(a)).headers["ETag"]
    headers = {**bearer(a), "Idempotency-Key": "offer-1", "If-Match": etag}
    first = client.post(f"/v1/games/{gid}/actions", json=offer, headers=headers)
    assert first.status_code in (201, 202), first.get_json()
    again = client.post(f"/v1/games/{gid}/actions", json=offer, headers=headers)
    assert again.get_json()["events"] == first.get_json()["events"]  # the same private step
    moved = client.get(f"/v1/games/{gid}", headers=bearer(a)).headers["ETag"]
    assert moved.startswith(etag.rstrip('"')) and "." in moved  # "<version>.1"
    withdraw = {"type": "withdraw", "offer": first.get_json()["events"][0]["data"]["id"]}
    res = client.post(
        f"/v1/games/{gid}/actions", json=withdraw, headers={**bearer(a), "If-Match": moved}
    )
    assert res.status_code in (201, 202), res.get_json()
    assert "private" not in res.get_json()["events"][0]  # its place in others' steps
