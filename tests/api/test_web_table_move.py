"""The table's move box and what it tells, in headless Chromium: a sealed submission waits
for the others; a screen reader hears whose turn it is once per change, and is warned of its
own deadline, never the clock's every tick; what a person types or focuses there survives
the other seats' moves."""

from __future__ import annotations

import time

import requests

from tests.api.web_page import Keys, Select, WebPage, join_idle_table, no_script_errors
from tests.reliability.load import auth


def test_a_sealed_submission_waits_for_the_others(shared_browser, shared_server):
    page = WebPage(shared_browser, shared_server)
    page.sign_in("eva")
    join_idle_table(page, "xy", ruleset="black-market", players=3)
    page.click("#move .act")  # produce: sealed until every seat has submitted
    page.wait(lambda: page.all("#waiting.sealed"))
    assert page.text("#waiting") == "Sealed: waiting for 2 others"


def test_a_screen_reader_is_told_whose_turn_it_is_once_and_warned_of_its_own_deadline(
    shared_browser, shared_server
):
    page = WebPage(shared_browser, shared_server)
    page.sign_in("eva")
    # the game starts: every seat owes its secret production
    join_idle_table(page, "xy", ruleset="black-market", players=3, decision_timeout_s=25)
    page.wait_for("#turn .owe.mine .countdown")
    # the ticking countdowns are in no live region: a screen reader would read each tick
    ticking = shared_browser.execute_script(
        "return [...document.querySelectorAll('[aria-live], [role=status], [role=alert],"
        " [role=log]')].filter((e) => e.querySelector('.countdown')).length"
    )
    assert ticking == 0
    said = page.find("#turn-said")
    assert said.get_attribute("role") == "status"
    turn = page.wait(lambda: page.text("#turn-said"))
    assert turn.startswith("Turn: ") and "your turn: " in turn, turn
    assert "x: " in turn and "y: " in turn and "left" not in turn, turn
    # under 20 s left on its own decision, the reader is warned once
    warned = page.wait(lambda: (t := page.text("#turn-said")) != turn and t, timeout=15)
    assert warned.startswith("your turn: 0:1") and warned.endswith(" left"), warned
    clock = page.text("#turn .owe.mine .countdown")
    time.sleep(2.2)
    assert page.text("#turn .owe.mine .countdown") != clock  # the clock ticks on, unsaid
    assert page.text("#turn-said") == warned
    no_script_errors(shared_browser)


def test_what_a_person_types_in_the_move_box_survives_the_other_seats_events(
    shared_browser, shared_server
):
    page = WebPage(shared_browser, shared_server)
    page.sign_in("eva")
    # every seat owes its secret production, a form built from its schema (no choices)
    gid, idle = join_idle_table(page, "xy", ruleset="black-market", players=3)
    page.wait_for("#move .schema-form select")
    field = page.find("#move .schema-form select")  # the goods to produce
    Select(field).select_by_index(2)  # chosen, and focused
    field.send_keys(Keys.DOWN)  # from the keyboard
    chosen = field.get_attribute("value")
    assert chosen
    shared_browser.execute_script("document.querySelector('#board .zone').dataset.before = 'yes'")
    res = requests.post(f"{shared_server}/v1/games/{gid}/resign", headers=auth(idle[0]["token"]))
    assert res.status_code == 200, res.text
    page.wait(lambda: "x resigned" in page.text("#log"))
    page.wait(lambda: not page.all("#board .zone[data-before]"))  # the table was drawn again
    assert shared_browser.execute_script(
        "const field = document.querySelector('#move .schema-form select');"
        "return [field.value, document.activeElement === field]"
    ) == [chosen, True]
    page.click("#move .schema-form .act")  # and sent as typed: a refusal or a submission
    page.wait(lambda: page.all("#waiting.sealed") or page.text("#refusal"))
    no_script_errors(shared_browser)
