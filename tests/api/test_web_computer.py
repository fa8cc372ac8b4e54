"""A person alone plays against the computer in headless Chromium: one click on the home
page seats them with computer players (labelled as such at the table and in the log),
the computer answers every move, and the game reaches its result. Screenshots at 390 and
1280 px are left in SCREENS. Each of the four games is played to its end against the quick
computer, in English and in Spanish, at 390 and 1280 px."""

from __future__ import annotations

import os
import random

import pytest

from tests.api.web_page import Select, WebPage, no_script_errors


def _computer_chips(page: WebPage, tag: str) -> int:
    """How many seat chips on the page name a computer player with `tag` (read in one go:
    the table may be redrawn between two reads)."""
    texts = page.d.execute_script(
        "return [...document.querySelectorAll('.seat-chip')].map((c) => c.textContent)"
    )
    return len([c for c in texts if tag in c])


def test_a_person_alone_plays_a_whole_game_against_the_computer(
    shared_browser, shared_server, worker_process
):
    worker_process(MARKETFOLD_COMPUTER_BUDGET_S="0.1")
    page = WebPage(shared_browser, shared_server)
    page.sign_in("eva")
    page.wait_for("#vs-computer")
    assert page.text("#vs-computer h2") == "Play against the computer"
    Select(page.find("#vs-ruleset")).select_by_value("goblin-market")
    Select(page.find("#vs-players")).select_by_value("3")
    assert page.find("#vs-level").get_attribute("value") == "strong"
    page.shot("computer-home-390", 390)
    assert not page.axe()
    page.click("#vs-play")
    page.wait(lambda: "#/g/" in shared_browser.current_url)
    page.wait_for("#status")
    # the table started at once: two computer players, named as such at the table (their
    # "sat down" lines may have left the recent log already: at 0.1 s a decision they move
    # as soon as their seeds are revealed)
    page.wait(lambda: _computer_chips(page, "(computer, strong)") >= 2)
    page.shot("computer-table-390", 390)
    page.shot("computer-table-1280", 1280)
    assert not page.axe()
    clicks = page.play_until_result(random.Random(4), timeout=240)
    assert clicks > 3
    result = page.text("#result-box")
    assert "(computer, strong)" in result
    page.shot("computer-result-390", 390)
    page.shot("computer-result-1280", 1280)
    no_script_errors(shared_browser)


def test_the_create_form_fills_the_empty_seats_with_computer_players_in_spanish(
    shared_browser, shared_server, worker_process
):
    worker_process(MARKETFOLD_COMPUTER_BUDGET_S="0.1")
    page = WebPage(shared_browser, shared_server)
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
    page.wait(lambda: "#/g/" in shared_browser.current_url)
    page.wait(lambda: _computer_chips(page, "(ordenador, rápido)") >= 2)
    page.shot("computer-create-es-1280", 1280)
    no_script_errors(shared_browser)


def test_a_waiting_tables_creator_fills_its_empty_seats_at_the_table(
    shared_browser, shared_server, worker_process
):
    worker_process(MARKETFOLD_COMPUTER_BUDGET_S="0.1")
    page = WebPage(shared_browser, shared_server)
    page.sign_in("eva")
    page.create("black-market", 3)
    page.wait_for(".fill-computer .fill")
    Select(page.find("#fill-level")).select_by_value("quick")
    assert page.text("#fill-level-hint") == "Answers at once, with simple habits."
    page.click(".fill-computer .fill")
    page.wait(lambda: _computer_chips(page, "(computer, quick)") >= 2)
    page.wait_for("#move")
    assert not page.all(".fill-computer")  # the game started: nothing left to fill
    no_script_errors(shared_browser)


# Each game once against the quick computer, the language and the width alternating so that
# the suite sees English and Spanish at both widths; MARKETFOLD_EVERY_COMBINATION=1 plays
# every game in both languages at both widths (16 games).
_GAMES = [("goblin-market", 3), ("sorcerous-futures", 3), ("black-market", 3), ("gobcon", 2)]
_ALTERNATING = [("en", 390), ("es", 1280), ("es", 390), ("en", 1280)]
_COMBINATIONS = (
    [(g, n, lang, w) for g, n in _GAMES for lang in ("en", "es") for w in (390, 1280)]
    if os.environ.get("MARKETFOLD_EVERY_COMBINATION")
    else [(g, n, lang, w) for (g, n), (lang, w) in zip(_GAMES, _ALTERNATING, strict=True)]
)
_SPANISH_CHECKS = {
    "vs": "Jugar contra el ordenador",
    "tag": "(ordenador, rápido)",
    "end": "Se jugó hasta el final.",
}
_ENGLISH_CHECKS = {
    "vs": "Play against the computer",
    "tag": "(computer, quick)",
    "end": "Played to the end.",
}


