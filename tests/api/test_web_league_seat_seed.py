"""A league member's randomness from the web client (docs/fairness.md, "League seats"), in
headless Chromium: a member who only signs in gets a hash chain registered with the league
without being asked, and when the league seats them while their page shows the home page,
their seat reveals the link the table asks for: revealed, not withheld. Members whose
client registered nothing are seated with no commitment."""

from __future__ import annotations

import requests

from tests.api.league_web import (
    gobcon_league,
    new_league,
    organizer,
    round_one_game,
    sign_in_with_token,
)
from tests.api.web_page import WebPage, new_player, no_script_errors
from tests.conftest import api_server
from tests.leagues.helpers import in_seconds
from tests.support.waiting import wait_for

__all__ = ["organizer"]  # the fixture, shared

WINDOW = "15"  # seconds the reveals stay open (the default; the tests' config has 2)


def test_a_member_on_the_home_page_adds_their_randomness_to_the_league_table(
    browser, redis_url, organizer, worker_process
):
    with api_server(
        redis_url, MARKETFOLD_OPERATORS=organizer["id"], MARKETFOLD_SEED_REVEAL_S=WINDOW
    ) as (base, _):
        worker_process(MARKETFOLD_SEED_REVEAL_S=WINDOW)
        ana, bo, cy = (new_player(base, n, n.lower()) for n in ("Ana", "Bo", "Cy"))
        lid = _league(base, organizer, "Chain league", 20, (ana, bo, cy))

        page = WebPage(browser, base)
        sign_in_with_token(page, ana["token"])  # and stays on the home page
        registered = _registered(base, lid)

        wait_for(lambda: registered(ana), 15, every=0.25)
        chain_end = registered(ana)
        assert registered(bo) is None and registered(cy) is None
        # Ana's chain is registered: the organizer moves the start (20 s out, room for the
        # page to register) to a second from now, not to sit out the rest of the 20 s
        _start_now(base, organizer, lid)

        seat, combined = _first_table(base, lid, ana, chain_end)
        assert combined["revealed"] == [seat[ana["id"]]], combined
        assert combined["withheld"] == []
        assert sorted(combined["none"]) == sorted([seat[bo["id"]], seat[cy["id"]]])
        assert "#/g/" not in browser.current_url  # revealed from the home page
        # the next table asks for the link before: the chain's end moved to the one revealed
        assert registered(ana) != chain_end
        no_script_errors(browser)


def test_joining_a_league_in_the_browser_registers_a_chain_at_once_and_reveals_from_home(
    browser, redis_url, organizer, worker_process
):
    """Ana joins through the league's page (the join link): her chain is registered within
    seconds of the click (not at the next minute's look at her leagues, LEAGUES_S), and the
    league's first table, drawn while her page shows the home page, takes her reveal."""
    with api_server(
        redis_url, MARKETFOLD_OPERATORS=organizer["id"], MARKETFOLD_SEED_REVEAL_S=WINDOW
    ) as (base, _):
        worker_process(MARKETFOLD_SEED_REVEAL_S=WINDOW)
        ana, bo, cy = (new_player(base, n, n.lower()) for n in ("Ana", "Bo", "Cy"))
        lid = _league(base, organizer, "Joined league", 35, (bo, cy))
        registered = _registered(base, lid)

        page = WebPage(browser, base)
        sign_in_with_token(page, ana["token"])
        page.d.get(f"{base}/#/l/{lid}")
        page.click(".join-league")
        page.wait(lambda: "You play in this league" in page.text("#league-member"))
        assert ana["id"] in [
            m["player"] for m in requests.get(f"{base}/v1/leagues/{lid}").json()["members"]
        ]
        # the join registered it, not the minute's look at her leagues
        wait_for(lambda: registered(ana), 10, every=0.25)
        chain_end = registered(ana)
        page.open("/")
        _start_now(base, organizer, lid)  # not to sit out the rest of the 35 s

        seat, combined = _first_table(base, lid, ana, chain_end)
        assert combined["revealed"] == [seat[ana["id"]]], combined
        assert combined["withheld"] == []
        assert "#/l/" not in browser.current_url and "#/g/" not in browser.current_url
        no_script_errors(browser)


def _league(base: str, organizer: dict, name: str, start_in: float, members) -> str:
    """A one-round GobCon league of tables of three starting in `start_in` seconds, with
    `members` added by the organizer; its id."""
    return new_league(base, organizer, list(members), gobcon_league(name, start_in))


def _first_table(base: str, lid: str, member: dict, chain_end: str) -> tuple[dict, dict]:
    """Once round 1's table started: its seats by player, and its game.SeedsCombined; the
    table seated `member` (alone of its seats) with the chain's end `chain_end`."""
    gid = round_one_game(base, lid, timeout=90)
    game = requests.get(f"{base}/v1/games/{gid}").json()
    seat = {s["player"]: s["seat"] for s in game["seats"]}
    assert game["seat_seeds"]["commitments"] == {str(seat[member["id"]]): chain_end}
    log = requests.get(f"{base}/v1/games/{gid}/events").json()["events"]
    return seat, next(e["data"] for e in log if e["type"] == "game.SeedsCombined")


def _registered(base: str, lid: str):
    """What league `lid` holds for a player now (GET .../seat-commitment), by player."""

    def held(p: dict) -> str | None:
        auth = {"Authorization": f"Bearer {p['token']}"}
        url = f"{base}/v1/leagues/{lid}/seat-commitment"
        return requests.get(url, headers=auth, timeout=10).json()["seat_commitment"]

    return held


def _start_now(base: str, organizer: dict, lid: str) -> None:
    """The organizer moves league `lid`'s start to a second from now."""
    moved = requests.patch(
        f"{base}/v1/leagues/{lid}",
        json={"start_at": in_seconds(1)},
        headers={"Authorization": f"Bearer {organizer['token']}"},
    )
    assert moved.status_code == 200, moved.text
