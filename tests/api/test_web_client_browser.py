"""The web client at `/` in headless Chromium: a whole game of each ruleset with one seat
played by clicking in the page and the others by bots, to the result; a game created by one
person and joined by another through its invitation link; a reload mid-game; a deadline's
default shown; chat; a Spanish table; axe-core finding nothing serious; screenshots."""

from __future__ import annotations

import random
import re
import threading
import time

import pytest
import requests

from cli.bot import Bot
from tests.api.web_page import (
    WIDTHS,
    Select,
    WebPage,
    bots_join,
    join_idle_table,
    no_script_errors,
)
from tests.conftest import api_server
from tests.leagues.helpers import new_league

GAMES = [("goblin-market", 3), ("sorcerous-futures", 3), ("black-market", 3), ("gobcon", 2)]
OPTIONS = {"gobcon": {"time_limit": 2}}  # two rounds, typed into the options form


def _bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize(("ruleset", "players"), GAMES)
def test_a_whole_game_is_played_by_clicking_in_the_page_to_its_result(
    shared_browser, shared_server, worker_process, ruleset, players
):
    worker_process()  # closes sealed phases
    page = WebPage(shared_browser, shared_server)
    me = page.sign_in("ana")
    axe = page.axe()
    assert not axe, axe  # the home page
    gid = page.create(ruleset, players, OPTIONS.get(ruleset))
    assert "ana" in page.text("#board")  # seated, waiting for the others
    bots_join(shared_server, gid, players - 1)
    page.wait_for("#board .seat-row")
    shown = {}

    def look(clicks: int) -> None:
        if ruleset == "black-market" and "refused" not in shown:
            time.sleep(1)  # the table redrawn after the click
            # a deal sent without goods (Black Market's deal form, trade.js)
            forms = [b for b in page.all("#move .deal-form .act") if b.is_enabled()]
        else:
            forms = []
        if forms:  # an action built from a schema, sent without values
            forms[0].click()
            shown["refused"] = page.wait(lambda: page.text("#refusal"))
        if clicks == 3 and "axe" not in shown:
            shown["axe"] = page.axe()
            for name, width in WIDTHS.items():
                page.shot(f"table-{ruleset}-{name}", width)
            shown["cards"] = len(page.all("#board .card"))

    clicks = page.play_until_result(random.Random(7), on_click=look)
    assert clicks >= 3
    # the turn signal in the tab's title (Black Market also offers deals to a seat that owes
    # nothing, and a click may come in the instant before the title is redrawn: not all)
    assert any(t.startswith("● your turn") for t in page.titles), page.titles
    assert not shared_browser.title.startswith("●")
    assert not shown["axe"], shown["axe"]
    assert shown["cards"] > 0  # cards are drawn at the table
    if ruleset == "black-market":  # its deals are built from a schema: a refusal's detail shown
        assert shown["refused"].startswith("Refused: ") and len(shown["refused"]) > 12
    final = requests.get(f"{shared_server}/v1/games/{gid}", headers=_bearer(me["token"])).json()
    assert final["status"] == "finished"
    for key, value in OPTIONS.get(ruleset, {}).items():
        assert final["options"][key] == value
    rows = shared_browser.execute_script(  # read at once: the table may be redrawn meanwhile
        "return [...document.querySelectorAll('#result-box tbody tr')]"
        ".map((r) => [r.dataset.seat, r.querySelector('.place').textContent])"
    )
    assert rows == [[str(s["seat"]), str(s["place"])] for s in final["result"]["standings"]]
    href = page.wait(lambda: page.find(".replay-link").get_attribute("href"))  # again if redrawn
    assert href.endswith(f"/games/{gid}/replay")
    assert page.all("#result-box .rematch") or page.all(".seat-actions .rematch")
    no_script_errors(shared_browser)


def test_the_lobby_and_my_games_list_what_waits_on_me_first(shared_browser, shared_server):
    page = WebPage(shared_browser, shared_server)
    me = page.sign_in("cy")
    other = requests.post(f"{shared_server}/v1/players", json={"name": "dee"}).json()
    made = requests.post(
        f"{shared_server}/v1/games",
        json={"ruleset": "gobcon", "players": 3},
        headers=_bearer(other["token"]),
    ).json()
    page.open("/")
    page.wait_for(f'#lobby li[data-game="{made["id"]}"]')
    assert not page.axe()
    for name, width in WIDTHS.items():
        page.shot(f"lobby-{name}", width)
    page.find(f'#lobby li[data-game="{made["id"]}"] a').click()
    page.click(".join")
    page.wait_for(".leave")
    mine = requests.get(f"{shared_server}/v1/players/me/games", headers=_bearer(me["token"])).json()
    assert [g["id"] for g in mine["games"]] == [made["id"]]
    page.click(".leave")  # leave before the start
    page.wait_for(".join")
    no_script_errors(shared_browser)


