"""The web client keeps itself current in headless Chromium. The home page: an invitation, a
game's start and a turn that becomes mine show up without a reload (the player's feed),
the focus stays on the game it was on when the list is drawn again, and a game opened by
someone else reaches the lobby (read again every few seconds). A table: the header says
when a decision waits on me in another game, and links to it."""

from __future__ import annotations

import requests

from tests.api.web_page import (
    WIDTHS,
    WebPage,
    new_player,
    no_script_errors,
    play_others_until_mine,
)
from tests.reliability.load import auth


def test_the_home_page_shows_an_invitation_a_start_and_my_turn_without_a_reload(
    shared_browser, shared_server
):
    base = shared_server
    page = WebPage(shared_browser, base)
    bo = page.sign_in("Bo", handle="bo")
    shared_browser.execute_script("window.sameDocument = true")  # gone if the page is loaded again
    ana, cy = new_player(base, "Ana", "ana"), new_player(base, "Cy")
    name = next(
        r["name"]
        for r in requests.get(f"{base}/v1/rulesets").json()["rulesets"]
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
    play_others_until_mine(base, gid, bo, [ana, cy])
    page.wait_for(f"{mine} .turn-tag", timeout=15)
    assert page.text("#home-said") == f"your turn: {name}"
    assert shared_browser.title.startswith(f"● your turn · {name}")
    focused = shared_browser.execute_script(
        "const a = document.activeElement;"
        " return [a.className, a.closest('[data-game]')?.dataset.game]"
    )
    assert focused == ["game-link", gid]  # the list was drawn again under the focus
    for width_name, width in WIDTHS.items():
        page.shot(f"home-my-turn-{width_name}", width)

    dee = new_player(base, "Dee")
    made = requests.post(
        f"{base}/v1/games", json={"ruleset": "gobcon", "players": 2}, headers=auth(dee["token"])
    ).json()
    page.wait_for(f'#lobby li[data-game="{made["id"]}"]', timeout=40)  # the lobby read again
    assert shared_browser.execute_script("return window.sameDocument") is True
    assert shared_browser.current_url.endswith("/#/") or "#/g/" not in shared_browser.current_url
    no_script_errors(shared_browser)


def test_a_table_says_when_another_game_waits_on_me(shared_browser, shared_server):
    base = shared_server
    page = WebPage(shared_browser, base)
    bo = page.sign_in("Bo")
    ana, cy = new_player(base, "Ana"), new_player(base, "Cy")
    other = requests.post(
        f"{base}/v1/games",
        json={"ruleset": "goblin-market", "players": 3},
        headers=auth(ana["token"]),
    ).json()["id"]
    here = page.create("gobcon", 2)  # a table of my own, waiting for a second player
    elsewhere = "#turns-elsewhere"
    assert not page.find(elsewhere).is_displayed()

    for p in (ana, bo, cy):  # the other game starts, with me in it
        requests.post(f"{base}/v1/games/{other}/join", headers=auth(p["token"]), timeout=10)
    play_others_until_mine(base, other, bo, [ana, cy])
    page.wait(lambda: page.find(elsewhere).is_displayed(), timeout=40)  # read again
    assert page.text(elsewhere) == "Your turn in 1 other game"
    assert page.text("#elsewhere-said") == "Your turn in 1 other game"
    assert f"#/g/{here}" in shared_browser.current_url
    assert not page.axe()
    for width_name, width in WIDTHS.items():
        page.shot(f"table-turn-elsewhere-{width_name}", width)

    page.click(elsewhere)
    page.wait(lambda: f"#/g/{other}" in shared_browser.current_url)
    page.wait_for("#move .act")  # the decision that waited, offered
    assert not page.find(elsewhere).is_displayed()  # nothing waits anywhere else
    no_script_errors(shared_browser)
