"""The replay viewer as a person opens it (issue 44), in headless Chromium: it opens where
the game stands (its last event), with a plain way back to the start; players by name, never
their ids; nothing scrolls sideways at 390 px; axe-core finds nothing at 390 or 1280 px."""

from __future__ import annotations

import re

from tests.api.browser import Page
from tests.api.replay_helpers import finished_game
from tests.api.web_page import WIDTHS, WebPage


def test_the_replay_opens_at_the_last_event_with_names_and_fits_a_phone(
    browser, live_server, client, app, tmp_path
):
    gid, _ = finished_game(client, app)
    version = client.get(f"/v1/games/{gid}/events").get_json()["version"]
    page = Page(browser, live_server, tmp_path)
    web = WebPage(browser, live_server)
    browser.get(f"{live_server}/games/{gid}/replay")
    page.wait_for_seq(version)
    shown = browser.execute_script("return document.body.innerText")
    found = re.search(r"\bp_[A-Za-z0-9_-]{6,}", shown)
    assert not found, shown[max(0, found.start() - 300) : found.end() + 100]
    for name, width in WIDTHS.items():
        browser.set_window_size(width, 900)
        page.wait_for_seq(version)
        wide = browser.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        culprits = browser.execute_script(
            "const w = document.documentElement.clientWidth;"
            "return [...document.querySelectorAll('body *')].filter((e) =>"
            " e.getBoundingClientRect().right > w + 1).slice(0, 8)"
            ".map((e) => e.tagName + '.' + e.className + '#' + e.id + ' ' +"
            " Math.round(e.getBoundingClientRect().right))"
        )
        assert wide <= 0, f"the replay scrolls sideways by {wide}px at {width}px: {culprits}"
        web.shot(f"replay-{name}", width)
        browser.set_window_size(width, 900)
        found = web.axe(every=True)
        assert not found, [(v["id"], v["nodes"]) for v in found]
    page.click("#first")  # the start, one click away
    page.wait_for_seq(1)
