"""What the league pages' browser tests share: signing in with a kept token, confirming a
dialog, filling a field, axe, the organizer, and a league brought to its round 1 through
the API."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
import requests

from cli.bot import Bot
from tests import background
from tests.api.web_page import WebPage
from tests.support.waiting import wait_for

try:
    from selenium.common.exceptions import StaleElementReferenceException
except ImportError:  # browser.py reports the missing selenium
    StaleElementReferenceException = Exception


def sign_in_with_token(page: WebPage, token: str) -> None:
    """Sign in as a person does who kept their token: "I have a token", paste, use."""
    page.open("/")
    if page.all("#sign-out"):
        page.sign_out()
    page.click(".token-in summary")
    page.find("#token-input").send_keys(token)
    page.click(".token-in button[type=submit]")
    page.wait_for("#sign-out")


def confirm(page: WebPage, css: str) -> None:
    """Click a button that asks to confirm, and say yes."""
    page.click(css)
    page.wait(lambda: _alert(page))
    page.d.switch_to.alert.accept()


def _alert(page: WebPage) -> bool:
    try:
        page.d.switch_to.alert  # noqa: B018 (a dialog is open)
    except Exception:
        return False
    return True


def fill(page: WebPage, css: str, value: str) -> None:
    """Type `value` into the field, again if the page was redrawn under the typing."""

    def attempt() -> bool:
        try:
            field = page.find(css)
            field.clear()
            field.send_keys(value)
            return page.find(css).get_attribute("value") == value
        except StaleElementReferenceException:
            return False

    page.wait(attempt)


def check_axe(page: WebPage, what: str) -> None:
    found = page.axe(every=True)  # no violation of any impact
    assert not found, (what, found)


@pytest.fixture
def organizer(client):
    """The club's organizer: registered once, made an organizer by the server's operator
    setting (the season in test_web_league_season.py gets the role through the site)."""
    return client.post("/v1/players", json={"name": "Club desk"}).get_json()


def league_in_round_one(base: str, organizer: dict, players: list[dict], body: dict):
    """Create a league through the API with `players` as members; wait until its round 1
    table is playing; return the league's and the table's game ids."""
    lid = new_league(base, organizer, players, body)
    return lid, round_one_game(base, lid)


def new_league(base: str, organizer: dict, players: list[dict], body: dict) -> str:
    """Create a league through the API with `players` as members; return its id."""
    headers = {"Authorization": f"Bearer {organizer['token']}"}
    lid = requests.post(f"{base}/v1/leagues", json=body, headers=headers).json()["id"]
    for p in players:
        added = requests.post(
            f"{base}/v1/leagues/{lid}/members", json={"player": p["id"]}, headers=headers
        )
        assert added.status_code == 201, added.text
    return lid


def round_one_game(base: str, lid: str, timeout: float = 60) -> str:
    """Wait until league `lid`'s round 1 table is playing; return its game id."""
    round1 = f"{base}/v1/leagues/{lid}/rounds/1"
    wait_for(lambda: requests.get(round1).json()["tables"][0]["game"], timeout, every=0.25)
    gid = requests.get(round1).json()["tables"][0]["game"]
    wait_for(
        lambda: requests.get(f"{base}/v1/games/{gid}").json()["status"] == "active", 60, every=0.25
    )
    return gid


def gobcon_league(name: str, start_in: float) -> dict:
    """The body of a one-round GobCon league of tables of three, starting in `start_in` s."""
    return {
        "name": name,
        "ruleset": "gobcon",
        "options": {"time_limit": 1},
        "table_size": 3,
        "rounds": 1,
        "start_at": (datetime.now().astimezone() + timedelta(seconds=start_in)).isoformat(),
        "cadence_s": 86400,
        "decision_timeout_s": 300,
    }


def played_league_game(base: str, organizer: dict, players: list[dict], name: str):
    """A one-round GobCon league of `players` (three) whose table the reference bots play
    to its recorded result; return the league's and the table's game ids."""
    lid, gid = league_in_round_one(base, organizer, players, gobcon_league(name, 3))
    round1 = f"{base}/v1/leagues/{lid}/rounds/1"
    bots = [background.play(Bot(base, gid, p["token"], None)) for p in players]
    for b in bots:
        b.join(120)
    wait_for(lambda: requests.get(round1).json()["tables"][0]["result"], 60, every=0.25)
    return lid, gid
