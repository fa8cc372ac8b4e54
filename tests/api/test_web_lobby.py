"""The lobby as a person reads it (issue 44), in headless Chromium: a game opened elsewhere
reaches it within a few seconds, each entry says its time per decision and its options in
words, and a waiting table's invite-by-link field stays inside the header on a phone."""

from __future__ import annotations

import requests

from tests.api.web_page import WebPage, new_player, no_script_errors
from tests.reliability.load import auth


def test_a_lobby_entry_arrives_at_once_with_its_options_and_time_per_decision(
    shared_browser, shared_server
):
    base = shared_server
    page = WebPage(shared_browser, base)
    page.sign_in("Bo")
    page.wait_for("#lobby")
    dee = new_player(base, "Dee")
    body = {"ruleset": "gobcon", "players": 2, "decision_timeout_s": 300, "join": True}
    made = requests.post(f"{base}/v1/games", json=body, headers=auth(dee["token"]), timeout=10)
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    # read again every 3 s (it was 15: entries lagged 7-10 s on average)
    entry = f'#lobby li[data-game="{gid}"]'
    page.wait_for(entry, timeout=8)
    terms = page.text(f"{entry} .terms")
    assert terms.startswith("5 min per decision"), terms
    listed = requests.get(f"{base}/v1/games?status=waiting", timeout=10).json()["games"]
    options = next(g for g in listed if g["id"] == gid)["options"]
    if options:
        assert " · Options: " in terms, terms
        assert "_" not in terms.split("Options: ")[1], terms  # option names in words
    no_script_errors(shared_browser)


def test_the_invite_by_link_field_stays_inside_the_header_on_a_phone(shared_browser, shared_server):
    page = WebPage(shared_browser, shared_server)
    page.sign_in("Ana")
    page.create("goblin-market", 3)
    shared_browser.set_window_size(390, 844)
    page.click(".invite summary")
    page.wait(lambda: page.find(".invite-link").is_displayed())
    over = shared_browser.execute_script(
        "const w = document.documentElement.clientWidth;"
        "return [document.documentElement.scrollWidth - w, ...[...document.querySelectorAll("
        "'.table-head, .table-head *')].filter((e) => e.getBoundingClientRect().right > w + 1)"
        ".map((e) => e.tagName + '.' + e.className)]"
    )
    assert over[0] <= 0 and len(over) == 1, f"the header overflows a 390 px screen: {over}"
    page.shot("invite-link-390", 390)
    no_script_errors(shared_browser)


def test_gobcons_standard_deck_is_named_in_each_language(shared_browser, shared_server):
    """GobCon's `deck` option reads "the standard deck" / "el mazo estándar" on the create
    form and in a lobby entry, never the API's value "default"."""
    from tests.api.web_page import Select

    base = shared_server
    page = WebPage(shared_browser, base)
    page.sign_in("Bo")
    dee = new_player(base, "Dee")
    body = {"ruleset": "gobcon", "players": 2, "decision_timeout_s": 300, "join": True}
    made = requests.post(f"{base}/v1/games", json=body, headers=auth(dee["token"]), timeout=10)
    assert made.status_code == 201, made.text
    entry = f'#lobby li[data-game="{made.json()["id"]}"] .terms'
    for lang, words in (("en", "the standard deck"), ("es", "el mazo estándar")):
        shared_browser.execute_script("localStorage.setItem('marketfold.lang', arguments[0])", lang)
        shared_browser.refresh()
        page.wait_for("#create-ruleset")
        Select(page.find("#create-ruleset")).select_by_value("gobcon")
        shown = shared_browser.execute_script(
            "return [...document.querySelectorAll('.options select option')].map((o) => o.text)"
        )
        assert words in shown and "default" not in shown, shown
        page.wait_for(entry, timeout=8)
        assert words in page.text(entry) and "default" not in page.text(entry), page.text(entry)
    shared_browser.execute_script("localStorage.removeItem('marketfold.lang')")
    no_script_errors(shared_browser)
