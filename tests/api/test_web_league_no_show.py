"""A no-show in a league, in headless Chromium: the organizer's dashboard marks the seat
that never moves (and late, once over half its time is used), and the organizer
substitutes the player from it."""

from __future__ import annotations

from datetime import datetime, timedelta

import requests

from cli.bot import Bot
from tests import background
from tests.api.league_web import (
    check_axe,
    confirm,
    fill,
    league_in_round_one,
    organizer,
    sign_in_with_token,
)
from tests.api.web_page import WIDTHS, WebPage, new_player, no_script_errors
from tests.conftest import api_server
from tests.support.waiting import wait_for

try:
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
except ImportError:  # browser.py reports the missing selenium
    Select = Keys = None

__all__ = ["organizer"]  # the fixture, shared


def test_the_organizer_sees_a_no_show_and_substitutes_them(
    browser, redis_url, organizer, worker_process
):
    with api_server(redis_url, MARKETFOLD_OPERATORS=organizer["id"]) as (base, _):
        worker_process()
        page = WebPage(browser, base)
        players = [new_player(base, n, n.lower()) for n in ("Ana", "Bo", "Cy")]
        ana = players[0]
        dee = new_player(base, "Dee", "dee")
        body = {
            "name": "Winter league",
            "ruleset": "goblin-market",
            "table_size": 3,
            "rounds": 2,
            "start_at": (datetime.now().astimezone() + timedelta(seconds=3)).isoformat(),
            "cadence_s": 86400,
            "decision_timeout_s": 6,
            "withdraw_after_timeouts": 0,
        }
        lid, gid = league_in_round_one(base, organizer, players, body)
        for p in players[1:]:  # Bo and Cy play; Ana never comes
            background.play(Bot(base, gid, p["token"], None))

        sign_in_with_token(page, organizer["token"])
        page.open(f"/#/l/{lid}")
        seat = f'.league-seat[data-player="{ana["id"]}"]'
        page.wait(lambda: "no-show" in page.text(seat), timeout=90)
        assert "no-show" in page.find(seat).get_attribute("class")

        def late_shown() -> bool:  # over half of Ana's 6 s used: the seat is marked late
            page.d.refresh()
            page.wait_for("#league-rounds")
            found = "const e = document.querySelector(arguments[0]); return e ? e.className : '';"
            return "late" in page.d.execute_script(found, seat).split()

        wait_for(late_shown, 30, every=0.25)
        assert "late" in page.text(f"{seat} .late-tag")
        check_axe(page, "a no-show at a running table")
        for name, width in WIDTHS.items():
            page.shot(f"league-no-show-{name}", width)

        member = f'#league-desk li[data-player="{ana["id"]}"]'
        page.click(f"{member} .substitute summary")
        fill(page, f"#substitute-{ana['id']}", "dee")
        confirm(page, f"{member} .substitute button[type=submit]")
        page.wait(lambda: "Dee" in page.texts("#league-desk .league-members .seat-name"))
        seats = requests.get(f"{base}/v1/games/{gid}").json()["seats"]
        assert dee["id"] in {s["player"] for s in seats}  # Dee took Ana's seat at the table
        league = requests.get(f"{base}/v1/leagues/{lid}").json()
        gone = {m["player"]: m["withdrawn_from_round"] for m in league["members"]}
        assert gone[ana["id"]] is not None and gone[dee["id"]] is None
        page.wait(lambda: page.all(f'#league-desk li[data-player="{ana["id"]}"] .badge'))
        for name, width in WIDTHS.items():
            page.shot(f"league-substituted-{name}", width)
        no_script_errors(page.d)