def test_a_game_created_in_the_page_is_joined_by_its_link_chatted_at_and_reloaded(
    shared_browser, shared_server, worker_process
):
    worker_process()  # ana leaves before bo joins: her seat's reveal window ends there
    page = WebPage(shared_browser, shared_server)
    ana = page.sign_in("ana")
    gid = page.create("gobcon", 2)
    link = page.wait_for(".invite-link")[0].get_attribute("value")
    assert link == f"{shared_server}/#/g/{gid}"
    page.sign_out()
    bo = page.sign_in("bo")
    shared_browser.get(link)  # the invitation link, opened by another person
    page.click(".join")
    page.wait_for("#board .seat-row")  # both seats taken: the game started (docs/fairness.md)
    game = requests.get(f"{shared_server}/v1/games/{gid}", headers=_bearer(bo["token"])).json()
    assert {s["name"] for s in game["seats"]} == {"ana", "bo"} and game["status"] == "active"
    assert Number_of(page, "#board .seat-row") == 2
    # chat: sent from the page, and another player's message arriving live
    page.find("#chat-input").send_keys("hola <b>todos</b>")
    page.find(".chat-form button").click()
    page.wait(lambda: "hola <b>todos</b>" in page.find("#chat").text)  # shown as text
    assert not page.all("#chat b b")
    requests.post(
        f"{shared_server}/v1/games/{gid}/chat",
        json={"text": "gl hf"},
        headers=_bearer(ana["token"]),
    )
    page.wait(lambda: "gl hf" in page.find("#chat").text)
    # a reload mid-game keeps the place: same table, same turn, chat and events still there
    before = page.text("#turn")
    shared_browser.refresh()
    page.wait_for("#board .seat-row")
    page.wait(lambda: "gl hf" in page.find("#chat").text)
    assert page.text("#turn").split("left")[0][:12] == before.split("left")[0][:12]
    assert page.all("#log li")
    page.wait(lambda: page.find(".live").text == "live")  # the stream is open again
    # and the table still follows the game: ana's move (through the API) shows up
    mine = requests.get(f"{shared_server}/v1/games/{gid}", headers=_bearer(ana["token"])).json()
    if any(o["seat"] == mine["you"] for o in mine["owed"]):
        legal = requests.get(f"{shared_server}/v1/games/{gid}/legal", headers=_bearer(ana["token"]))
        choice = legal.json()["actions"][-1]["choices"][0]
        res = requests.post(
            f"{shared_server}/v1/games/{gid}/actions", json=choice, headers=_bearer(ana["token"])
        )
        assert res.status_code in (201, 202), res.text
        version = res.json()["version"]
        page.wait(
            lambda: any(int(li.get_attribute("data-seq")) == version for li in page.all("#log li"))
        )


def Number_of(page, css: str) -> int:  # noqa: N802
    return len(page.all(css))


def test_a_spanish_table_shows_a_deadline_running_out_and_its_default(
    shared_browser, shared_server, worker_process
):
    worker_process()  # applies defaults at deadlines
    shared_browser.execute_cdp_cmd(
        "Network.setUserAgentOverride",
        {
            "userAgent": shared_browser.execute_script("return navigator.userAgent"),
            "acceptLanguage": "es-ES,es",
        },
    )
    page = WebPage(shared_browser, shared_server)
    page.sign_in("eva")
    assert "Nueva partida" in page.text("#create")  # the home page in Spanish
    page.wait(lambda: "comparten la victoria" in page.text("#create"))  # options' help too
    assert page.find("#lang").get_attribute("value") == "es"
    join_idle_table(page, ("cy", "dee"), ruleset="goblin-market", players=3, decision_timeout_s=3)
    page.wait_for("#board .seat-row")
    assert "Turno" in page.text("#turn")
    spanish = requests.get(
        f"{shared_server}/v1/rulesets/goblin-market/cards", headers={"Accept-Language": "es"}
    ).json()["cards"]
    names = {c["name"] for c in spanish}
    # (long Spanish names carry soft hyphens at their syllables: shared/hyphen.js)
    shown = {t.replace("\u00ad", "") for t in page.texts("#board .card .cname")}
    assert shown and shown <= names  # every card drawn carries its Spanish name
    # nobody acts for the idle seats (nor for eva): a default is applied and told in words
    page.wait(lambda: page.all("#log li.timed-out"), timeout=40)
    assert "se le acabó el tiempo" in page.text("#log li.timed-out")
    for name, width in WIDTHS.items():
        page.shot(f"table-goblin-market-es-{name}", width)
    # switched to English: the same table in English words and card names
    Select(page.find("#lang")).select_by_value("en")
    page.wait(lambda: "Turn" in page.find("#turn").text and "Turno" not in page.find("#turn").text)


