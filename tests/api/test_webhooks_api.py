"""A player's webhooks over HTTP (every answer checked against openapi.yaml), delivering
to a loopback receiver that verifies each request with the `standardwebhooks` library."""

import pytest

from tests.api.openapi_check import expect
from tests.api.spec_helpers import register
from tests.notify.receivers import webhook_receiver

HOOKS = "/v1/players/me/webhooks"
HOOK = HOOKS + "/{webhook_id}"


def at(hook_id):
    return {"where": {"webhook_id": hook_id}}


def test_register_list_update_rotate_ping_and_delete(api):
    [ana] = register(api, 1)
    tok = ana["token"]
    with webhook_receiver() as rx:
        body = {"url": rx.url, "types": ["your_turn", "game_finished"]}
        hook = expect(api.post(HOOKS, token=tok, json=body), 201)
        assert hook["secret"].startswith("whsec_") and hook["enabled"] is True
        rx.secret = hook["secret"]
        listed = expect(api.get(HOOKS, token=tok), 200)["webhooks"]
        assert [h["id"] for h in listed] == [hook["id"]]
        assert "secret" not in listed[0]

        ping = expect(api.post(HOOK + "/ping", token=tok, **at(hook["id"])), 200)
        assert (ping["status"], ping["response_code"], ping["type"]) == ("sent", 204, "ping")
        [got] = rx.received
        assert got.error is None and got.payload["type"] == "ping"
        assert got.headers["webhook-id"] == ping["id"]

        rotated = expect(api.post(HOOK + "/rotate", token=tok, **at(hook["id"])), 200)
        rx.secret = rotated["secret"]
        expect(api.post(HOOK + "/ping", token=tok, **at(hook["id"])), 200)
        assert rx.received[1].error is None

        log = expect(api.get(HOOK + "/deliveries", token=tok, **at(hook["id"])), 200)
        assert [d["attempt"] for d in log["deliveries"]] == [1, 1]

        off = expect(api.patch(HOOK, token=tok, json={"enabled": False}, **at(hook["id"])), 200)
        assert off["enabled"] is False and off["disabled_reason"] == "by the player"
        on = expect(api.patch(HOOK, token=tok, json={"types": []}, **at(hook["id"])), 200)
        assert on["types"] == [] and on["enabled"] is False
        assert expect(api.get(HOOK, token=tok, **at(hook["id"])), 200)["previous_secret_until"]

    assert api.delete(HOOK, token=tok, **at(hook["id"])).status_code == 204
    expect(api.get(HOOK, token=tok, **at(hook["id"])), 404, "webhook_not_found")
    assert expect(api.get(HOOKS, token=tok), 200)["webhooks"] == []


def test_another_players_webhook_is_not_found(api):
    ana, bo = register(api, 2)
    with webhook_receiver() as rx:
        hook = expect(api.post(HOOKS, token=ana["token"], json={"url": rx.url}), 201)
    for call in (api.get, api.delete):
        expect(call(HOOK, token=bo["token"], **at(hook["id"])), 404, "webhook_not_found")
    expect(api.post(HOOK + "/ping", token=bo["token"], **at(hook["id"])), 404)
    expect(api.get(HOOK + "/deliveries", token=bo["token"], **at(hook["id"])), 404)


@pytest.mark.parametrize(
    "url, says",
    [
        ("http://169.254.169.254/latest/meta-data/", "metadata"),
        ("http://10.0.0.8/hook", "private"),
        ("http://[::1]:8080/hook", "loopback"),
        ("http://[::ffff:169.254.169.254]/", "metadata"),
        ("ftp://bot.example/hook", "only http and https"),
        ("https://no-such-host.invalid/hook", "does not resolve"),
    ],
)
def test_a_url_to_a_forbidden_address_is_refused_naming_url(api, url, says):
    [ana] = register(api, 1)
    problem = expect(api.post(HOOKS, token=ana["token"], json={"url": url}), 422, "url_refused")
    assert says in problem["errors"]["url"][0]
    assert expect(api.get(HOOKS, token=ana["token"]), 200)["webhooks"] == []


def test_changing_to_a_forbidden_url_is_refused_and_changes_nothing(api):
    [ana] = register(api, 1)
    with webhook_receiver() as rx:
        hook = expect(api.post(HOOKS, token=ana["token"], json={"url": rx.url}), 201)
        body = {"url": "http://192.168.1.1/", "enabled": False}
        expect(api.patch(HOOK, token=ana["token"], json=body, **at(hook["id"])), 422, "url_refused")
        kept = expect(api.get(HOOK, token=ana["token"], **at(hook["id"])), 200)
    assert (kept["url"], kept["enabled"]) == (rx.url, True)


def test_bad_bodies_name_the_field(api):
    [ana] = register(api, 1)
    tok = ana["token"]
    expect(api.post(HOOKS, token=tok, json={}), 422, "invalid_body")
    expect(api.post(HOOKS, token=tok, json={"url": "http://127.0.0.1/", "x": 1}), 422)
    bad = {"url": "http://127.0.0.1/", "types": ["Your Turn"]}
    assert "types" in expect(api.post(HOOKS, token=tok, json=bad), 422, "unknown_type")["errors"]
    expect(api.get(HOOKS), 401, "unauthorized")


def test_a_player_holds_at_most_ten_webhooks(api):
    [ana] = register(api, 1)
    for _ in range(10):
        expect(api.post(HOOKS, token=ana["token"], json={"url": "http://127.0.0.1:9/"}), 201)
    body = {"url": "http://127.0.0.1:9/"}
    expect(api.post(HOOKS, token=ana["token"], json=body), 409, "too_many_webhooks")
