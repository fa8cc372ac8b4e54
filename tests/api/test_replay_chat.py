"""The replay page shows the table chat as text: markup in a message is never run."""

from __future__ import annotations

from selenium.webdriver.support.ui import WebDriverWait

from tests.api.browser import Page, no_console_errors
from tests.api.helpers import bearer
from tests.api.replay_helpers import finished_game

TRAP = '<img src=x onerror="window.__pwned=1"><b>bold</b> & done'


def test_chat_markup_is_shown_as_text_in_the_replay(browser, live_server, client, app, tmp_path):
    gid, players = finished_game(client, app)
    said = client.post(f"/v1/games/{gid}/chat", json={"text": TRAP}, headers=bearer(players[0]))
    assert said.status_code == 201
    page = Page(browser, live_server, tmp_path)
    browser.get(f"{live_server}/games/{gid}/replay")
    WebDriverWait(browser, 20).until(lambda d: page.all("#chat li"))
    line = page.find("#chat li .text")
    assert line.get_attribute("textContent") == TRAP
    assert page.all("#chat img") == [] and page.all("#chat b.who") != []
    assert browser.execute_script("return window.__pwned") is None
    no_console_errors(browser)
