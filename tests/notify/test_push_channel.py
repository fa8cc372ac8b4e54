"""The Web Push channel (service/notify/push.py) delivering to a push service endpoint on
loopback that checks the VAPID token and decrypts the message with the subscription's keys."""

import pytest

from events import codec
from service.notify import push
from service.notify.message import Message, Outcome
from tests.notify.push_service import push_service

CHANNEL = push.CHANNEL


@pytest.fixture
def boot(app):
    return app.extensions["marketfold"]


def message(n=1, player="p_ana"):
    return Message(
        id=f"n_{n}",
        player=player,
        type="your_turn",
        lang="es",
        title="Tu turno en Goblin Market",
        body="Una decisión te espera: pujar.",
        url="http://localhost/#/g/g_1",
        at=codec.now_iso(),
        data={"game": "g_1", "ruleset": "goblin-market", "kind": "bid", "hand": ["secret"]},
    )


def test_a_notification_arrives_encrypted_for_the_subscription_and_vapid_signed(boot):
    with push_service(server_key=push.public_key(boot)) as service:
        sub, new = push.subscribe(boot, "p_ana", service.subscription())
        assert new and sub["endpoint"].startswith(service.origin)
        [target] = CHANNEL.targets(boot, "p_ana", "your_turn")
        assert CHANNEL.send(boot, target, message()) == (Outcome.SENT, "HTTP 201")
    assert service.errors == []
    [got] = service.delivered
    # what it shows, where a click leads, its id: nothing of Message.data (a hand)
    assert got.payload == {
        "title": "Tu turno en Goblin Market",
        "body": "Una decisión te espera: pujar.",
        "url": "http://localhost/#/g/g_1",
        "id": "n_1",
    }
    assert got.headers["Urgency"] == "high" and len(got.headers["Topic"]) <= 32
    assert got.claims["sub"] == boot.config["VAPID_SUBJECT"]


def test_the_vapid_key_is_made_once_and_kept(boot, tmp_path):
    boot.config["VAPID_KEY_DIR"] = str(tmp_path / "vapid")
    first = push.public_key(boot)
    assert (tmp_path / "vapid" / "private_key.pem").stat().st_mode & 0o077 == 0
    assert push.public_key(boot) == first and len(push._unb64(first)) == 65


def test_a_subscription_the_push_service_no_longer_knows_is_deleted(boot):
    with push_service(server_key=push.public_key(boot), status=410) as service:
        push.subscribe(boot, "p_ana", service.subscription())
        [target] = CHANNEL.targets(boot, "p_ana", "your_turn")
        outcome, detail = CHANNEL.send(boot, target, message())
        CHANNEL.record(boot, target, message(), outcome, detail, 1, True)
    assert (outcome, detail) == (Outcome.GONE, "HTTP 410")
    assert push.listed(boot, "p_ana") == []
    assert CHANNEL.targets(boot, "p_ana", "your_turn") == []


@pytest.mark.parametrize(
    "status, outcome",
    [(429, Outcome.RETRY), (503, Outcome.RETRY), (404, Outcome.GONE), (403, Outcome.REFUSED)],
)
def test_what_each_answer_of_the_push_service_means(boot, status, outcome):
    with push_service(server_key=push.public_key(boot), status=status) as service:
        push.subscribe(boot, "p_ana", service.subscription())
        [target] = CHANNEL.targets(boot, "p_ana", "your_turn")
        assert CHANNEL.send(boot, target, message())[0] is outcome


def test_the_same_endpoint_subscribed_again_is_one_subscription(boot):
    with push_service(server_key=push.public_key(boot)) as service:
        first, new = push.subscribe(boot, "p_ana", service.subscription())
        again, new_again = push.subscribe(boot, "p_ana", service.subscription())
    assert new and not new_again and first == again
    assert len(push.listed(boot, "p_ana")) == 1


def test_an_endpoint_at_a_forbidden_address_is_refused_then_and_at_delivery(boot):
    with push_service(server_key=push.public_key(boot)) as service:
        push.subscribe(boot, "p_ana", service.subscription())
        [target] = CHANNEL.targets(boot, "p_ana", "your_turn")
        boot.config["OUTBOUND_ALLOW"] = []
        outcome, detail = CHANNEL.send(boot, target, message())
        assert outcome is Outcome.REFUSED and "loopback" in detail
        with pytest.raises(Exception, match="cannot be used"):
            push.subscribe(boot, "p_ana", service.subscription("browser-2"))
    assert service.delivered == []
