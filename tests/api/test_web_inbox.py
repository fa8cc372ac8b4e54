"""The web client's inbox in headless Chromium: a your-turn notification on the home page,
the unread count in the header, marking read, and the settings panel (EN and ES), with
screenshots at phone and desktop widths left for a person to look at."""

from __future__ import annotations

import requests

from tests.api.web_page import WIDTHS, WebPage, new_player, no_script_errors, play_others_until_mine
from tests.reliability.load import auth

try:
    from selenium.webdriver.support.ui import Select
except ImportError:  # browser.py reports the missing selenium
    Select = None


def test_the_home_page_shows_my_turn_in_the_inbox_with_the_unread_count_and_marks_it_read(
    shared_browser, shared_server
):
    base = shared_server
    page = WebPage(shared_browser, base)
    bo = page.sign_in("Bo", handle="bo")
    ana, cy = new_player(base, "Ana"), new_player(base, "Cy")
    body = {"ruleset": "goblin-market", "players": 3, "decision_timeout_s": 3600}
    gid = requests.post(f"{base}/v1/games", json=body, headers=auth(ana["token"])).json()["id"]
    for p in (ana, bo, cy):
        requests.post(f"{base}/v1/games/{gid}/join", headers=auth(p["token"]), timeout=10)
    play_others_until_mine(base, gid, bo, [ana, cy])
    page.open("/")
    note = f'#inbox li.note.unread a[href="#/g/{gid}"]'
    page.wait(lambda: "Your turn in Goblin Market" in page.texts(note), timeout=15)
    listed = requests.get(f"{base}/v1/players/me/notifications", headers=auth(bo["token"])).json()
    unread = listed["unread"]
    assert unread >= 2  # the start and the turn
    assert page.text("#inbox-count") == f"{unread} unread"
    assert page.find("#inbox-count").get_attribute("aria-label") == f"{unread} unread notifications"
    assert page.text("#inbox-unread") == f"{unread} unread"
    for width_name, width in WIDTHS.items():
        page.shot(f"inbox-my-turn-{width_name}", width)
    page.click("#inbox li.note.unread .mark-read")
    page.wait(lambda: page.text("#inbox-unread") == f"{unread - 1} unread", timeout=10)
    page.click("#inbox .mark-all")
    page.wait(lambda: page.find("#inbox-count").get_attribute("hidden") is not None, timeout=10)
    assert page.text("#inbox .unread-count") == "0 unread"

    # the settings panel: an address (unverified until its link is opened), quiet hours
    page.click("#notify-settings summary")
    page.wait_for("#notify-email")
    page.find("#notify-email").send_keys("bo@example.org")
    Select(page.find("#notify-lang")).select_by_value("es")
    page.find("#notify-quiet").click()
    page.click("#notify-settings button[type=submit]")
    page.wait(lambda: page.text("#notify-settings [role=status]") == "Saved.", timeout=10)
    assert page.text("#notify-email-status").startswith("not verified yet")
    saved = requests.get(f"{base}/v1/players/me/notification-settings", headers=auth(bo["token"]))
    got = saved.json()
    assert got["email"] == {"address": "bo@example.org", "verified": False}
    assert got["lang"] == "es" and got["quiet_hours"] == {"start": "22:00", "end": "08:00"}
    page.shot("inbox-settings-desktop", WIDTHS["desktop"])
    assert not page.axe(), page.axe()
    no_script_errors(shared_browser)


def test_the_inbox_and_its_settings_read_in_spanish(shared_browser, shared_server):
    base = shared_server
    page = WebPage(shared_browser, base)
    page.open("/")
    shared_browser.execute_script("localStorage.setItem('marketfold.lang', 'es')")
    me = page.sign_in("Ana")
    others = [new_player(base, n) for n in ("Bo", "Cy")]
    body = {"ruleset": "goblin-market", "players": 3}
    gid = requests.post(f"{base}/v1/games", json=body, headers=auth(others[0]["token"])).json()[
        "id"
    ]
    for p in (*others, me):
        requests.post(f"{base}/v1/games/{gid}/join", headers=auth(p["token"]), timeout=10)
    requests.patch(
        f"{base}/v1/players/me/notification-settings",
        json={"lang": "es"},
        headers=auth(me["token"]),
        timeout=10,
    )
    page.open("/")
    page.wait(lambda: "Empezó tu partida de Goblin Market" in page.texts("#inbox li a"), timeout=15)
    assert page.text("#inbox-title").startswith("Avisos")
    page.click("#notify-settings summary")
    page.wait_for(".type-table")
    assert "Tu turno" in page.texts(".type-table th")
    unread = requests.get(f"{base}/v1/players/me/notifications", headers=auth(me["token"]))
    assert page.text("#inbox-count") == f"{unread.json()['unread']} sin leer"
    page.shot("inbox-es-phone", WIDTHS["phone"])
    no_script_errors(shared_browser)
