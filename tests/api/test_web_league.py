"""A league set up and run from the browser, in headless Chromium: an organizer who never used a
terminal creates a league with the form drawn from the API's schema, adds players by
handle, a player joins through the join link, the organizer watches round 1 start and its
table owe decisions, a player sees league, round and table at the table and in "My
games", the game ends (no Rematch), and the organizer's page says the round is
finished. Screenshots at phone and desktop widths; axe-core on each page."""

from __future__ import annotations

from datetime import datetime, timedelta

import requests

from tests.api.league_web import (
    check_axe,
    fill,
    organizer,
    sign_in_with_token,
)
from tests.api.web_page import WIDTHS, WebPage, new_player, no_script_errors
from tests.conftest import api_server
from tests.leagues.helpers import in_seconds

try:
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
except ImportError:  # browser.py reports the missing selenium
    Select = Keys = None

__all__ = ["organizer"]  # the fixture, shared


def test_an_organizer_runs_a_round_of_a_league_from_the_browser(
    browser, redis_url, organizer, worker_process
):
    with api_server(redis_url, MARKETFOLD_OPERATORS=organizer["id"]) as (base, _):
        worker_process()  # rounds start, GobCon's windows close, results are recorded
        page = WebPage(browser, base)
        ana = new_player(base, "Ana", "ana")
        bo = new_player(base, "Bo", "bo")
        dee = new_player(base, "Dee", "dee")

        sign_in_with_token(page, organizer["token"])
        page.wait(lambda: "You are in no league" in page.text("#leagues"))
        page.click("#leagues .new-league-link")
        page.wait_for("#new-league form")
        check_axe(page, "new league form")
        fill(page, "#lf-name", "Spring league")
        Select(page.find("#lf-ruleset")).select_by_value("gobcon")
        fill(page, '#new-league .lf-options [id^="sf-time_limit-"]', "1")
        fill(page, "#lf-table-min", "3")
        fill(page, "#lf-table-max", "3")
        fill(page, '[data-key="rounds"]', "2")
        fill(page, "#lf-decision_timeout_s", "1")  # a stalled bot costs a minute at most
        Select(page.find("#lf-decision_timeout_s + select")).select_by_visible_text("minutes")
        fill(page, "#lf-cadence_s", "1")
        Select(page.find("#lf-cadence_s + select")).select_by_visible_text("days")
        fill(page, "#lf-points", "3, 1, 0")
        # round 1 in a minute, in the browser's time zone (to the second: the field takes
        # seconds); once everyone has joined, the organizer moves it closer (below)
        start = datetime.now() + timedelta(seconds=60)
        page.d.execute_script(
            "const f = document.getElementById('lf-start_at');"
            "f.step = '1'; f.value = arguments[0];",
            start.strftime("%Y-%m-%dT%H:%M:%S"),
        )
        for name, width in WIDTHS.items():
            page.shot(f"league-new-{name}", width)
        page.click("#new-league button[type=submit]")
        page.wait(lambda: "#/l/" in page.d.current_url)
        lid = page.d.current_url.split("#/l/")[1]
        league = requests.get(f"{base}/v1/leagues/{lid}").json()
        assert (league["name"], league["ruleset"], league["options"]["time_limit"]) == (
            "Spring league",
            "gobcon",
            1,
        )
        assert (league["table_size"], league["rounds"], league["points"]) == (
            {"min": 3, "max": 3},
            2,
            [3, 1, 0],
        )
        assert (league["decision_timeout_s"], league["cadence_s"]) == (60, 86400)
        sent = datetime.fromisoformat(league["start_at"]).timestamp()
        assert abs(sent - start.timestamp()) < 1.5  # the local time, sent with its zone

        # players by handle: invited (they answer from their home page) or added at once
        page.wait_for("#league-desk")
        for handle, button, said in (
            ("ana", ".invite-member", "Ana is invited"),
            ("dee", ".invite-member", "Dee is invited"),
            ("BO", ".add-member-now", "Bo is in the league"),
        ):
            fill(page, "#add-member-input", handle)
            if button == ".invite-member":  # from the keyboard: Enter sends the invitation
                page.find("#add-member-input").send_keys(Keys.ENTER)
            else:
                page.click(f"#league-desk {button}")
            page.wait(lambda said=said: said in page.text("#add-member-said"))
        page.wait(lambda: page.texts("#league-desk .league-members .seat-name") == ["Bo"])
        page.wait(lambda: page.texts("#league-desk .league-invited .seat-name") == ["Ana", "Dee"])
        link = page.find("#join-link").get_attribute("value")
        assert link == f"{base}/#/l/{lid}"
        check_axe(page, "league page before the start")
        for name, width in WIDTHS.items():
            page.shot(f"league-desk-before-{name}", width)

        sign_in_with_token(page, dee["token"])  # Dee says no from her home page
        page.wait(lambda: "Spring league" in page.text("#leagues"))
        page.click(f'#leagues [data-league="{lid}"] .decline-league')
        page.wait(lambda: "Spring league" not in page.text("#leagues"))
        sign_in_with_token(page, ana["token"])  # Ana says yes from hers
        page.wait(lambda: "Spring league" in page.text("#leagues"))
        check_axe(page, "home page with a league invitation")
        for name, width in WIDTHS.items():
            page.shot(f"league-invited-home-{name}", width)
        page.click(f'#leagues [data-league="{lid}"] .join-league')
        page.wait(lambda: not page.all(f'#leagues [data-league="{lid}"] .join-league'))
        league = requests.get(f"{base}/v1/leagues/{lid}").json()
        assert [m["name"] for m in league["members"]] == ["Bo", "Ana"]
        assert league["invited"] == []

        # Cy, through the join link
        page.sign_out()
        cy = page.sign_in("Cy")
        page.d.get(link)
        page.click(".join-league")
        page.wait(lambda: "You play in this league" in page.text("#league-member"))
        page.open("/")
        page.wait(lambda: "Spring league" in page.text("#leagues"))
        assert not page.all("#league-desk")  # the organizer's desk is the organizer's

        # everyone is in: the organizer moves round 1 to a few seconds from now (the form's
        # start was checked above; moving it from the settings form is
        # test_web_league_season.py's), so the test does not sit out the rest of the minute
        moved = requests.patch(
            f"{base}/v1/leagues/{lid}",
            json={"start_at": in_seconds(3)},
            headers={"Authorization": f"Bearer {organizer['token']}"},
        )
        assert moved.status_code == 200, moved.text

        # round 1 starts: Cy sees the league, round and table in "My games" and at the table
        page.open("/")
        page.wait(lambda: "Spring league · round 1 · table 1" in page.text("#my-games"), timeout=90)
        page.click("#my-games .game-link")
        page.wait(lambda: "Spring league · round 1 · table 1" in page.text(".table-head"))
        gid = page.d.current_url.split("#/g/")[1]
        assert requests.get(f"{base}/v1/games/{gid}").json()["league"]["id"] == lid
        check_axe(page, "a league's table")
        for name, width in WIDTHS.items():
            page.shot(f"league-table-{name}", width)

        # the organizer watches the table: who owes, for how long
        sign_in_with_token(page, organizer["token"])
        page.wait(lambda: "you organize" in page.text("#leagues"))
        page.click("#leagues .game-link")
        page.wait_for('.round[data-round="1"] .league-seat.owes .countdown')
        page.wait(lambda: "left" in page.text(".league-seat.owes .countdown"))
        assert "waiting" in page.text(".league-seat.owes .since")
        seated = page.texts('.round[data-round="1"] .league-seat .seat-name')
        assert sorted(seated) == ["Ana", "Bo", "Cy"]
        check_axe(page, "organizer's dashboard in round 1")
        for name, width in WIDTHS.items():
            page.shot(f"league-desk-round1-{name}", width)

        # Ana and Bo resign, Cy watching at her table: the game ends, Cy first
        sign_in_with_token(page, cy["token"])
        page.open(f"/#/g/{gid}")
        page.wait_for(".table-head .league-tag")
        for p in (ana, bo):
            resigned = requests.post(
                f"{base}/v1/games/{gid}/resign", headers={"Authorization": f"Bearer {p['token']}"}
            )
            assert resigned.status_code == 200, resigned.text
        page.wait_for("#result-box", timeout=60)
        assert not page.all(".rematch")  # no Rematch at a league's table
        assert "Spring league · round 1 · table 1" in page.text(".table-head")

        sign_in_with_token(page, organizer["token"])
        page.open(f"/#/l/{lid}")
        page.wait(lambda: "Round 1 is finished." in page.text(".league-notice"), timeout=60)
        page.wait(lambda: page.all('.round[data-round="1"] .place'))
        standings = requests.get(f"{base}/v1/leagues/{lid}/standings").json()["standings"]
        shown = page.texts("#league-standings tbody tr td:nth-child(2)")
        assert shown == [s["name"] for s in standings]
        for name, width in WIDTHS.items():
            page.shot(f"league-round1-finished-{name}", width)
        Select(page.find("#lang")).select_by_value("es")  # the same page in Spanish
        page.wait(lambda: "La ronda 1 ha terminado." in page.text(".league-notice"))
        assert "Clasificación" in page.text("#league-standings")
        assert "Mesa del organizador" in page.text("#league-desk")
        page.shot("league-round1-finished-es-phone", WIDTHS["phone"])
        no_script_errors(page.d)


