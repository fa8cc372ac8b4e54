"""The web client shows an untimed game's claim time before anyone joins (#49.4): in the
lobby, in the invitations list and at the table; a timed game shows none."""

from __future__ import annotations

import pytest
import requests

from tests.api.web_page import WebPage, no_script_errors

pytestmark = pytest.mark.slow


def _bearer(player: dict) -> dict:
    return {"Authorization": f"Bearer {player['token']}"}


def test_the_lobby_the_invitation_and_the_table_show_the_claim_time(browser, live_server):
    page = WebPage(browser, live_server)
    me = page.sign_in("Bo", handle="bo_claims")
    ana = requests.post(f"{live_server}/v1/players", json={"name": "Ana"}).json()
    body = {"ruleset": "gobcon", "players": 2}
    untimed = requests.post(
        f"{live_server}/v1/games", json={**body, "claim_after_s": 2 * 86400}, headers=_bearer(ana)
    ).json()
    timed = requests.post(
        f"{live_server}/v1/games", json={**body, "decision_timeout_s": 60}, headers=_bearer(ana)
    ).json()
    invited = requests.post(
        f"{live_server}/v1/games",
        json={**body, "invite": [me["id"]], "join": True, "unlisted": True},
        headers=_bearer(ana),
    ).json()
    page.open("/")
    listed = f'#lobby li[data-game="{untimed["id"]}"] .claim-after'
    page.wait_for(listed)
    assert page.text(listed) == "claimable after 2 d idle"
    assert not page.all(f'#lobby li[data-game="{timed["id"]}"] .claim-after')
    held = f'#invitations li[data-game="{invited["id"]}"] .claim-after'
    page.wait_for(held)
    assert page.text(held) == "claimable after 3 d idle"
    page.open(f"/#/g/{untimed['id']}")
    page.wait_for("header .claim-after, .claim-after")
    assert page.text(".claim-after") == "claimable after 2 d idle"
    no_script_errors(browser)
