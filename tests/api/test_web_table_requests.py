"""An open table reads nothing per event, in headless Chromium, in every ruleset: the page
draws each event from its stream's `table` frame (docs/clients.md, "The table on your
stream"), so while the other seats and its own move, it sends no `GET /games/{id}` and no
`GET .../legal`; it reads the game only when it (re)connects or misses a frame.

Each run also writes its figures (requests per event) to $TABLE_REQUESTS_OUT when set:
bench/table_requests.py runs this test and prints them (docs/performance.md)."""

from __future__ import annotations

import json
import os
import random
import re
import time

import pytest
import requests
from selenium.common.exceptions import NoAlertPresentException

from tests.api.helpers import random_action
from tests.api.web_page import WebPage, join_idle_table, no_script_errors
from tests.reliability.load import auth

EVENTS = 24  # events to watch per ruleset (or the game's end)
PACE_S = 0.4  # between two moves: a table's events come seconds apart, not in one burst
RULESETS = [
    ("goblin-market", {}),
    ("sorcerous-futures", {}),
    ("gobcon", {}),
    ("black-market", {}),
    ("black-market", {"trade": "wild"}),
]


def _reads(page: WebPage, gid: str, since: int) -> dict[str, int]:
    """The page's calls since the `since`-th (tests/api/browser.py records them): reads of
    the game and of its legal actions, and everything else."""
    urls = page.d.execute_script("return window.__fetched.map((f) => f.url)")[since:]
    game = re.compile(rf"/v1/games/{gid}(\?.*)?$")
    legal = re.compile(rf"/v1/games/{gid}/legal(\?.*)?$")
    counts = {"game": 0, "legal": 0, "other": 0}
    for url in urls:
        kind = "game" if game.search(url) else "legal" if legal.search(url) else "other"
        counts[kind] += 1
    return counts


def _fetched(page: WebPage) -> int:
    return page.d.execute_script("return window.__fetched.length")


@pytest.mark.parametrize(("ruleset", "options"), RULESETS)
def test_an_open_table_reads_nothing_per_event(
    shared_browser, shared_server, worker_process, ruleset, options
):
    worker_process()  # resolves the simultaneous phases
    base, rnd = shared_server, random.Random(ruleset + str(options))
    page = WebPage(shared_browser, base)
    me = page.sign_in("eva")
    body = {"ruleset": ruleset, "players": 3, "options": options}
    gid, idle = join_idle_table(page, ["Ana", "Bo"], **body)
    page.wait(
        lambda: "Waiting for players" not in page.text("#decision") and page.text("#decision")
    )
    time.sleep(1.0)  # the connect's reads are over: from here on, steady state
    since, url = _fetched(page), f"{base}/v1/games/{gid}"
    start = requests.get(url, timeout=10).json()["version"]
    tokens = {p["id"]: p["token"] for p in [*idle, me]}
    clicks, moves, ends = 0, 0, time.monotonic() + 90
    while time.monotonic() < ends:
        game = requests.get(url, timeout=10).json()
        if game["status"] != "active" or game["version"] - start >= EVENTS:
            break
        if not game["owed"]:  # a complete simultaneous phase: the worker resolves it
            time.sleep(0.05)
            continue
        owing = [game["seats"][o["seat"]]["player"] for o in game["owed"]]
        if me["id"] in owing and clicks < 4 and page.all("#move .choices .act"):
            before = game["version"]
            page.click("#move .choices .act")  # the page's own move, clicked
            try:  # a move the page asks to confirm (Black Market: stop trading)
                page.d.switch_to.alert.accept()
            except NoAlertPresentException:
                pass
            clicks += 1
            page.wait(lambda: requests.get(url, timeout=10).json()["version"] > before)
            time.sleep(PACE_S)
            continue
        token = tokens[rnd.choice(owing)]
        legal = requests.get(f"{url}/legal", headers=auth(token), timeout=10).json()
        if legal["actions"]:
            sent = random_action(rnd, legal["actions"])
            requests.post(f"{url}/actions", json=sent, headers=auth(token), timeout=10)
            moves += 1
            time.sleep(PACE_S)
    end = requests.get(url, timeout=10).json()["version"]
    events = end - start
    assert events >= 5, "too few events to measure"
    # the page has drawn the last event, and then some time for a read it would make
    page.wait(lambda: page.all(f'#log li[data-seq="{end}"]'), timeout=20)
    time.sleep(1.5)
    reads = _reads(page, gid, since)
    figures = {
        "ruleset": ruleset + ("+wild" if options else ""),
        "events": events,
        "moves": moves + clicks,
        **{f"{k}_per_event": round(v / events, 2) for k, v in reads.items()},
        **{f"{k}_per_move": round(v / max(1, moves + clicks), 2) for k, v in reads.items()},
    }
    if out := os.environ.get("TABLE_REQUESTS_OUT"):
        with open(out, "a", encoding="utf-8") as f:
            f.write(json.dumps(figures) + "\n")
    assert reads["game"] == 0 and reads["legal"] == 0, figures
    # what it drew is the game as it stands: its turn bar says who owes now, as the game does
    owed = requests.get(url, timeout=10).json()["owed"]
    assert len(page.all("#turn .owe")) == len(owed)
    no_script_errors(shared_browser)
