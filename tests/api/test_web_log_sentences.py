"""The table's "What just happened" as a person reads it (headless Chromium): for each of the
four games, played by bots while a spectator watches in English and in Spanish, every line of
the game's own events is a sentence (it ends like one, names players by name, no "field value
· field value" list, no ISO time, no seat number), in the page's language. The table's title
is the game's name, without its id (kept under "About this game")."""

from __future__ import annotations

import re

import pytest
import requests

from tests.api.web_page import WIDTHS, WebPage, bots_join, new_player, no_script_errors
from tests.reliability.load import auth

GAMES = {
    "goblin-market": {},
    "sorcerous-futures": {},
    "black-market": {"trade": "regulated"},
    "gobcon": {"time_limit": 2},
}
# English the Spanish log must not say (the games' verbs and articles)
ENGLISH = re.compile(r"\b(bid|passed|played|was|were|the|and|took|won|for)\b")


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_each_games_log_reads_as_sentences_in_english_and_spanish(
    shared_browser, shared_server, worker_process, ruleset
):
    base = shared_server
    worker_process()  # simultaneous phases (sealed bids, production) are resolved by workers
    host = new_player(base, "Host")
    gid = requests.post(
        f"{base}/v1/games",
        json={"ruleset": ruleset, "players": 3, "options": GAMES[ruleset]},
        headers=auth(host["token"]),
        timeout=10,
    ).json()["id"]
    bots = bots_join(base, gid, 3, prefix="Ana")  # Ana0, Ana1, Ana2, playing at random
    page = WebPage(shared_browser, base)
    for lang in ("en", "es"):
        page.open(f"/?lang={lang}#/g/{gid}")
        selector = f'#log li[data-type^="{ruleset}."]'
        page.wait(lambda selector=selector: len(page.all(selector)) >= 6, timeout=60)
        lines = page.d.execute_script(  # each line's words, after its number
            "return [...document.querySelectorAll(arguments[0])]"
            ".map((li) => li.lastChild.textContent)",
            selector,
        )
        assert lines, lang
        for line in lines:
            assert re.search(r"[.!?)]$", line), (lang, line)
            assert "·" not in line and " — " not in line, (lang, line)
            assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", line), (lang, line)
            assert not re.search(r"\b(seat|asiento)s? \d", line, re.I), (lang, line)
        assert any(re.search(r"\bAna\d\b", line) for line in lines), (lang, lines)
        if lang == "es":
            english = [line for line in lines if ENGLISH.search(line)]
            assert not english, english
        # the table's title is the game's name; its id waits under "About this game"
        assert gid not in page.text("h1")
        about = page.d.execute_script("return document.querySelector('.about-game').textContent")
        assert gid in about, about
        for name, width in WIDTHS.items():  # for a person to look at
            page.shot(f"log-{ruleset}-{lang}-{name}", width)
    for b in bots:
        b.join(0)  # the bots play on to the end in the background; nothing waits on them
    no_script_errors(page.d)