def test_a_spectator_watches_a_game_read_only(shared_browser, shared_server):
    players = [requests.post(f"{shared_server}/v1/players", json={"name": n}).json() for n in "xy"]
    gid = requests.post(
        f"{shared_server}/v1/games",
        json={"ruleset": "gobcon", "players": 2},
        headers=_bearer(players[0]["token"]),
    ).json()["id"]
    for p in players:
        requests.post(f"{shared_server}/v1/games/{gid}/join", headers=_bearer(p["token"]))
    page = WebPage(shared_browser, shared_server)
    page.open(f"/#/g/{gid}")  # nobody signed in
    page.wait_for("#board .seat-row")
    assert "watching" in page.text("#move")
    assert not page.all("#move .act") and not page.all("#chat-input") and not page.all(".join")
    assert not page.all("#board [data-key=hand] .card")  # no seat's hand: only public facts
    fetched = shared_browser.execute_script("return window.__fetched")
    assert fetched and not any(f["auth"] for f in fetched)


def test_the_table_follows_the_game_across_dropped_streams(
    shared_browser, redis_url, worker_process
):
    worker_process()  # closes GobCon's answer windows
    # streams closed by the server every 2 s: the page resumes after the last event it saw
    with api_server(redis_url, MARKETFOLD_SSE_MAX_S="2") as (base, _):
        xy = [requests.post(f"{base}/v1/players", json={"name": n}).json() for n in "xy"]
        gid = requests.post(
            f"{base}/v1/games",
            json={"ruleset": "gobcon", "players": 2},
            headers=_bearer(xy[0]["token"]),
        ).json()["id"]
        for p in xy:
            requests.post(f"{base}/v1/games/{gid}/join", headers=_bearer(p["token"]))
        page = WebPage(shared_browser, base)
        page.open(f"/#/g/{gid}")
        page.wait_for("#board .seat-row")
        for _ in range(3):  # each move made after at least one reconnection
            time.sleep(2.5)
            game = requests.get(f"{base}/v1/games/{gid}").json()
            while not game["owed"]:
                time.sleep(0.2)
                game = requests.get(f"{base}/v1/games/{gid}").json()
            seat = game["owed"][0]["seat"]
            token = next(p["token"] for p in xy if p["id"] == game["seats"][seat]["player"])
            legal = requests.get(f"{base}/v1/games/{gid}/legal", headers=_bearer(token)).json()
            res = requests.post(
                f"{base}/v1/games/{gid}/actions",
                json=legal["actions"][-1]["choices"][0],
                headers=_bearer(token),
            )
            version = res.json()["version"]
            page.wait(lambda v=version: page.all(f'#log li[data-seq="{v}"]'), timeout=15)


