"""The table's small cares, in headless Chromium (issue 44): Sign out warns and offers the
token; a spectator never reads "Your move"; an unknown game stops loading with a message; a
name of spaces is told so; the home page has its <h1>; no Join button on a private game the
person cannot join; Black Market's deal form speaks in names and keeps what was typed after a
refusal; focus stays in the move box after an action."""

from __future__ import annotations

import requests

from tests.api.web_page import (
    WIDTHS,
    Keys,
    WebPage,
    join_idle_table,
    new_player,
    no_script_errors,
    play_others_until_mine,
)
from tests.reliability.load import auth


def axe_at_both_widths(page: WebPage, name: str) -> None:
    """axe-core finds nothing, of any impact, at a phone's and a desktop's width."""
    for label, width in WIDTHS.items():
        page.shot(f"table-{name}-{label}", width)
        page.d.set_window_size(width, 900)
        found = page.axe(every=True)
        assert not found, (name, width, [(v["id"], v["nodes"]) for v in found])


def test_sign_out_warns_and_offers_the_token_before_forgetting_it(shared_browser, shared_server):
    page = WebPage(shared_browser, shared_server)
    player = page.sign_in("eva")
    page.click("#sign-out")
    page.wait_for("#sign-out-ask")
    assert "eva" in page.text("#sign-out-warn")
    shown = page.find("#sign-out-ask input").get_attribute("value")
    assert shown == player["token"]
    # still signed in until asked again
    assert shared_browser.execute_script("return localStorage.getItem('marketfold.player')")
    page.click("#sign-out-confirm")
    page.wait_for("#name-input")
    assert shared_browser.execute_script("return localStorage.getItem('marketfold.player')") is None


def test_a_name_of_spaces_is_told_so_and_the_home_page_has_a_heading(shared_browser, shared_server):
    page = WebPage(shared_browser, shared_server)
    page.open("/")
    assert page.all("h1")
    page.find("#name-input").send_keys("    ")
    page.find("#sign-in button[type=submit]").click()
    page.wait(lambda: page.text("#error"))
    assert "spaces" in page.text("#error"), page.text("#error")


def test_an_unknown_game_stops_loading_with_a_message(shared_browser, shared_server):
    page = WebPage(shared_browser, shared_server)
    page.open("/#/g/g_doesnotexist0")
    page.wait(lambda: page.all(".missing"))
    assert "No such game" in page.text(".missing h1")
    assert not page.all("#app > p.muted")  # not "Loading…" for ever


def test_a_spectator_never_reads_your_move_and_a_finished_table_is_not_live(
    shared_browser, shared_server
):
    base = shared_server
    a, b, c = (new_player(base, n) for n in ("Ana", "Bo", "Cy"))
    gid = requests.post(
        f"{base}/v1/games",
        json={"ruleset": "goblin-market", "players": 3},
        headers=auth(a["token"]),
    ).json()["id"]
    for p in (a, b, c):
        requests.post(f"{base}/v1/games/{gid}/join", headers=auth(p["token"]))
    page = WebPage(shared_browser, base)
    page.open(f"/#/g/{gid}")
    page.wait_for("#decision")
    page.wait(lambda: page.text("#move-title"))
    assert "Your move" not in page.text("#app")
    assert "your" not in page.text("#decision").lower()
    assert page.text(".live") in ("live", "reconnecting…", "")
    axe_at_both_widths(page, "spectator")  # a spectator's table mid-game
    for p in (a, b, c):  # everyone resigns: the game ends
        requests.post(f"{base}/v1/games/{gid}/resign", headers=auth(p["token"]))
    page.wait(lambda: page.all("#result-box"))
    page.wait(lambda: not page.text(".live"))
    # the result's columns line up: each heading above its cells
    lefts = shared_browser.execute_script(
        "const x = (e) => Math.round(e.getBoundingClientRect().left);"
        "const t = document.querySelector('#result-box table');"
        "const row = (r) => [...r.cells].map(x);"
        "return [row(t.tHead.rows[0]), ...[...t.tBodies[0].rows].map(row)]"
    )
    assert all(row == lefts[0] for row in lefts), lefts
    axe_at_both_widths(page, "result")  # a spectator's finished table: the result
    no_script_errors(shared_browser)


