"""Web Push over HTTP (answers checked against openapi.yaml): the server's key, a player's
subscriptions, and the service worker the page registers."""

from tests.api.openapi_check import expect
from tests.api.spec_helpers import register
from tests.notify.push_service import push_service

SUBS = "/v1/players/me/push-subscriptions"
SUB = SUBS + "/{subscription_id}"


def test_the_key_is_a_p256_point_and_stays_the_same(api):
    key = expect(api.get("/v1/push/key"), 200)["public_key"]
    assert expect(api.get("/v1/push/key"), 200)["public_key"] == key


def test_subscribe_list_and_delete(api):
    ana, bo = register(api, 2)
    key = expect(api.get("/v1/push/key"), 200)["public_key"]
    with push_service(server_key=key) as service:
        sub = expect(api.post(SUBS, token=ana["token"], json=service.subscription()), 201)
        again = expect(api.post(SUBS, token=ana["token"], json=service.subscription()), 200)
    assert again == sub
    assert expect(api.get(SUBS, token=ana["token"]), 200)["subscriptions"] == [sub]
    assert expect(api.get(SUBS, token=bo["token"]), 200)["subscriptions"] == []
    gone = api.delete(SUB, token=bo["token"], where={"subscription_id": sub["id"]})
    expect(gone, 404, "push_subscription_not_found")
    assert (
        api.delete(SUB, token=ana["token"], where={"subscription_id": sub["id"]}).status_code == 204
    )
    assert expect(api.get(SUBS, token=ana["token"]), 200)["subscriptions"] == []


def test_bad_subscriptions_are_refused_naming_the_field(api):
    [ana] = register(api, 1)
    with push_service() as service:
        good = service.subscription()
    cases = [
        ({**good, "endpoint": "http://10.1.1.1/push"}, "url_refused", "endpoint"),
        ({**good, "keys": {**good["keys"], "p256dh": "AAAA"}}, "invalid_body", "keys.p256dh"),
        ({**good, "keys": {**good["keys"], "auth": "c2hvcnQ"}}, "invalid_body", "keys.auth"),
        ({"endpoint": good["endpoint"]}, "invalid_body", "keys"),
    ]
    for body, code, field in cases:
        problem = expect(api.post(SUBS, token=ana["token"], json=body), 422, code)
        assert field in problem["errors"], problem
    assert expect(api.get(SUBS, token=ana["token"]), 200)["subscriptions"] == []


def test_the_service_worker_is_served_at_the_root_under_the_pages_policy(api):
    resp = api.get("/sw.js")
    assert resp.status_code == 200 and resp.mimetype == "text/javascript"
    assert "script-src 'self'" in resp.headers["Content-Security-Policy"]
    assert resp.headers["Cache-Control"] == "no-cache"
    text = resp.get_data(as_text=True)
    assert "showNotification" in text and "openWindow" in text
