"""The home page at `/` keeps itself current in headless Chromium: an invitation, a game's
start and a turn that becomes mine show up without a reload (the player's feed), the focus
stays on the game it was on when the list is drawn again, and a game opened by someone else
reaches the lobby (read again every few seconds)."""

from __future__ import annotations

import requests

from tests.api.web_page import WIDTHS, WebPage, no_script_errors
from tests.reliability.load import auth


def _player(base: str, name: str, handle: str | None = None) -> dict:
    body = {"name": name, **({"handle": handle} if handle else {})}
    return requests.post(f"{base}/v1/players", json=body, timeout=10).json()


def _play_others_until_mine(base: str, gid: str, me: dict, others: list[dict]) -> None:
    """Play the first offered choice for whoever owes, until my seat owes something."""
    tokens = {p["id"]: p["token"] for p in others}
    for _ in range(40):
        game = requests.get(f"{base}/v1/games/{gid}", timeout=10).json()
        owing = [game["seats"][o["seat"]]["player"] for o in game["owed"]]
        if me["id"] in owing:
            return
        token = tokens[owing[0]]
        legal = requests.get(f"{base}/v1/games/{gid}/legal", headers=auth(token), timeout=10)
        action = legal.json()["actions"][-1]["choices"][0]
        res = requests.post(f"{base}/v1/games/{gid}/actions", json=action, headers=auth(token))
        assert res.status_code == 201, res.text
    raise AssertionError("my seat was never owed a decision")


def test_the_home_page_shows_an_invitation_a_start_and_my_turn_without_a_reload(
    browser, live_server
):
    base = live_server
    page = WebPage(browser, base)
    bo = page.sign_in("Bo", handle="bo")
    browser.execute_script("window.sameDocument = true")  # gone if the page is loaded again
    ana, cy = _player(base, "Ana", "ana"), _player(base, "Cy")
    name = next(
        r["name"] for r in requests.get(f"{base}/v1/rulesets").json()["rulesets"]
        if r["id"] == "goblin-market"
    )
    body = {"ruleset": "goblin-market", "players": 3, "invite": ["bo"], "join": True}
    gid = requests.post(f"{base}/v1/games", json=body, headers=auth(ana["token"])).json()["id"]

    page.wait_for(f'#invitations li[data-game="{gid}"] .accept', timeout=15)
    assert page.text("#home-said") == f"New invitation: {name}"

    res = requests.post(f"{base}/v1/games/{gid}/join", headers=auth(bo["token"]), timeout=10)
    assert res.status_code == 200, res.text
    requests.post(f"{base}/v1/games/{gid}/join", headers=auth(cy["token"]), timeout=10)
    mine = f'#my-games li[data-game="{gid}"]'
    page.wait(lambda: "in play" in page.text(mine), timeout=15)  # the start, from the feed
    assert not page.all(f'#invitations li[data-game="{gid}"]')  # the seat was taken

    page.find(f"{mine} a").send_keys("")  # the keyboard's focus on the game's link
    _play_others_until_mine(base, gid, bo, [ana, cy])
    page.wait_for(f"{mine} .turn-tag", timeout=15)
    assert page.text("#home-said") == f"your turn: {name}"
    assert browser.title.startswith(f"● your turn · {name}")
    focused = browser.execute_script(
        "const a = document.activeElement; return [a.className, a.closest('[data-game]')?.dataset.game]"
    )
    assert focused == ["game-link", gid]  # the list was drawn again under the focus
    for width_name, width in WIDTHS.items():
        page.shot(f"home-my-turn-{width_name}", width)

    dee = _player(base, "Dee")
    made = requests.post(
        f"{base}/v1/games", json={"ruleset": "gobcon", "players": 2}, headers=auth(dee["token"])
    ).json()
    page.wait_for(f'#lobby li[data-game="{made["id"]}"]', timeout=40)  # the lobby read again
    assert browser.execute_script("return window.sameDocument") is True
    assert browser.current_url.endswith("/#/") or "#/g/" not in browser.current_url
    no_script_errors(browser)
