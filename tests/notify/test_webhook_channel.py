"""The webhook channel (service/notify/webhooks.py) delivering to a real receiver on
loopback that verifies every request with the `standardwebhooks` library."""

import json
import time

import pytest

from events import codec
from service.notify import webhook_delivery, webhooks
from service.notify.message import Message, Outcome
from tests.notify.receivers import webhook_receiver

CHANNEL = webhook_delivery.CHANNEL


@pytest.fixture
def boot(app):
    return app.extensions["marketfold"]


def message(player="p_ana", n=1, type_="your_turn", **data):
    return Message(
        id=f"n_{n}",
        player=player,
        type=type_,
        lang="en",
        title="Your turn in Goblin Market",
        body="A decision waits for you: bid.",
        url="http://localhost/#/games/g_1",
        at=codec.now_iso(),
        data={"game": "g_1", "ruleset": "goblin-market", "kind": "bid", **data},
    )


def register(boot, rx, types=None, player="p_ana"):
    """Register the receiver's URL and give it the secret, as its owner would."""
    hook = webhooks.create(boot, player, rx.url, types)
    rx.secret = hook["secret"]
    return hook


def attempt(boot, target, msg, n=1, final=False):
    outcome, detail = CHANNEL.send(boot, target, msg)
    CHANNEL.record(boot, target, msg, outcome, detail, n, final)
    return outcome, detail


def test_a_delivery_is_signed_as_standard_webhooks_says(boot):
    with webhook_receiver() as rx:
        hook = register(boot, rx)
        assert hook["secret"].startswith("whsec_")
        [target] = CHANNEL.targets(boot, "p_ana", "your_turn")
        msg = message(deadline="2030-01-01T00:00:00.000Z")
        assert attempt(boot, target, msg) == (Outcome.SENT, "HTTP 204")
        [got] = rx.received
    assert got.error is None
    assert got.headers["webhook-id"] == "n_1"
    assert abs(int(got.headers["webhook-timestamp"]) - time.time()) < 5
    assert got.payload == {
        "game": "g_1",
        "ruleset": "goblin-market",
        "kind": "bid",
        "deadline": "2030-01-01T00:00:00.000Z",
        "id": "n_1",
        "type": "your_turn",
        "at": msg.at,
        "url": "http://localhost/#/games/g_1",
    }
    [logged] = webhooks.deliveries(boot, "p_ana", hook["id"])
    assert logged["id"] == "n_1" and logged["attempt"] == 1
    assert logged["status"] == "sent" and logged["response_code"] == 204


def test_a_receiver_with_another_secret_cannot_verify(boot):
    with webhook_receiver() as rx:
        hook = register(boot, rx)
        rx.secret = webhooks.new_secret()
        [target] = CHANNEL.targets(boot, "p_ana", "your_turn")
        attempt(boot, target, message())
        [got] = rx.received
    assert got.payload is None and "signature" in got.error
    assert hook["secret"] != rx.secret


def test_a_webhook_gets_only_the_types_it_asked_for(boot):
    with webhook_receiver() as rx:
        register(boot, rx, ["game_finished"])
        assert CHANNEL.targets(boot, "p_ana", "your_turn") == []
        assert len(CHANNEL.targets(boot, "p_ana", "game_finished")) == 1
        assert CHANNEL.targets(boot, "p_bo", "game_finished") == []


def test_after_a_rotation_both_secrets_sign_for_a_day(boot):
    with webhook_receiver() as rx:
        hook = register(boot, rx)
        new = webhooks.rotate(boot, "p_ana", hook["id"])
        assert new["secret"] != hook["secret"] and new["previous_until"]
        [target] = CHANNEL.targets(boot, "p_ana", "your_turn")
        rx.secret = hook["secret"]
        attempt(boot, target, message(n=1))
        rx.secret = new["secret"]
        attempt(boot, target, message(n=2))
    assert [r.error for r in rx.received] == [None, None]
    assert len(rx.received[0].headers["webhook-signature"].split(" ")) == 2


def test_a_failing_receiver_is_retried_then_recovers_and_the_log_says_so(boot):
    """Each failed attempt is a RETRY for the dispatcher's backoff; the same webhook-id
    comes again, so the receiver can tell the second delivery from a new one."""
    with webhook_receiver(plan=[500, 503]) as rx:
        hook = register(boot, rx)
        [target] = CHANNEL.targets(boot, "p_ana", "your_turn")
        msg = message()
        outcomes = [attempt(boot, target, msg, n)[0] for n in (1, 2, 3)]
    assert outcomes == [Outcome.RETRY, Outcome.RETRY, Outcome.SENT]
    assert {r.headers["webhook-id"] for r in rx.received} == {"n_1"}
    assert all(r.error is None for r in rx.received)
    log = webhooks.deliveries(boot, "p_ana", hook["id"])
    assert [(d["attempt"], d["status"], d["response_code"]) for d in log] == [
        (3, "sent", 204),
        (2, "retry", 503),
        (1, "retry", 500),
    ]
    assert webhooks.shown(boot, "p_ana", hook["id"])["failures"] == 0


def test_a_receiver_that_always_fails_is_disabled_and_its_owner_told(boot, r):
    boot.config["WEBHOOK_DISABLE_AFTER"] = 3
    with webhook_receiver(status=500) as rx:
        hook = register(boot, rx)
        [target] = CHANNEL.targets(boot, "p_ana", "your_turn")
        for n in range(3):
            assert attempt(boot, target, message(n=n))[0] is Outcome.RETRY
        assert len(rx.received) == 3
        shown = webhooks.shown(boot, "p_ana", hook["id"])
        assert shown["enabled"] is False and "3 failed deliveries" in shown["disabled_reason"]
        assert CHANNEL.targets(boot, "p_ana", "your_turn") == []
        # a delivery planned before it was disabled is not sent
        assert CHANNEL.send(boot, target, message(n=9))[0] is Outcome.REFUSED
        assert len(rx.received) == 3
    notes = [json.loads(f[b"n"]) for _, f in r.xrange("mf:player:p_ana:feed")]
    assert [(n["type"], n["webhook"], n["failures"]) for n in notes] == [
        ("webhook_disabled", hook["id"], 3)
    ]


def test_a_slow_receiver_does_not_hold_the_worker_past_the_deadline(boot):
    boot.config["OUTBOUND_TIMEOUT_S"] = 1
    with webhook_receiver(delay=10) as rx:
        register(boot, rx)
        [target] = CHANNEL.targets(boot, "p_ana", "your_turn")
        started = time.monotonic()
        outcome, detail = CHANNEL.send(boot, target, message())
        took = time.monotonic() - started
    assert outcome is Outcome.RETRY and "1 s" in detail
    assert took < 2.5


def test_a_url_that_now_resolves_to_a_forbidden_address_is_refused_at_delivery(boot):
    with webhook_receiver() as rx:
        register(boot, rx)
        [target] = CHANNEL.targets(boot, "p_ana", "your_turn")
        boot.config["OUTBOUND_ALLOW"] = []  # the operator withdrew the loopback allowance
        outcome, detail = CHANNEL.send(boot, target, message())
    assert outcome is Outcome.REFUSED and "loopback" in detail
    assert rx.received == []
