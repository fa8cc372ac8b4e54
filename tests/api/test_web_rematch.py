"""A rematch offered at a finished table, in headless Chromium: the other player, still at
that table, sees "Ana offers a rematch" without a reload (the player's feed) and accepts
it (the new game starts at its table) or declines it (the offer goes, and the new game
shows the answer)."""

from __future__ import annotations

import pytest
import requests

from cli.bot import Bot
from tests import background
from tests.api.web_page import WIDTHS, WebPage, new_player, no_script_errors
from tests.reliability.load import auth


@pytest.mark.parametrize("answer", ["accept", "decline"])
def test_a_rematch_offered_at_a_finished_table_is_answered_there(
    shared_browser, shared_server, worker_process, answer
):
    worker_process()  # closes GobCon's response windows
    base = shared_server
    page = WebPage(shared_browser, base)
    bo = page.sign_in("Bo")
    ana = new_player(base, "Ana")
    body = {"ruleset": "gobcon", "players": 2, "options": {"time_limit": 1}}
    gid = requests.post(f"{base}/v1/games", json=body, headers=auth(ana["token"])).json()["id"]
    page.open(f"/#/g/{gid}")
    for p in (ana, bo):  # both seats played by bots, the page watching as Bo
        requests.post(f"{base}/v1/games/{gid}/join", headers=auth(p["token"]), timeout=10)
        background.play(Bot(base, gid, p["token"], None))
    page.wait_for("#result-box", timeout=120)
    assert not page.all("#rematch-offer .offer")

    offered = requests.post(f"{base}/v1/games/{gid}/rematch", headers=auth(ana["token"]))
    assert offered.status_code == 201, offered.text
    new = offered.json()["id"]
    page.wait(lambda: page.text("#rematch-offer").startswith("Ana offers a rematch"), timeout=15)
    if answer == "accept":
        assert not page.axe()
        for width_name, width in WIDTHS.items():
            page.shot(f"table-rematch-offer-{width_name}", width)
        page.click("#rematch-offer .accept-rematch")
        page.wait(lambda: f"#/g/{new}" in shared_browser.current_url)
        page.wait_for("#board .seat-row")  # both seats taken: the rematch started
        assert requests.get(f"{base}/v1/games/{new}").json()["status"] == "active"
    else:
        page.click("#rematch-offer .decline-rematch")
        page.wait(lambda: not page.all("#rematch-offer .offer"))
        invited = requests.get(f"{base}/v1/games/{new}").json()["invited"]
        assert [(i["player"], i["answer"]) for i in invited if i["player"] == bo["id"]] == [
            (bo["id"], "declined")
        ]
        assert f"#/g/{gid}" in shared_browser.current_url  # still at the finished table
    no_script_errors(shared_browser)
