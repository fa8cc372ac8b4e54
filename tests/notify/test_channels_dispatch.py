"""The webhook and Web Push channels through the dispatcher (service/notify/dispatch.py) on
a real `marketfold worker`: a turn that became a player's reaches their webhook (verified
with `standardwebhooks`) and their browser's push service (decrypted with the
subscription's keys); a failing receiver is retried with the same webhook-id; one that
keeps failing is disabled, and its owner is told so, by push too."""

from __future__ import annotations

import time
from contextlib import ExitStack

import pytest

from service.notify import inbox
from tests.api.helpers import bearer, new_game, new_players
from tests.notify.push_service import push_service
from tests.notify.receivers import webhook_receiver

pytestmark = pytest.mark.slow
BASE = "http://play.example"


def _worker(worker_process, **env: str):
    return worker_process(
        MARKETFOLD_PUBLIC_URL=BASE,
        MARKETFOLD_NOTIFY_LIVE_DELAY_S="1",
        MARKETFOLD_NOTIFY_RETRY_S="[1, 1, 1, 1]",
        **env,
    )


def _hook(client, player, rx, types=None) -> dict:
    body = {"url": rx.url, **({"types": types} if types is not None else {})}
    res = client.post("/v1/players/me/webhooks", json=body, headers=bearer(player))
    assert res.status_code == 201, res.get_json()
    rx.secret = res.get_json()["secret"]
    return res.get_json()


def _subscribe(client, player, service) -> None:
    sub = service.subscription(player["id"])
    res = client.post("/v1/players/me/push-subscriptions", json=sub, headers=bearer(player))
    assert res.status_code == 201, res.get_json()


def _inbox(client, player) -> list[dict]:
    res = client.get("/v1/players/me/notifications?limit=100", headers=bearer(player))
    return res.get_json()["notifications"]


def test_a_turn_reaches_the_players_webhook_and_browser(client, worker_process):
    players = new_players(client, 3)
    key = client.get("/v1/push/key").get_json()["public_key"]
    with push_service(server_key=key) as service, ExitStack() as stack:
        receivers = {p["id"]: stack.enter_context(webhook_receiver()) for p in players}
        for p in players:
            _hook(client, p, receivers[p["id"]], types=["your_turn"])
            _subscribe(client, p, service)
        gid = new_game(client, players, decision_timeout_s=600)
        _worker(worker_process)
        [me] = [p for p in players if any(n["type"] == "your_turn" for n in _inbox(client, p))]
        turn = next(n for n in _inbox(client, me) if n["type"] == "your_turn")
        pushed = _wait(lambda: service.delivered)
        [got] = receivers[me["id"]].wait_for(1)
    assert got.error is None
    assert got.headers["webhook-id"] == turn["id"]
    assert got.payload["type"] == "your_turn" and got.payload["game"] == gid
    assert got.payload["url"] == f"{BASE}/#/g/{gid}"
    assert set(got.payload) <= {
        "id",
        "type",
        "at",
        "url",
        "game",
        "ruleset",
        "league",
        "kind",
        "simultaneous",
        "deadline",
        "version",
    }  # the catalog's fields: no hand, no offer
    assert service.errors == []
    [push] = pushed
    assert push.path == f"/wpush/{me['id']}"
    assert push.payload["id"] == turn["id"] and push.payload["url"] == f"{BASE}/#/g/{gid}"
    assert push.payload["title"].startswith("Your turn in ")
    time.sleep(1.5)
    others = [p for p in players if p is not me]
    assert all(receivers[p["id"]].received == [] for p in others)  # they owe nothing
    assert len(service.delivered) == 1


def test_a_failing_webhook_is_retried_with_the_same_id_until_it_answers(
    client, app, worker_process
):
    [ana] = new_players(client, 1)
    deps = app.extensions["marketfold"]
    with webhook_receiver(plan=[500, 503]) as rx:
        hook = _hook(client, ana, rx)
        _worker(worker_process)
        nid = inbox.emit(deps, ana["id"], {"type": "rematch", "game": "g_x", "rematch_of": "g_w"})
        got = rx.wait_for(3)
    assert {r.headers["webhook-id"] for r in got} == {nid}
    assert all(r.error is None for r in got) and got[0].payload["rematch_of"] == "g_w"
    log = client.get(
        f"/v1/players/me/webhooks/{hook['id']}/deliveries", headers=bearer(ana)
    ).get_json()["deliveries"]
    assert [(d["attempt"], d["status"], d["response_code"]) for d in log] == [
        (3, "sent", 204),
        (2, "retry", 503),
        (1, "retry", 500),
    ]


def test_a_webhook_that_keeps_failing_is_disabled_and_its_owner_told_by_push(
    client, worker_process
):
    [ana] = new_players(client, 1)
    key = client.get("/v1/push/key").get_json()["public_key"]
    with webhook_receiver(status=500) as rx, push_service(server_key=key) as service:
        hook = _hook(client, ana, rx)
        _subscribe(client, ana, service)
        _worker(worker_process, MARKETFOLD_WEBHOOK_DISABLE_AFTER="3")
        res = client.post(
            f"/v1/players/me/webhooks/{hook['id']}/ping", headers=bearer(ana)
        )  # a ping's failure does not count
        assert res.get_json()["status"] == "retry"
        deps = client.application.extensions["marketfold"]
        inbox.emit(deps, ana["id"], {"type": "rematch", "game": "g_x", "rematch_of": "g_w"})
        told = _wait(lambda: [n for n in _inbox(client, ana) if n["type"] == "webhook_disabled"])
        pushed = _wait(
            lambda: [d for d in service.delivered if "webhook" in d.payload["title"].lower()]
        )
        time.sleep(2.5)  # the delivery's later retries find the webhook disabled
        assert len(rx.received) == 1 + 3
    shown = client.get(f"/v1/players/me/webhooks/{hook['id']}", headers=bearer(ana)).get_json()
    assert shown["enabled"] is False and shown["failures"] == 3
    assert "3 failed deliveries in a row" in shown["disabled_reason"]
    assert told[0]["title"] == "A webhook of yours was disabled"
    assert (told[0]["note"]["webhook"], told[0]["note"]["failures"]) == (hook["id"], 3)
    assert pushed[0].payload["title"] == "A webhook of yours was disabled"


def _wait(found, timeout: float = 20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if got := found():
            return got
        time.sleep(0.1)
    raise AssertionError("timed out")
