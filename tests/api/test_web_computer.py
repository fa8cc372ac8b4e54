"""A person alone plays against the computer in headless Chromium: one click on the home
page seats them with computer players (labelled as such at the table and in the log),
the computer answers every move, and the game reaches its result. Screenshots at 390 and
1280 px are left in SCREENS."""

from __future__ import annotations

import random

from tests.api.web_page import Select, WebPage, no_script_errors


def test_a_person_alone_plays_a_whole_game_against_the_computer(browser, live_server, worker_process):
    worker_process(MARKETFOLD_COMPUTER_BUDGET_S="0.1")
    page = WebPage(browser, live_server)
    page.sign_in("eva")
    page.wait_for("#vs-computer")
    assert page.text("#vs-computer h2") == "Play against the computer"
    Select(page.find("#vs-ruleset")).select_by_value("goblin-market")
    Select(page.find("#vs-players")).select_by_value("3")
    assert page.find("#vs-level").get_attribute("value") == "strong"
    page.shot("computer-home-390", 390)
    page.click("#vs-play")
    page.wait(lambda: "#/g/" in browser.current_url)
    page.wait_for("#status")
    # the table started at once: two computer players, named as such
    page.wait(lambda: len([c for c in page.texts(".seat-chip") if "(computer, strong)" in c]) >= 2)
    page.wait(lambda: "(computer, strong) sat down" in page.text("#log"))
    page.shot("computer-table-390", 390)
    page.shot("computer-table-1280", 1280)
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
    page.wait(lambda: len([c for c in page.texts(".seat-chip") if "(ordenador, rápido)" in c]) >= 2)
    page.shot("computer-create-es-1280", 1280)
    no_script_errors(browser)
