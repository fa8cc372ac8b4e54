"""What a player does with their webhooks (service/notify/webhooks.py) and what a
delivery attempt leaves (service/notify/webhook_delivery.py), on the in-memory ports (the
unit tier: tests/support/memory_boot.py). URLs are literal public addresses, so nothing is
looked up; no request leaves the process: a delivery here is refused before any socket
(tests/notify/test_webhook_channel.py delivers to a real receiver)."""

from __future__ import annotations

import time

import pytest

from events import codec
from service.errors import Conflict, Invalid, NotFound
from service.notify import webhook_delivery, webhooks
from service.notify.message import Message, Outcome, Target

CHANNEL = webhook_delivery.CHANNEL
URL = "https://93.184.215.14/hooks/marketfold"
LOOPBACK = "http://127.0.0.1:9/hook"


def message(n=1, type_="your_turn", player="p_ana"):
    return Message(
        id=f"n_{n}",
        player=player,
        type=type_,
        lang="en",
        title="Your turn",
        body="A decision waits for you.",
        url="https://marketfold.example/#/games/g_1",
        at=codec.now_iso(),
        data={"game": "g_1"},
    )


def test_a_created_webhook_shows_its_secret_once_and_lists_without_it(boot):
    hook = webhooks.create(boot, "p_ana", URL, ["your_turn", "your_turn"])
    assert hook["secret"].startswith("whsec_") and hook["id"].startswith("wh_")
    assert hook["types"] == ["your_turn"] and hook["enabled"] and hook["failures"] == 0
    [listed] = webhooks.listed(boot, "p_ana")
    assert "secret" not in listed and listed == webhooks.shown(boot, "p_ana", hook["id"])
    assert {k: hook[k] for k in listed} == listed
    assert webhooks.listed(boot, "p_bea") == []


def test_webhooks_are_listed_oldest_first(boot):
    ids = [webhooks.create(boot, "p_ana", f"{URL}/{n}", None)["id"] for n in range(3)]
    assert [h["id"] for h in webhooks.listed(boot, "p_ana")] == ids


def test_a_player_keeps_at_most_max_webhooks(boot):
    for n in range(webhooks.MAX_WEBHOOKS):
        webhooks.create(boot, "p_ana", f"{URL}/{n}", None)
    with pytest.raises(Conflict) as err:
        webhooks.create(boot, "p_ana", URL, None)
    assert err.value.code == "too_many_webhooks"
    assert len(webhooks.listed(boot, "p_ana")) == webhooks.MAX_WEBHOOKS
    webhooks.create(boot, "p_bea", URL, None)  # the limit is per player


@pytest.mark.parametrize(
    "url, types, code",
    [
        (LOOPBACK, None, "url_refused"),
        ("ftp://93.184.215.14/x", None, "url_refused"),
        (URL, ["no_such_type"], "unknown_type"),
        (URL, ["your_turn"] * (webhooks.MAX_TYPES + 1), "invalid_body"),
    ],
)
def test_a_bad_url_or_type_is_refused_and_nothing_kept(boot, url, types, code):
    with pytest.raises(Invalid) as err:
        webhooks.create(boot, "p_ana", url, types)
    assert err.value.code == code
    assert webhooks.listed(boot, "p_ana") == []


def test_an_unknown_webhook_is_not_found_for_every_use(boot):
    other = webhooks.create(boot, "p_bea", URL, None)["id"]  # not p_ana's
    for use in (
        lambda: webhooks.shown(boot, "p_ana", other),
        lambda: webhooks.update(boot, "p_ana", other, {"enabled": False}),
        lambda: webhooks.delete(boot, "p_ana", other),
        lambda: webhooks.rotate(boot, "p_ana", other),
        lambda: webhooks.deliveries(boot, "p_ana", other),
        lambda: webhooks.ping(boot, "p_ana", other, "https://marketfold.example/"),
    ):
        with pytest.raises(NotFound) as err:
            use()
        assert err.value.code == "webhook_not_found"
    assert webhooks.shown(boot, "p_bea", other)["enabled"] is True


def test_an_update_changes_what_it_names_and_a_bad_one_changes_nothing(boot):
    hook = webhooks.create(boot, "p_ana", URL, None)
    shown = webhooks.update(boot, "p_ana", hook["id"], {"types": ["your_turn"]})
    assert shown["types"] == ["your_turn"] and shown["url"] == URL
    with pytest.raises(Invalid):
        webhooks.update(boot, "p_ana", hook["id"], {"url": LOOPBACK, "enabled": False})
    assert webhooks.shown(boot, "p_ana", hook["id"]) == shown


def test_disabling_by_hand_says_so_and_enabling_again_clears_the_failures(boot):
    hook = webhooks.create(boot, "p_ana", URL, None)
    target = Target("webhook", hook["id"], {"url": URL})
    for n in (1, 2):
        CHANNEL.record(boot, target, message(n), Outcome.RETRY, "HTTP 500", 1, False)
    off = webhooks.update(boot, "p_ana", hook["id"], {"enabled": False})
    assert off["enabled"] is False and off["disabled_reason"] == "by the player"
    assert off["failures"] == 2
    on = webhooks.update(boot, "p_ana", hook["id"], {"enabled": True})
    assert on["enabled"] and on["disabled_reason"] is None and on["failures"] == 0