def test_the_organizer_changes_settings_not_yet_in_effect(browser, redis_url, organizer):
    with api_server(redis_url, MARKETFOLD_OPERATORS=organizer["id"]) as (base, _):
        page = WebPage(browser, base)
        sign_in_with_token(page, organizer["token"])
        page.click("#leagues .new-league-link")
        page.wait_for("#new-league form")
        fill(page, "#lf-name", "Club nights")
        page.click("#new-league button[type=submit]")
        page.wait(lambda: "#/l/" in page.d.current_url)
        lid = page.d.current_url.split("#/l/")[1]
        before = requests.get(f"{base}/v1/leagues/{lid}").json()
        page.click("#league-desk .edit-league")
        page.wait_for("#edit-league form")
        assert page.find("#lf-name").get_attribute("value") == "Club nights"
        fill(page, "#lf-name", "Thursday nights")
        fill(page, '[data-key="rounds"]', str(before["rounds"] + 2))
        check_axe(page, "the settings page")
        page.click("#edit-league button[type=submit]")
        page.wait(lambda: page.d.current_url.endswith(f"#/l/{lid}"))
        page.wait(lambda: "Thursday nights" in page.text(".league-head h1"))
        after = requests.get(f"{base}/v1/leagues/{lid}").json()
        changed = {k for k in before if before[k] != after[k]} - {"version", "schedule"}
        assert changed == {"name", "rounds"}, changed  # only what was changed was sent
        assert after["rounds"] == before["rounds"] + 2
        events = requests.get(f"{base}/v1/leagues/{lid}/events").json()["events"]
        assert events[-1]["type"] == "league.SettingsChanged"
        assert set(events[-1]["data"]["changes"]) == {"name", "rounds"}
        no_script_errors(page.d)
