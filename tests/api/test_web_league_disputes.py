"""A league's dispute in headless Chromium: a player disputes a game from its table, the
organizer rules on it from the league page, the ruling shows and changes the standings."""

from __future__ import annotations

import requests

from tests.api.league_web import (
    check_axe,
    confirm,
    fill,
    organizer,
    played_league_game,
    sign_in_with_token,
)
from tests.api.web_page import WIDTHS, WebPage, new_player, no_script_errors
from tests.conftest import api_server

try:
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
except ImportError:  # browser.py reports the missing selenium
    Select = Keys = None

__all__ = ["organizer"]  # the fixture, shared


def test_a_player_disputes_a_league_game_and_the_organizer_rules_on_it(
    browser, redis_url, organizer, worker_process
):
    with api_server(redis_url, MARKETFOLD_OPERATORS=organizer["id"]) as (base, _):
        worker_process()
        page = WebPage(browser, base)
        players = [new_player(base, n) for n in ("Ana", "Bo", "Cy")]
        ana, _, cy = players
        lid, gid = played_league_game(base, organizer, players, "Autumn league")

        sign_in_with_token(page, cy["token"])  # Cy disputes the game from its table
        page.open(f"/#/g/{gid}")
        page.click("#dispute-open summary")
        fill(page, "#dispute-open textarea", "Ana played on for an absent friend.")
        page.click("#dispute-open button[type=submit]")
        page.wait(lambda: "Dispute 1 is open" in page.text("#dispute-open"))

        sign_in_with_token(page, organizer["token"])  # the organizer rules: Ana forfeits
        page.open(f"/#/l/{lid}")
        page.wait(lambda: "1 dispute waits for your ruling" in page.text("#league-disputes"))
        assert "Ana played on for an absent friend." in page.text('.dispute[data-dispute="1"]')
        check_axe(page, "an open dispute")
        for name, width in WIDTHS.items():
            page.shot(f"league-dispute-{name}", width)
        page.click('.dispute[data-dispute="1"] .ruling summary')
        form = '.dispute[data-dispute="1"] .ruling-form'
        Select(page.find(f"{form} .ruling-kind")).select_by_value("forfeit")
        page.click(f'{form} .ruling-players input[data-player="{ana["id"]}"]')
        fill(page, f"{form} .ruling-reason", "Seen in the replay: one hand played both seats.")
        confirm(page, f"{form} button[type=submit]")
        page.wait(lambda: "Ruling: forfeit: Ana" in page.text('.dispute[data-dispute="1"]'))
        page.wait(lambda: "Ruling: forfeit: Ana" in page.text('.round[data-round="1"]'))
        ruled = requests.get(f"{base}/v1/leagues/{lid}/disputes").json()
        assert [(r["kind"], r["players"], r["dispute"]) for r in ruled["rulings"]] == [
            ("forfeit", [ana["id"]], 1)
        ]
        standings = requests.get(f"{base}/v1/leagues/{lid}/standings").json()["standings"]
        page.wait(
            lambda: (
                page.texts("#league-standings tbody tr td:nth-child(2)")
                == [s["name"] for s in standings]
            )
        )
        assert standings[-1]["name"] == "Ana" and standings[-1]["points"] == 0
        for name, width in WIDTHS.items():
            page.shot(f"league-ruled-{name}", width)
        no_script_errors(page.d)
