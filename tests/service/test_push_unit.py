"""What a player does with their browsers' Web Push subscriptions, and what the push
channel does with them (service/notify/push.py), on the in-memory ports (the unit tier:
tests/support/memory_boot.py). Endpoints are literal public addresses, so nothing is
looked up, and no request leaves the process (tests/notify/test_push_channel.py delivers
to a push service on loopback that decrypts every message)."""

from __future__ import annotations

import base64
import json
import os

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from events import codec
from service.errors import Conflict, Invalid, NotFound
from service.notify import push
from service.notify.message import Message, Outcome
from tests.support.memory_boot import memory_boot

CHANNEL = push.CHANNEL
PUSH_SERVICE = "https://93.184.215.14/wpush"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


KEY = ec.generate_private_key(ec.SECP256R1()).public_key()
P256DH = b64(KEY.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))


def browser(name="b1", endpoint=PUSH_SERVICE, auth=None):
    """The PushSubscription.toJSON() a browser hands the page."""
    keys = {"p256dh": P256DH, "auth": auth or b64(os.urandom(16))}
    return {"endpoint": f"{endpoint}/{name}", "expirationTime": None, "keys": keys}


@pytest.fixture
def boot(tmp_path):
    boot = memory_boot()
    boot.config["VAPID_KEY_DIR"] = str(tmp_path)  # made on the first delivery
    return boot


def message(n=1, type_="your_turn"):
    return Message(
        id=f"n_{n}",
        player="p_ana",
        type=type_,
        lang="en",
        title="Your turn",
        body="A decision waits for you.",
        url="https://marketfold.example/#/g/g_1",
        at=codec.now_iso(),
        data={"hand": ["secret"]},
    )


def test_a_subscription_is_kept_and_listed_without_its_keys(boot):
    sub, new = push.subscribe(boot, "p_ana", browser())
    assert new and sub["id"].startswith("ps_") and sub["endpoint"] == f"{PUSH_SERVICE}/b1"
    assert push.listed(boot, "p_ana") == [sub] and set(sub) == {"id", "endpoint", "created"}
    assert push.listed(boot, "p_bea") == []


def test_the_same_endpoint_again_renews_its_keys_and_keeps_its_creation(boot):
    first, _ = push.subscribe(boot, "p_ana", browser())
    again, new = push.subscribe(boot, "p_ana", browser(auth=b64(b"k" * 16)))
    assert not new and again == first
    assert boot.push.subscription("p_ana", first["id"])["keys"]["auth"] == b64(b"k" * 16)


def test_subscriptions_are_listed_oldest_first(boot):
    ids = [push.subscribe(boot, "p_ana", browser(f"b{n}"))[0]["id"] for n in range(3)]
    assert [s["id"] for s in push.listed(boot, "p_ana")] == ids


def test_a_player_keeps_at_most_max_subscriptions_but_may_renew_one(boot):
    for n in range(push.MAX_SUBSCRIPTIONS):
        push.subscribe(boot, "p_ana", browser(f"b{n}"))
    with pytest.raises(Conflict) as err:
        push.subscribe(boot, "p_ana", browser("one-more"))
    assert err.value.code == "too_many_push_subscriptions"
    assert push.subscribe(boot, "p_ana", browser("b0"))[1] is False  # a renewal is no more
    assert len(push.listed(boot, "p_ana")) == push.MAX_SUBSCRIPTIONS


@pytest.mark.parametrize(
    "sub, field",
    [
        (browser(endpoint="http://127.0.0.1:9"), "endpoint"),
        (
            {**browser(), "keys": {"p256dh": b64(b"\x04" + b"x" * 64), "auth": b64(b"a" * 16)}},
            "keys.p256dh",
        ),
        ({**browser(), "keys": {"p256dh": P256DH, "auth": b64(b"short")}}, "keys.auth"),
    ],
)
def test_a_forbidden_endpoint_or_bad_keys_are_refused_naming_the_field(boot, sub, field):
    with pytest.raises(Invalid) as err:
        push.subscribe(boot, "p_ana", sub)
    assert field in err.value.errors
    assert push.listed(boot, "p_ana") == []


def test_unsubscribing_forgets_it_once(boot):
    sub, _ = push.subscribe(boot, "p_ana", browser())
    push.unsubscribe(boot, "p_ana", sub["id"])
    assert push.listed(boot, "p_ana") == []
    with pytest.raises(NotFound) as err:
        push.unsubscribe(boot, "p_ana", sub["id"])
    assert err.value.code == "push_subscription_not_found"


def test_every_subscribed_browser_is_a_target_whatever_the_type(boot):
    ids = [push.subscribe(boot, "p_ana", browser(f"b{n}"))[0]["id"] for n in range(2)]
    for type_ in ("your_turn", "game_finished"):
        targets = CHANNEL.targets(boot, "p_ana", type_)
        assert [t.id for t in targets] == ids
    assert targets[0].spec == {"endpoint": f"{PUSH_SERVICE}/b0"}


def test_an_endpoint_now_forbidden_is_refused_at_delivery_before_any_request(boot):
    boot.config["OUTBOUND_ALLOW"] = ["127.0.0.0/8"]
    push.subscribe(boot, "p_ana", browser(endpoint="http://127.0.0.1:9"))
    [target] = CHANNEL.targets(boot, "p_ana", "your_turn")
    boot.config["OUTBOUND_ALLOW"] = []
    outcome, detail = CHANNEL.send(boot, target, message())
    assert outcome is Outcome.REFUSED and "loopback" in detail
    CHANNEL.record(boot, target, message(), outcome, detail, 1, True)
    assert [t.id for t in CHANNEL.targets(boot, "p_ana", "your_turn")] == [target.id]


def test_a_deleted_subscription_is_refused_and_a_gone_one_is_deleted(boot):
    gone, _ = push.subscribe(boot, "p_ana", browser("gone"))
    left, _ = push.subscribe(boot, "p_ana", browser("left"))
    targets = {t.id: t for t in CHANNEL.targets(boot, "p_ana", "your_turn")}
    CHANNEL.record(boot, targets[gone["id"]], message(), Outcome.GONE, "HTTP 410", 1, True)
    assert push.listed(boot, "p_ana") == [left]
    sent = CHANNEL.send(boot, targets[gone["id"]], message())
    assert sent == (Outcome.REFUSED, "the subscription was deleted")
    CHANNEL.record(boot, targets[left["id"]], message(), Outcome.RETRY, "HTTP 503", 1, False)
    assert push.listed(boot, "p_ana") == [left]  # only a gone one is deleted


def test_the_payload_shows_the_title_body_link_and_id_and_nothing_else():
    assert json.loads(push.payload(message())) == {
        "title": "Your turn",
        "body": "A decision waits for you.",
        "url": "https://marketfold.example/#/g/g_1",
        "id": "n_1",
    }
