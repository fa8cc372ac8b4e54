"""A league table's clock in headless Chromium: a player declares a day away with the
league page's form, and the table and the league page show the seat away until when; the
organizer pauses the table from the league page, which says since when, and the table says
its organizers paused it; resuming takes both notes away. A member leaves the league from
their home page. Screenshots at phone and desktop widths; axe-core on each page."""

from __future__ import annotations

from datetime import datetime, timedelta

import requests

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

try:
    from selenium.webdriver.support.ui import Select
except ImportError:  # browser.py reports the missing selenium
    Select = None

__all__ = ["organizer"]  # the fixture, shared


def test_days_away_and_a_paused_table_show_at_the_table_and_on_the_league_page(
    browser, redis_url, organizer, worker_process
):
    with api_server(redis_url, MARKETFOLD_OPERATORS=organizer["id"]) as (base, _):
        worker_process()
        page = WebPage(browser, base)
        players = [new_player(base, n, n.lower()) for n in ("Ana", "Bo", "Cy")]
        ana, bo, cy = players
        body = {
            "name": "Holiday league",
            "ruleset": "goblin-market",
            "table_size": 3,
            "rounds": 1,
            "start_at": (datetime.now().astimezone() + timedelta(seconds=3)).isoformat(),
            "cadence_s": 86400,
            "decision_timeout_s": 3600,
            "vacation_days": 3,
        }
        lid, gid = league_in_round_one(base, organizer, players, body)

        # Ana declares one day away from the league page
        sign_in_with_token(page, ana["token"])
        page.open(f"/#/l/{lid}")
        page.wait_for("#league-vacation form")
        assert "allows 3 days per player; you have 3 left" in page.text("#league-vacation")
        check_axe(page, "the vacation form")
        fill(page, "#vacation-days", "1")
        confirm(page, "#league-vacation button[type=submit]")
        page.wait(lambda: "(1 day)" in page.text("#league-vacation .vacations"))
        assert "you have 2 left" in page.text("#league-vacation")
        ana_seat = f'.league-seat[data-player="{ana["id"]}"]'
        page.wait(lambda: "away until" in page.text(ana_seat), timeout=30)
        league = requests.get(f"{base}/v1/leagues/{lid}").json()
        (declared,) = next(m for m in league["members"] if m["player"] == ana["id"])["vacations"]
        game = requests.get(f"{base}/v1/games/{gid}").json()
        seat = next(s["seat"] for s in game["seats"] if s["player"] == ana["id"])
        assert [(a["seat"], a["until"]) for a in game["away"]] == [(seat, declared["until"])]
        for name, width in WIDTHS.items():
            page.shot(f"league-vacation-{name}", width)
        Select(page.find("#lang")).select_by_value("es")  # the count agrees in Spanish too
        page.wait(lambda: "(1 día)" in page.text("#league-vacation .vacations"))
        assert "ausente hasta" in page.text(ana_seat)
        Select(page.find("#lang")).select_by_value("en")

        # Bo sees at the table that Ana is away
        sign_in_with_token(page, bo["token"])
        page.open(f"/#/g/{gid}")
        page.wait(lambda: "Ana is away from" in page.text(".away-note"))
        check_axe(page, "a table with a seat away")
        for name, width in WIDTHS.items():
            page.shot(f"league-table-away-{name}", width)

        # the organizer stops the table's clock from the league page
        sign_in_with_token(page, organizer["token"])
        page.open(f"/#/l/{lid}")
        table = f'.league-table[data-game="{gid}"]'
        confirm(page, f"{table} .pause-table")
        page.wait(lambda: "Paused since" in page.text(f"{table} .paused-since"))
        assert requests.get(f"{base}/v1/games/{gid}").json()["paused_at"]
        assert not page.all(f"{table} .pause-table")
        assert "away until" in page.text(ana_seat)  # a paused table still says who is away
        check_axe(page, "a league page with a paused table")
        for name, width in WIDTHS.items():
            page.shot(f"league-table-paused-{name}", width)
        page.open(f"/#/g/{gid}")
        page.wait(lambda: "paused this table on" in page.text("#paused-note"))
        log = page.text("#log")  # the table's log says it in words, with no player id
        assert "The league's organizers paused the table" in log and "Ana is away from" in log
        assert organizer["id"] not in log and ana["id"] not in log
        for name, width in WIDTHS.items():
            page.shot(f"league-game-paused-{name}", width)

        # and starts it again: the notes go
        page.open(f"/#/l/{lid}")
        confirm(page, f"{table} .resume-table")
        page.wait(lambda: not page.all(f"{table} .paused-since"))
        page.wait_for(f"{table} .pause-table")
        assert requests.get(f"{base}/v1/games/{gid}").json()["paused_at"] is None
        page.open(f"/#/g/{gid}")
        page.wait_for(".away-note")
        assert not page.all("#paused-note")

        # Cy leaves the league from his home page (after a confirmation)
        sign_in_with_token(page, cy["token"])
        mine = f'#leagues [data-league="{lid}"]'
        confirm(page, f"{mine} .leave-league")
        page.wait(lambda: "withdrawn" in page.text(mine))
        assert not page.all(f"{mine} .leave-league")
        league = requests.get(f"{base}/v1/leagues/{lid}").json()
        gone = next(m for m in league["members"] if m["player"] == cy["id"])
        assert gone["withdrawn_from_round"] is not None
        no_script_errors(page.d)
