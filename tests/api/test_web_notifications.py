"""The turn signal in the web client at `/`, in headless Chromium: a hidden tab whose
person allowed notifications gets one each time the turn becomes theirs, never more."""

from __future__ import annotations

import random
import time

import requests

from cli.strategies import random_strategy
from tests.api.web_page import WebPage, bots_join

# In the page before its scripts: the tab hidden (another tab in front), every notification
# the page shows recorded, and every title the tab takes
HIDDEN_TAB = """
Object.defineProperty(Document.prototype, "hidden", { get: () => true });
window.shown = [];
window.titles = [];
const Real = window.Notification;
window.Notification = class extends Real {
  constructor(title, options) { super(title, options); window.shown.push(title); }
};
document.addEventListener("DOMContentLoaded", () => {
  const title = document.querySelector("title");
  new MutationObserver(() => window.titles.push(document.title))
    .observe(title, { childList: true, characterData: true, subtree: true });
});
"""


def thinking(game, actions, rng):
    """The opponent takes a moment over each move, as a person does: the page then sees
    the turn leave its seat before it comes back (a bot that answers within milliseconds
    can move before the page has drawn the state between, on a loaded machine)."""
    time.sleep(0.5)
    return random_strategy(game, actions, rng)


thinking.needs_game = False  # type: ignore[attr-defined]  # the state is not read: saves a GET


def test_a_hidden_tab_notifies_once_each_time_the_turn_becomes_mine(
    browser, live_server, worker_process
):
    worker_process()  # closes the response windows
    browser.execute_cdp_cmd(
        "Browser.grantPermissions", {"origin": live_server, "permissions": ["notifications"]}
    )
    script = browser.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument", {"source": HIDDEN_TAB}
    )
    try:
        page = WebPage(browser, live_server)
        page.sign_in("noa")
        assert page.text("#who .notify") == "Notifications on"  # allowed: nothing to ask
        gid = page.create("gobcon", 2, {"time_limit": 2})
        bots_join(live_server, gid, 1, strategy=thinking)
        page.play_until_result(random.Random(3))
        name = requests.get(f"{live_server}/v1/games/{gid}").json()["name"]
        titles, shown = browser.execute_script("return [window.titles, window.shown]")
        mine = [t.startswith("●") for t in titles]
        became = sum(1 for was, now in zip([False, *mine], mine) if now and not was)
        assert became >= 2 and shown == [f"{name}: your turn"] * became  # once each time
    finally:
        browser.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]}
        )
        browser.execute_cdp_cmd("Browser.resetPermissions", {})
