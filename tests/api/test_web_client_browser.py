"""The web client at `/` in headless Chromium: a whole game of each ruleset with one seat
played by clicking in the page and the others by bots, to the result; a game created by one
person and joined by another through its invitation link; a reload mid-game; a deadline's
default shown; chat; a Spanish table; axe-core finding nothing serious; screenshots."""

from __future__ import annotations

import random

import pytest
import requests

from tests.api.browser import no_console_errors
from tests.api.web_page import WIDTHS, WebPage, bots_join

GAMES = [("goblin-market", 3), ("sorcerous-futures", 3), ("black-market", 3), ("gobcon", 2)]


def _bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize(("ruleset", "players"), GAMES)
def test_a_whole_game_is_played_by_clicking_in_the_page_to_its_result(
    browser, live_server, worker_process, ruleset, players
):
    worker_process()  # closes sealed phases
    page = WebPage(browser, live_server)
    me = page.sign_in("ana")
    axe = page.axe()
    assert not axe, axe  # the home page
    gid = page.create(ruleset, players)
    assert "ana" in page.find("#board").text  # seated, waiting for the others
    bots_join(live_server, gid, players - 1)
    page.wait_for("#board .seat-row")
    shown = {}

    def look(clicks: int) -> None:
        if clicks == 3 and not shown:
            shown["axe"] = page.axe()
            for name, width in WIDTHS.items():
                page.shot(f"table-{ruleset}-{name}", width)
            shown["cards"] = len(page.all("#board .card"))

    clicks = page.play_until_result(random.Random(7), on_click=look)
    assert clicks >= 3
    assert not shown["axe"], shown["axe"]
    assert shown["cards"] > 0  # cards are drawn at the table
    final = requests.get(f"{live_server}/v1/games/{gid}", headers=_bearer(me["token"])).json()
    assert final["status"] == "finished"
    rows = page.all("#result-box tbody tr")
    assert [r.get_attribute("data-seat") for r in rows] == [
        str(s["seat"]) for s in final["result"]["standings"]
    ]
    assert [r.find_element("css selector", ".place").text for r in rows] == [
        str(s["place"]) for s in final["result"]["standings"]
    ]
    assert page.find(".replay-link").get_attribute("href").endswith(f"/games/{gid}/replay")
    assert page.all("#result-box .rematch") or page.all(".seat-actions .rematch")


def test_the_lobby_and_my_games_list_what_waits_on_me_first(browser, live_server):
    page = WebPage(browser, live_server)
    me = page.sign_in("cy")
    other = requests.post(f"{live_server}/v1/players", json={"name": "dee"}).json()
    made = requests.post(
        f"{live_server}/v1/games",
        json={"ruleset": "gobcon", "players": 3},
        headers=_bearer(other["token"]),
    ).json()
    page.open("/")
    page.wait_for(f'#lobby li[data-game="{made["id"]}"]')
    assert not page.axe()
    for name, width in WIDTHS.items():
        page.shot(f"lobby-{name}", width)
    page.find(f'#lobby li[data-game="{made["id"]}"] a').click()
    page.wait_for(".join")[0].click()
    page.wait_for(".leave")
    mine = requests.get(f"{live_server}/v1/players/me/games", headers=_bearer(me["token"])).json()
    assert [g["id"] for g in mine["games"]] == [made["id"]]
    page.find(".leave").click()  # leave before the start
    page.wait_for(".join")
    no_console_errors(browser)