def test_a_rotation_gives_a_new_secret_and_the_old_one_signs_for_a_day(boot):
    hook = webhooks.create(boot, "p_ana", URL, None)
    rotated = webhooks.rotate(boot, "p_ana", hook["id"])
    assert rotated["secret"] != hook["secret"] and rotated["secret"].startswith("whsec_")
    until = codec.parse_time(rotated["previous_until"]).timestamp()
    assert abs(until - time.time() - webhooks.ROTATE_OVERLAP_S) < 60
    assert webhooks.shown(boot, "p_ana", hook["id"])["previous_secret_until"]
    record = boot.webhooks.endpoint("p_ana", hook["id"])
    headers = webhook_delivery.signed_headers(record, message(), b"{}")
    assert len(headers["webhook-signature"].split()) == 2  # one per live secret


def test_targets_are_the_enabled_webhooks_that_want_the_type(boot):
    every = webhooks.create(boot, "p_ana", f"{URL}/every", None)["id"]
    turns = webhooks.create(boot, "p_ana", f"{URL}/turns", ["your_turn"])["id"]
    off = webhooks.create(boot, "p_ana", f"{URL}/off", None)["id"]
    webhooks.update(boot, "p_ana", off, {"enabled": False})
    ids = lambda type_: [t.id for t in CHANNEL.targets(boot, "p_ana", type_)]  # noqa: E731
    assert ids("your_turn") == [every, turns]
    assert ids("game_finished") == [every]
    [target] = CHANNEL.targets(boot, "p_ana", "game_finished")
    assert target.spec == {"url": f"{URL}/every"}


def test_a_deleted_or_disabled_webhook_is_refused_at_delivery_and_not_counted(boot):
    hook = webhooks.create(boot, "p_ana", URL, None)
    target = Target("webhook", hook["id"], {"url": URL})
    webhooks.update(boot, "p_ana", hook["id"], {"enabled": False})
    sent = CHANNEL.send(boot, target, message())
    assert sent == (Outcome.REFUSED, "the webhook is disabled")
    CHANNEL.record(boot, target, message(), *sent, 1, True)
    assert webhooks.shown(boot, "p_ana", hook["id"])["failures"] == 0
    assert [d["detail"] for d in webhooks.deliveries(boot, "p_ana", hook["id"])] == [sent[1]]
    webhooks.delete(boot, "p_ana", hook["id"])
    assert CHANNEL.send(boot, target, message()) == (Outcome.REFUSED, "the webhook was deleted")
    assert webhooks.listed(boot, "p_ana") == []


def test_the_delivery_log_is_newest_first_with_status_codes_and_capped(boot):
    hook = webhooks.create(boot, "p_ana", URL, None)
    target = Target("webhook", hook["id"], {"url": URL})
    kept = webhook_delivery.DELIVERIES_KEPT
    for n in range(1, kept + 3):
        CHANNEL.record(boot, target, message(n), Outcome.SENT, "HTTP 204", 1, True)
    CHANNEL.record(boot, target, message(0), Outcome.RETRY, "timed out", 2, False)
    log = webhooks.deliveries(boot, "p_ana", hook["id"])
    assert len(log) == kept
    assert log[0]["id"] == "n_0" and log[0]["attempt"] == 2
    assert log[0]["status"] == "retry" and log[0]["response_code"] is None
    assert log[1]["id"] == f"n_{kept + 2}" and log[1]["response_code"] == 204
    assert webhooks.shown(boot, "p_ana", hook["id"])["failures"] == 1


def test_failures_in_a_row_are_counted_and_a_success_resets_them(boot):
    hook = webhooks.create(boot, "p_ana", URL, None)
    target = Target("webhook", hook["id"], {"url": URL})
    for n in (1, 2, 3):
        CHANNEL.record(boot, target, message(n), Outcome.RETRY, "HTTP 503", 1, False)
    shown = webhooks.shown(boot, "p_ana", hook["id"])
    assert shown["failures"] == 3 and shown["enabled"]  # below WEBHOOK_DISABLE_AFTER
    CHANNEL.record(boot, target, message(4), Outcome.SENT, "HTTP 200", 1, True)
    assert webhooks.shown(boot, "p_ana", hook["id"])["failures"] == 0


def test_a_ping_to_a_now_forbidden_address_is_refused_logged_and_not_counted(boot):
    boot.config["OUTBOUND_ALLOW"] = ["127.0.0.0/8"]
    hook = webhooks.create(boot, "p_ana", LOOPBACK, None)
    boot.config["OUTBOUND_ALLOW"] = []  # the operator no longer allows loopback
    attempt = webhooks.ping(boot, "p_ana", hook["id"], "https://marketfold.example/")
    assert attempt["type"] == "ping" and attempt["status"] == "refused"
    assert attempt["detail"].startswith("refused: 127.0.0.1")
    assert webhooks.deliveries(boot, "p_ana", hook["id"]) == [attempt]
    assert webhooks.shown(boot, "p_ana", hook["id"])["failures"] == 0


def test_a_deleted_webhook_leaves_no_log_behind(boot):
    hook = webhooks.create(boot, "p_ana", URL, None)
    target = Target("webhook", hook["id"], {"url": URL})
    CHANNEL.record(boot, target, message(), Outcome.RETRY, "HTTP 500", 1, False)
    webhooks.delete(boot, "p_ana", hook["id"])
    assert boot.webhooks.deliveries(hook["id"], 10) == []
    assert boot.webhooks.failures("p_ana") == {}
