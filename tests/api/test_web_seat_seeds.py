"""The web client adds each person's randomness to a game's draws without asking
(api/static/app/seatseed.js, docs/fairness.md "Seats' randomness"): a game created and
joined by clicking, in two browsers, has a commitment from each browser seat, both reveal
once the table is full, and the game's draws combine both secrets."""

from __future__ import annotations

import hashlib
import os
import time

import requests

from tests.api.browser import chromium
from tests.api.web_page import WebPage, no_script_errors


def test_a_game_created_and_joined_by_clicking_carries_both_browsers_randomness(
    shared_browser, shared_server, tmp_path
):
    ana = WebPage(shared_browser, shared_server)
    ana.sign_in("ana")
    gid = ana.create("gobcon", 2)  # seated by the form; the table page stays open
    second = chromium(tmp_path / "second")
    other = next(second)
    try:
        bo = WebPage(other, shared_server)
        bo.sign_in("bo")
        bo.open(f"/#/g/{gid}")
        bo.click(".join")
        bo.wait_for("#board .seat-row")  # both revealed: the game started
        ana.wait_for("#board .seat-row")
        log = requests.get(f"{shared_server}/v1/games/{gid}/events", timeout=10).json()["events"]
        joined = {e["data"]["seat"]: e["data"] for e in log if e["type"] == "game.PlayerJoined"}
        assert all(len(j.get("commitment") or "") == 64 for j in joined.values()), joined
        revealed = {
            e["data"]["seat"]: e["data"]["secret"] for e in log if e["type"] == "game.SeedRevealed"
        }
        for seat, secret in revealed.items():  # each browser revealed the secret it committed to
            assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == joined[seat]["commitment"]
        combined = next(e for e in log if e["type"] == "game.SeedsCombined")["data"]
        assert combined == {"rule": 2, "revealed": [0, 1], "withheld": [], "none": []}
        for page in (ana, bo):  # revealed, the secret is not kept any longer
            kept = page.d.execute_script(
                "return Object.keys(localStorage).filter((k) => k.startsWith(arguments[0]))",
                f"marketfold.seat-secret.{gid}",
            )
            assert kept == []
        no_script_errors(other)
    finally:
        next(second, None)  # quits the second browser
    no_script_errors(shared_browser)


def test_a_player_whose_tab_shows_the_home_page_still_reveals(shared_browser, shared_server):
    """The table fills while the creator's tab is on the home page: that page reveals the
    seat's secret (seatseed.watchReveals), so the seat is not `withheld`."""
    ana = WebPage(shared_browser, shared_server)
    ana.sign_in("ana")
    gid = ana.create("gobcon", 2)
    ana.open("/")  # away from the table: the home page
    ana.wait_for("#create")
    bo = requests.post(f"{shared_server}/v1/players", json={"name": "bo"}, timeout=10).json()
    auth = {"Authorization": f"Bearer {bo['token']}"}
    secret = os.urandom(32)
    joined = requests.post(
        f"{shared_server}/v1/games/{gid}/join",
        json={"seat_commitment": hashlib.sha256(secret).hexdigest()},
        headers=auth,
        timeout=10,
    )
    assert joined.status_code == 200 and joined.json()["status"] == "waiting", joined.text
    game = f"{shared_server}/v1/games/{gid}"

    def revealed() -> list[int]:
        return requests.get(game, timeout=10).json()["seat_seeds"]["revealed"]

    end = time.monotonic() + 20
    while 0 not in revealed():  # ana's seat, revealed by the home page
        assert time.monotonic() < end, "the home page did not reveal the seat's secret"
        time.sleep(0.2)
    assert "#/g/" not in shared_browser.current_url  # the tab never left the home page
    done = requests.post(
        f"{game}/reveal", json={"seat_secret": secret.hex()}, headers=auth, timeout=10
    )
    assert done.status_code == 200 and done.json()["status"] == "active", done.text
    log = requests.get(f"{game}/events", timeout=10).json()["events"]
    combined = next(e for e in log if e["type"] == "game.SeedsCombined")["data"]
    assert combined == {"rule": 2, "revealed": [0, 1], "withheld": [], "none": []}
    no_script_errors(shared_browser)
