"""A person alone plays against the computer in headless Chromium: one click on the home
page seats them with computer players (labelled as such at the table and in the log),
the computer answers every move, and the game reaches its result. Screenshots at 390 and
1280 px are left in SCREENS."""

from __future__ import annotations

import random

from tests.api.web_page import Select, WebPage, no_script_errors


def _computer_chips(page: WebPage, tag: str) -> int:
    """How many seat chips on the page name a computer player with `tag` (read in one go:
    the table may be redrawn between two reads)."""
    texts = page.d.execute_script(
        "return [...document.querySelectorAll('.seat-chip')].map((c) => c.textContent)"
    )
    return len([c for c in texts if tag in c])


def test_a_person_alone_plays_a_whole_game_against_the_computer(
    browser, live_server, worker_process
):
    worker_process(MARKETFOLD_COMPUTER_BUDGET_S="0.1")
    page = WebPage(browser, live_server)
    page.sign_in("eva")
    page.wait_for("#vs-computer")
    assert page.text("#vs-computer h2") == "Play against the computer"
    Select(page.find("#vs-ruleset")).select_by_value("goblin-market")
    Select(page.find("#vs-players")).select_by_value("3")
    assert page.find("#vs-level").get_attribute("value") == "strong"
    page.shot("computer-home-390", 390)
    assert not page.axe()
    page.click("#vs-play")
    page.wait(lambda: "#/g/" in browser.current_url)
    page.wait_for("#status")
    # the table started at once: two computer players, named as such
    page.wait(lambda: _computer_chips(page, "(computer, strong)") >= 2)
    page.wait(lambda: "(computer, strong) sat down" in page.text("#log"))
    page.shot("computer-table-390", 390)
    page.shot("computer-table-1280", 1280)
    assert not page.axe()
    clicks = page.play_until_result(random.Random(4), timeout=240)
    assert clicks > 3
    result = page.text("#result-box")
    assert "(computer, strong)" in result
    page.shot("computer-result-390", 390)
    page.shot("computer-result-1280", 1280)
    no_script_errors(browser)


def test_the_create_form_fills_the_empty_seats_with_computer_players_in_spanish(
    browser, live_server, worker_process
):
    worker_process(MARKETFOLD_COMPUTER_BUDGET_S="0.1")
    page = WebPage(browser, live_server)
    page.sign_in("eva")
    Select(page.find("#lang")).select_by_value("es")
    page.wait(lambda: page.text("#vs-computer h2") == "Jugar contra el ordenador")
    Select(page.find("#create-ruleset")).select_by_value("sorcerous-futures")
    count = page.find("#create-players")
    count.clear()
    count.send_keys("3")
    page.find("#create-computer").click()
    Select(page.find("#create-computer-level")).select_by_value("quick")
    page.find("#create button[type=submit]").click()
    page.wait(lambda: "#/g/" in browser.current_url)
    page.wait(lambda: _computer_chips(page, "(ordenador, rápido)") >= 2)
    page.shot("computer-create-es-1280", 1280)
    no_script_errors(browser)


def test_a_waiting_tables_creator_fills_its_empty_seats_at_the_table(
    browser, live_server, worker_process
):
    worker_process(MARKETFOLD_COMPUTER_BUDGET_S="0.1")
    page = WebPage(browser, live_server)
    page.sign_in("eva")
    page.create("black-market", 3)
    page.wait_for(".fill-computer .fill")
    Select(page.find("#fill-level")).select_by_value("quick")
    assert page.text("#fill-level-hint") == "Answers at once, with simple habits."
    page.click(".fill-computer .fill")
    page.wait(lambda: _computer_chips(page, "(computer, quick)") >= 2)
    page.wait_for("#move")
    assert not page.all(".fill-computer")  # the game started: nothing left to fill
    no_script_errors(browser)