def test_no_join_button_on_a_private_game_one_cannot_join(shared_browser, shared_server):
    base = shared_server
    owner = new_player(base, "Ana")
    gid = requests.post(
        f"{base}/v1/games",
        json={"ruleset": "goblin-market", "players": 3, "unlisted": True},
        headers=auth(owner["token"]),
    ).json()["id"]
    page = WebPage(shared_browser, base)
    page.sign_in("eva")
    page.open(f"/#/g/{gid}")
    page.wait_for("#decision")
    assert not page.all(".join")


def test_a_black_market_deal_names_partners_and_keeps_what_was_typed(
    shared_browser, shared_server, worker_process
):
    worker_process()
    page = WebPage(shared_browser, shared_server)
    page.sign_in("eva")
    gid, idle = join_idle_table(
        page, ["Ana", "Bo"], ruleset="black-market", players=3, options={"trade": "wild"}
    )
    page.wait_for("#move [data-type=produce]")  # the game started
    # everyone produces nothing; wild trade opens for every seat
    for i, p in enumerate(idle):
        res = requests.post(
            f"{shared_server}/v1/games/{gid}/actions",
            json={"type": "produce", "goods": []},
            headers={**auth(p["token"]), "Idempotency-Key": f"produce-{i}"},
            timeout=10,
        )
        assert res.status_code in (201, 202), res.text
    page.wait_for("#move .schema-form, #move .choices")
    page.d.execute_script(
        "const f = document.querySelector('#move [data-type=produce] form');"
        "f.querySelector('button[type=submit]').click()"
    )
    page.wait_for("#deal-offer-to", timeout=60)
    partners = page.texts("#deal-offer-to option")
    assert sorted(partners) == ["Ana", "Bo"], partners
    assert page.text(".deal-table").count("You hold")
    # a one-sided deal (nothing given for 9 yellow) is refused, and the typed fields stay
    page.find("#deal-offer-take-yellow").clear()
    page.find("#deal-offer-take-yellow").send_keys("9")
    summary = page.text(".deal-summary")
    assert summary in (
        "You give Ana nothing and get 9 yellow.",
        "You give Bo nothing and get 9 yellow.",
    ), summary
    page.click("[data-type=offer] .deal-form button[type=submit]")
    page.wait(lambda: page.text("#refusal"))
    assert page.find("#deal-offer-take-yellow").get_attribute("value") == "9"
    assert shared_browser.execute_script("return document.activeElement !== document.body")
    no_script_errors(shared_browser)


def test_the_focus_stays_in_the_move_box_after_an_action(shared_browser, shared_server):
    page = WebPage(shared_browser, shared_server)
    me = page.sign_in("eva")
    gid, idle = join_idle_table(page, ["Ana", "Bo"], ruleset="goblin-market", players=3)
    page.wait(lambda: (s := page.text("#decision")) and "Waiting for players" not in s)
    play_others_until_mine(shared_server, gid, me, idle)
    page.wait(lambda: page.text("#decision").startswith("Bid for"))
    page.wait_for("#move [data-type=pass] .act")
    page.find("#move [data-type=pass] .act").send_keys(Keys.ENTER)  # from the keyboard
    page.wait(lambda: not page.text("#decision").startswith("Bid for"))
    page.wait(lambda: not page.all("#move [data-type=pass] .act"))
    where = shared_browser.execute_script(
        "const a = document.activeElement; return [a.tagName, !!a.closest('#move')]"
    )
    assert where[0] != "BODY" and where[1], where
    no_script_errors(shared_browser)
