"""The replay viewer tells a game as sentences a person reads (issue 44): in English and in
Spanish, for each of the four games, every event of the list, the step line and the event's
panel read as the table's log reads them: players by name, no seat numbers, no ISO times,
no type names such as `game.Ended` or `goblin-market.BidPlaced` (the envelope, folded away,
keeps them for auditors), and the Spanish page has no English sentence in it."""

from __future__ import annotations

import random
import re

import pytest

from tests.api.browser import Page
from tests.api.helpers import by_seat, new_game, new_players, play_to_end
from tests.api.web_page import WebPage

TYPE_NAME = re.compile(r"\b(?:game|goblin-market|sorcerous-futures|black-market|gobcon)\.[A-Z]\w+")
ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")
SEAT_NUMBER = re.compile(r"\b(?:seat|asiento) \d\b", re.IGNORECASE)
# English words of the log and the panels that a Spanish page must not show
ENGLISH = re.compile(
    r"\b(?:The game|started|ended|sat down|passed|bid \d|coins?|Event \d|seat|System|Time)\b"
)
STARTED = {"en": "The game started: ", "es": "Empezó la partida: juegan "}
ENDED = {"en": "The game ended", "es": "Terminó la partida"}
PLAYERS = {"goblin-market": 3, "sorcerous-futures": 3, "black-market": 3, "gobcon": 3}


def _shown(browser) -> str:
    """What a person reads: the page's text and its tooltips, the folded envelope left out."""
    return browser.execute_script(
        "const titles = [...document.querySelectorAll('[title]')].map((e) => e.title);"
        "return document.body.innerText + '\\n' + titles.join('\\n')"
    )


@pytest.mark.parametrize("ruleset", sorted(PLAYERS))
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_replay_tells_each_game_in_sentences_in_english_and_spanish(
    shared_browser, shared_server, client, app, tmp_path, ruleset, lang
):
    players = new_players(client, PLAYERS[ruleset])
    gid = new_game(client, players, ruleset=ruleset)
    play_to_end(client, app, gid, by_seat(client, gid, players), random.Random(3))
    version = client.get(f"/v1/games/{gid}/events").get_json()["version"]
    seated = [s["name"] for s in client.get(f"/v1/games/{gid}").get_json()["seats"]]
    page = Page(shared_browser, shared_server, tmp_path)
    web = WebPage(shared_browser, shared_server)
    shared_browser.get(f"{shared_server}/games/{gid}/replay?lang={lang}")
    page.wait_for_seq(version)
    for step in (version, max(2, version // 2)):  # the end, and a step mid-game
        shared_browser.get(f"{shared_server}/games/{gid}/replay?lang={lang}#at={step}")
        page.wait_for_seq(step)
        web.wait(lambda: page.all("#events .ev-t"))
        shown = _shown(shared_browser)
        for pattern in (TYPE_NAME, ISO_TIME, SEAT_NUMBER):
            found = pattern.search(shown)
            assert not found, shown[max(0, found.start() - 200) : found.end() + 100]
        if lang == "es":
            found = ENGLISH.search(shown)
            assert not found, shown[max(0, found.start() - 200) : found.end() + 100]
        told = [e.text for e in page.all("#events .ev-t")]
        assert any(line.startswith(seated[0]) for line in told), told[:12]
        assert all(line.strip() for line in told)
        # the table's own lines name the players: who plays in what order, who won
        started = next(line for line in told if line.startswith(STARTED[lang]))
        assert all(name in started for name in seated), started
        if step == version:
            winners = client.get(f"/v1/games/{gid}").get_json()["result"].get("winners") or []
            end = told[-1]
            assert end.startswith(ENDED[lang]), told[-3:]
            assert all(seated[w] in end for w in winners), (end, winners)
    for width in (390, 1280):
        web.shot(f"replay-{ruleset}-{lang}-{width}", width)
        shared_browser.set_window_size(width, 900)
    # the auditor's facts stay one click away, in the folded envelope
    page.click("#current-event details summary")
    assert re.search(r'"type": "[a-z-]+\.\w+"', page.find("#current-event pre").text)