def test_an_invitation_is_accepted_in_the_page_and_a_rematch_offered_from_its_result(
    shared_browser, shared_server, worker_process
):
    worker_process()
    page = WebPage(shared_browser, shared_server)
    bo = page.sign_in("Bo", handle="bo")
    ana = requests.post(f"{shared_server}/v1/players", json={"name": "Ana", "handle": "ana"}).json()
    game = requests.post(
        f"{shared_server}/v1/games",
        json={"ruleset": "gobcon", "players": 2, "options": {"time_limit": 1}, "invite": ["bo"]}
        | {"join": True},
        headers=_bearer(ana["token"]),
    ).json()
    threading.Thread(
        target=Bot(shared_server, game["id"], ana["token"], None).play, daemon=True
    ).start()
    page.open("/")
    page.wait_for(f'#invitations li[data-game="{game["id"]}"]')
    page.find(f'#invitations li[data-game="{game["id"]}"] .accept').click()
    page.wait_for("#board .seat-row")  # accepted: the held seat taken, the game started
    page.play_until_result(random.Random(3))
    page.click(".rematch")  # an offer: ana's seat held for her
    page.wait(
        lambda: (
            "#/g/" in shared_browser.current_url and game["id"] not in shared_browser.current_url
        )
    )
    rematch = shared_browser.current_url.split("#/g/")[1].split("/")[0]
    held = f'.invited li[data-player="{ana["id"]}"]'
    page.wait_for(held)
    offered = requests.get(
        f"{shared_server}/v1/players/me/invitations", headers=_bearer(ana["token"])
    )
    assert [i["game"] for i in offered.json()["invitations"]] == [rematch]
    requests.post(f"{shared_server}/v1/games/{rematch}/decline", headers=_bearer(ana["token"]))
    page.wait(lambda: "declined" in page.find(held).text)
    assert bo["id"] in {
        s["player"] for s in requests.get(f"{shared_server}/v1/games/{rematch}").json()["seats"]
    }


def test_my_leagues_link_to_their_pages_and_standings(shared_browser, redis_url, client):
    op = client.post("/v1/players", json={"name": "op"}).get_json()
    with api_server(redis_url, MARKETFOLD_OPERATORS=op["id"]) as (base, _):
        page = WebPage(shared_browser, base)
        mia = page.sign_in("mia")
        lid = new_league(requests_client(base), op, [mia])
        page.open("/")
        page.wait_for(f'#leagues a[href="#/l/{lid}"]')[0].click()  # the league's page
        page.wait(lambda: "mia" in page.text("#league-standings"))
        page.wait_for(f'.league-links a[href="/leagues/{lid}"]')[0].click()
        page.wait(lambda: shared_browser.current_url == f"{base}/leagues/{lid}")
        assert "mia" in shared_browser.find_element("tag name", "body").text


class requests_client:  # noqa: N801 (the Flask test client's calls, over HTTP)
    def __init__(self, base: str):
        self.base = base

    def post(self, path: str, json=None, headers=None):
        res = requests.post(self.base + path, json=json, headers=headers, timeout=10)
        res.get_json = res.json
        return res


def test_a_private_game_is_joined_through_its_secret_link(
    shared_browser, shared_server, worker_process
):
    worker_process()  # ana's page is gone when bo joins: the game starts at her reveal window's end
    page = WebPage(shared_browser, shared_server)
    page.sign_in("ana")
    page.click("#create-unlisted")
    gid = page.create("gobcon", 2)
    link = page.wait_for(".invite-link")[0].get_attribute("value")
    seen = requests.get(f"{shared_server}/v1/games/{gid}").json()
    assert not seen.get("secret")  # the secret is shown to its creator only
    assert link.startswith(f"{shared_server}/#/g/{gid}/")
    assert len(link) > len(f"{shared_server}/#/g/{gid}/")
    lobby = requests.get(f"{shared_server}/v1/games?status=waiting").json()["games"]
    assert gid not in {g["id"] for g in lobby}
    page.sign_out()
    page.sign_in("bo")
    page.open(f"/#/g/{gid}")  # without the secret: no seat for bo, and no Join that would fail
    page.wait(lambda: page.all("#decision") or page.all(".missing"))
    assert not page.all(".join")
    shared_browser.get(link)  # with it
    page.wait(lambda: "/#/g/" in shared_browser.current_url)
    page.click(".join")
    page.wait_for("#board .seat-row")
    seats = requests.get(f"{shared_server}/v1/games/{gid}").json()["seats"]
    assert {s["name"] for s in seats} == {"ana", "bo"}


def test_what_just_happened_names_the_players_who_sat_down_after_the_page_opened(
    shared_browser, shared_server
):
    page = WebPage(shared_browser, shared_server)
    page.sign_in("eva")
    gid = page.create("goblin-market", 3)  # eva alone at the table
    for name in ("xo", "yu"):  # the last join starts the game: its first events name seats
        player = requests.post(f"{shared_server}/v1/players", json={"name": name}).json()
        requests.post(f"{shared_server}/v1/games/{gid}/join", headers=_bearer(player["token"]))
    page.wait(lambda: "bids first" in page.text("#log"))
    page.wait(lambda: not re.search(r"\bseat \d", page.text("#log")), timeout=10)
    assert re.search(r"\b(eva|xo|yu) bids first\b", page.text("#log")), page.text("#log")
