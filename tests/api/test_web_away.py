""" "While you were away" (issue 44), in headless Chromium: a player who leaves a table and
comes back is told what happened to their seat, a timed-out decision first."""

from __future__ import annotations

import time

import requests

from tests.api.web_page import WebPage, join_idle_table, no_script_errors


def test_coming_back_to_a_table_tells_what_happened_to_my_seat(
    browser, live_server, worker_process
):
    worker_process()  # applies the defaults when deadlines run out
    page = WebPage(browser, live_server)
    me = page.sign_in("eva")
    gid, _ = join_idle_table(
        page, ["Ana", "Bo"], ruleset="goblin-market", players=3, decision_timeout_s=3
    )
    page.wait_for("#decision")
    page.wait(lambda: "Waiting for players" not in page.text("#decision"))
    assert not page.text("#away")  # nothing to tell on the first visit
    page.open("/")  # away from the table
    game = requests.get(f"{live_server}/v1/games/{gid}", timeout=10).json()
    mine = next(s["seat"] for s in game["seats"] if s["player"] == me["id"])
    end = time.monotonic() + 90
    while True:  # until a deadline ran out on my seat
        events = requests.get(f"{live_server}/v1/games/{gid}/events", timeout=10).json()["events"]
        if any(
            e["type"] == "game.DecisionTimedOut" and e["data"].get("seat") == mine for e in events
        ):
            break
        assert time.monotonic() < end, "no deadline ran out on my seat"
        time.sleep(1)
    page.open(f"/#/g/{gid}")
    page.wait(lambda: page.text("#away"))
    told = page.text("#away")
    assert "While you were away" in told and "Your time ran out" in told, told
    page.click("#away button")  # read, and put away
    page.wait(lambda: not page.text("#away"))
    no_script_errors(browser)