@pytest.mark.parametrize(("ruleset", "players", "lang", "width"), _COMBINATIONS)
def test_a_person_alone_plays_each_game_to_the_end_against_the_quick_computer(
    shared_browser, shared_server, worker_process, ruleset, players, lang, width
):
    """Clicks only, at a phone's or a desktop's width, in English or Spanish: axe finds
    nothing (any impact) at the table mid-game nor at the result; screenshots in SCREENS."""
    worker_process(MARKETFOLD_COMPUTER_BUDGET_S="0.1")
    words = _SPANISH_CHECKS if lang == "es" else _ENGLISH_CHECKS
    page = WebPage(shared_browser, shared_server)
    page.sign_in(f"solo-{ruleset}")
    Select(page.find("#lang")).select_by_value(lang)
    page.wait(lambda: page.text("#vs-computer h2") == words["vs"])
    shared_browser.set_window_size(width, 900)
    Select(page.find("#vs-ruleset")).select_by_value(ruleset)
    Select(page.find("#vs-players")).select_by_value(str(players))
    Select(page.find("#vs-level")).select_by_value("quick")
    page.click("#vs-play")
    page.wait(lambda: "#/g/" in shared_browser.current_url)
    page.wait(lambda: _computer_chips(page, words["tag"]) >= players - 1)
    assert shared_browser.execute_script("return document.documentElement.lang") == lang
    checked = []

    def mid_game(clicks: int) -> None:
        # nothing scrolls sideways inside its box (Black Market's Colours and deal tables)
        inside = shared_browser.execute_script(
            "return [...document.querySelectorAll('.market-wrap, .deal-wrap')]"
            ".map((w) => [w.className, w.scrollWidth - w.clientWidth]).filter(([, n]) => n > 0)"
        )
        assert not inside, f"scrolls inside its box at {width}px: {inside}"
        if clicks == 3 and not page.all("#result-box"):
            shared_browser.set_window_size(width, 900)
            # checked while the person owes a move (the move box open: its headings too)
            page.wait(lambda: page.all("#move .act") or page.all("#result-box"), timeout=60)
            found = page.axe(every=True)
            assert not found, [(v["id"], v["nodes"]) for v in found]
            page.shot(f"solo-{ruleset}-{lang}-{width}-table", width)
            shared_browser.set_window_size(width, 900)
            checked.append(clicks)

    clicks = page.play_until_result(random.Random(7), timeout=420, on_click=mid_game)
    assert clicks >= 3 and checked, "the person made moves at the table"
    shared_browser.set_window_size(width, 900)
    assert words["tag"] in page.text("#result-box")
    assert page.text("#result-box .reason") == words["end"]
    found = page.axe(every=True)
    assert not found, [(v["id"], v["nodes"]) for v in found]
    page.shot(f"solo-{ruleset}-{lang}-{width}-result", width)
    wide = shared_browser.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wide <= 0, f"the result scrolls sideways by {wide}px at {width}px"
    # the result's columns line up: every cell starts where its column's header starts
    off = shared_browser.execute_script(
        "const t = document.querySelector('#result-box table');"
        "const heads = [...t.querySelectorAll('thead th')].map((h) => h.getBoundingClientRect());"
        "return [...t.querySelectorAll('tbody tr')].flatMap((r) => [...r.children].map((c, i) =>"
        " [i, Math.round(c.getBoundingClientRect().left - heads[i].left),"
        "  Math.round(c.getBoundingClientRect().right - heads[i].right)]))"
        ".filter(([, l, r]) => Math.abs(l) > 1 || Math.abs(r) > 1)"
    )
    assert not off, f"result cells out of their columns at {width}px: {off}"
    shared_browser.execute_script("localStorage.removeItem('marketfold.lang')")
    no_script_errors(shared_browser)
