"""The home page's Web Push toggle in headless Chromium: the page registers the service
worker at /sw.js with scope /, and the toggle is a button a keyboard reaches and presses."""

from __future__ import annotations

import json
import time

import requests

from tests.api.web_page import WebPage, new_player, no_script_errors, play_others_until_mine
from tests.support.waiting import wait_for

try:
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
except ImportError:  # browser.py reports the missing selenium
    Keys = Select = None


def test_the_home_page_registers_the_service_worker_and_the_toggle_works_by_keyboard(
    browser, shared_server
):
    page = WebPage(browser, shared_server)
    page.sign_in("Ana")
    page.wait_for("#push-toggle")
    scope = _registration(browser)
    assert scope == [f"{shared_server}/", f"{shared_server}/sw.js"]
    toggle = page.find("#push-toggle")
    assert toggle.tag_name == "button" and toggle.get_attribute("aria-pressed") == "false"
    assert page.text("#push-title") == "Notifications when I am away"
    assert page.axe() == []  # the box is labelled, the toggle named and reachable

    # grant the permission a person would grant in the prompt, then reach the toggle by Tab
    browser.execute_cdp_cmd(
        "Browser.grantPermissions", {"origin": shared_server, "permissions": ["notifications"]}
    )
    browser.execute_script(
        "document.querySelector('#push-title').setAttribute('tabindex', '-1');"
        "document.querySelector('#push-title').focus()"
    )
    for _ in range(10):
        if browser.switch_to.active_element.get_attribute("id") == "push-toggle":
            break
        browser.switch_to.active_element.send_keys(Keys.TAB)
    assert browser.switch_to.active_element.get_attribute("id") == "push-toggle"
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    said = page.wait(lambda: page.text("#push-said"), timeout=30)
    if page.find("#push-toggle").get_attribute("aria-pressed") == "true":
        assert said.startswith("This browser will show your notifications")
        subs = browser.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('/v1/players/me/push-subscriptions', {headers: {Authorization: 'Bearer ' +"
            " JSON.parse(localStorage.getItem('marketfold.player')).token}})"
            ".then((r) => r.json()).then((j) => done(j.subscriptions.length))"
        )
        assert subs == 1
    else:
        # headless Chromium has no push service to subscribe at (Firebase Cloud Messaging
        # is out of reach here): the page says it could not, and stays usable
        assert said.startswith("Could not change it:"), said
        assert page.find("#push-toggle").is_enabled()
    Select(page.find("#lang")).select_by_value("es")
    page.wait(lambda: page.text("#push-title") == "Avisos cuando no estoy")
    assert page.text("#push-toggle") in (
        "Activar avisos push",
        "Avisos push activados (desactivar)",
    )
    page.sign_out()  # it ends this browser's subscription first, if there is one
    no_script_errors(browser)


def _registration(browser):
    browser.set_script_timeout(20)
    return browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "navigator.serviceWorker.ready.then((r) => done([r.scope, r.active.scriptURL]))"
    )


def test_the_service_worker_shows_a_pushed_notification_and_keeps_its_link_on_this_site(
    browser, shared_server
):
    """Chromium's DevTools hand the worker a push message as a push service would (after
    decryption, which tests/notify/test_push_channel.py covers); the worker shows it with
    the notification's id as its tag, and a link to another site becomes the home page."""
    browser.execute_cdp_cmd(
        "Browser.grantPermissions", {"origin": shared_server, "permissions": ["notifications"]}
    )
    page = WebPage(browser, shared_server)
    page.sign_in("Ana")
    _registration(browser)
    pushed = [
        {"title": "Your turn in Goblin Market", "body": "A decision waits for you: bid.",
         "url": f"{shared_server}/#/g/g_1", "id": "n_1"},
        {"title": "Invitation to GobCon", "body": "Bo holds a seat for you.",
         "url": "https://elsewhere.example/phish", "id": "n_2"},
    ]  # fmt: skip
    browser.execute_cdp_cmd("ServiceWorker.enable", {})
    for payload in pushed:
        # the profile is new: its one registration has id 0
        browser.execute_cdp_cmd(
            "ServiceWorker.deliverPushMessage",
            {"origin": shared_server, "registrationId": "0", "data": json.dumps(payload)},
        )
    # DevTools hands the messages over asynchronously; a page script run at once lost them
    # (Chromium 156), so the page is left alone a moment first
    time.sleep(1)
    shown = page.wait(
        lambda: (
            found
            if len(
                found := browser.execute_async_script(
                    "const done = arguments[arguments.length - 1];"
                    "navigator.serviceWorker.getRegistration('/').then((r) => r.getNotifications())"
                    ".then((ns) => done(ns.map((n) => [n.title, n.body, n.tag, n.data.url])))"
                )
            )
            == 2
            else None
        )
    )
    assert sorted(shown, key=lambda n: n[2]) == [
        ["Your turn in Goblin Market", "A decision waits for you: bid.", "n_1",
         f"{shared_server}/#/g/g_1"],
        ["Invitation to GobCon", "Bo holds a seat for you.", "n_2", f"{shared_server}/"],
    ]  # fmt: skip
    no_script_errors(browser)


# Chromium reaches no push service here (it speaks only to Google's), so the page's
# PushManager is handed the loopback push service's subscription, whose private key and
# auth secret the test holds as a browser would (tests/notify/push_service.py). Everything
# else is the product's own: the toggle, the VAPID key, the API, the worker's encryption,
# the delivery, and the service worker showing what the push service hands the browser.
PLATFORM = """
const made = JSON.parse(arguments[0]);
let held = null;
PushManager.prototype.subscribe = async function (options) {
  const key = new Uint8Array(options.applicationServerKey);
  window.__pushKey = btoa(String.fromCharCode(...key))
    .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  held = { endpoint: made.endpoint, toJSON: () => made,
           unsubscribe: async () => { held = null; return true; } };
  return held;
};
PushManager.prototype.getSubscription = async function () { return held; };
"""


def test_a_browser_subscribed_by_its_toggle_is_pushed_its_players_turn_while_away(
    browser, shared_server, worker_process
):
    from tests.notify.push_service import push_service
    from tests.reliability.load import auth

    base = shared_server
    with push_service() as service:
        worker_process(MARKETFOLD_PUBLIC_URL=base)  # a turn unseen for a second goes out
        browser.execute_cdp_cmd(
            "Browser.grantPermissions", {"origin": base, "permissions": ["notifications"]}
        )
        page = WebPage(browser, base)
        bo = page.sign_in("Bo", handle="bo")
        page.wait(lambda: page.find("#push-toggle").is_enabled())
        browser.execute_script(PLATFORM, json.dumps(service.subscription("bo-browser")))
        page.find("#push-toggle").send_keys(Keys.ENTER)
        page.wait(lambda: page.find("#push-toggle").get_attribute("aria-pressed") == "true")
        key = requests.get(f"{base}/v1/push/key", timeout=10).json()["public_key"]
        assert browser.execute_script("return window.__pushKey") == key
        service.server_key = key
        listed = requests.get(
            f"{base}/v1/players/me/push-subscriptions", headers=auth(bo["token"]), timeout=10
        ).json()["subscriptions"]
        assert [s["endpoint"] for s in listed] == [f"{service.origin}/wpush/bo-browser"]

        table_tab = browser.current_window_handle  # Bo closes the site's only tab
        browser.switch_to.new_window("tab")
        away_tab = browser.current_window_handle
        browser.switch_to.window(table_tab)
        browser.close()
        browser.switch_to.window(away_tab)
        ana, cy = new_player(base, "Ana"), new_player(base, "Cy")
        body = {"ruleset": "goblin-market", "players": 3, "decision_timeout_s": 3600}
        made = requests.post(f"{base}/v1/games", json=body, headers=auth(ana["token"]))
        gid = made.json()["id"]
        for p in (ana, bo, cy):
            requests.post(f"{base}/v1/games/{gid}/join", headers=auth(p["token"]), timeout=10)
        play_others_until_mine(base, gid, bo, [ana, cy])
        turn = wait_for(
            lambda: next(
                (d for d in service.delivered if d.payload["title"].startswith("Your turn")),
                None,
            ),
            timeout=30,
        )
        assert not service.errors, service.errors  # decrypted with the browser's keys
        assert turn.payload["title"] == "Your turn in Goblin Market"
        assert turn.payload["url"] == f"{base}/#/g/{gid}"
        assert "hand" not in json.dumps(turn.payload)  # nothing hidden rides along

        # back at the site, the same notification waits in the inbox (what the service
        # worker does with a pushed message: the test above)
        page.open("/")
        note = f'#inbox li.note.unread a[href="#/g/{gid}"]'
        page.wait(lambda: "Your turn in Goblin Market" in page.texts(note), timeout=15)
        no_script_errors(browser)
