"""Acts that cannot be taken back ask first, in the page's words (issue 44): "Cancel game"
asks about this game (not the league's question), "Done" asks before a Black Market seat
stops trading for the round; answering no leaves everything as it was. In headless Chromium,
the browser's confirm() answered by the test."""

from __future__ import annotations

import time

import requests

from tests.api.web_page import WebPage, join_idle_table, no_script_errors
from tests.reliability.load import auth

ANSWER = "window.__asked = []; window.confirm = (q) => { window.__asked.push(q); return %s; };"


def _answer(page: WebPage, yes: bool) -> None:
    page.d.execute_script(ANSWER % ("true" if yes else "false"))


def _asked(page: WebPage) -> list[str]:
    return page.d.execute_script("return window.__asked")


def test_cancel_game_asks_about_this_game_first(shared_browser, shared_server):
    page = WebPage(shared_browser, shared_server)
    page.sign_in("eva")
    gid = page.create("gobcon", 3)
    page.wait_for(".seat-actions .cancel")
    _answer(page, False)
    page.click(".seat-actions .cancel")
    page.wait(lambda: _asked(page))
    assert _asked(page) == ["Cancel this game for everyone at the table?"]
    game = requests.get(f"{shared_server}/v1/games/{gid}", timeout=10).json()
    assert game["status"] == "waiting"  # no: nothing happened
    _answer(page, True)
    page.click(".seat-actions .cancel")
    page.wait(
        lambda: (
            requests.get(f"{shared_server}/v1/games/{gid}", timeout=10).json()["status"]
            == "cancelled"
        )
    )
    no_script_errors(shared_browser)


def test_done_trading_asks_first_in_spanish(shared_browser, shared_server, worker_process):
    worker_process()  # resolves the production phase
    page = WebPage(shared_browser, shared_server)
    me = page.sign_in("eva")
    shared_browser.execute_script("localStorage.setItem('marketfold.lang', 'es')")
    gid, idle = join_idle_table(
        page, ["Ana", "Bo"], ruleset="black-market", players=3, options={"trade": "wild"}
    )
    tokens = {p["id"]: p["token"] for p in [me, *idle]}
    # every seat produces nothing until the wild trade opens ("done" offered to my seat)
    for _ in range(60):
        game = requests.get(f"{shared_server}/v1/games/{gid}", timeout=10).json()
        mine = requests.get(f"{shared_server}/v1/games/{gid}/legal", headers=auth(me["token"]))
        if any(a["type"] == "done" for a in mine.json().get("actions", [])):
            break
        for owed in game["owed"]:
            token = tokens[game["seats"][owed["seat"]]["player"]]
            legal = requests.get(f"{shared_server}/v1/games/{gid}/legal", headers=auth(token))
            types = [a["type"] for a in legal.json().get("actions", [])]
            if "produce" in types:
                requests.post(
                    f"{shared_server}/v1/games/{gid}/actions",
                    json={"type": "produce", "goods": []},
                    headers=auth(token),
                    timeout=10,
                )
        time.sleep(0.5)
    page.wait_for("#move [data-type=done] .act")
    _answer(page, False)
    page.click("#move [data-type=done] .act")
    page.wait(lambda: _asked(page))
    assert _asked(page) == [
        "¿Dejar de comerciar en esta ronda? No podrás volver a comerciar hasta la próxima."
    ]
    events = requests.get(f"{shared_server}/v1/games/{gid}/events", timeout=10).json()["events"]
    assert not [e for e in events if e["type"].endswith("DoneDeclared")]
    assert page.all("#move [data-type=done] .act")  # still offered
    _answer(page, True)
    page.click("#move [data-type=done] .act")

    def declared() -> bool:
        got = requests.get(f"{shared_server}/v1/games/{gid}/events", timeout=10).json()
        return any(e["type"].endswith("DoneDeclared") for e in got["events"])

    page.wait(declared)
    shared_browser.execute_script("localStorage.removeItem('marketfold.lang')")
    no_script_errors(shared_browser)
