"""A whole league season run from the browser, in headless Chromium (issue 43, section 5):
the server's first operator is made on the server (`marketfold admin grant`), and from then
on nobody uses a terminal. The operator grants the organizer role on the operators' page;
the organizer creates a league with the form, invites five players by handle and shares the
join link with a sixth; each joins from their own home page (their own token); the
organizer moves the start closer with the settings form; round 1 starts, one player never
comes (a no-show, whose one late move is refused for its deadline); the organizer sees the
no-show on the dashboard and substitutes them (button, confirmation); a player disputes
their game from its table; the organizer opens the game's review (its moves with the
defaults marked, the audit's checks, the refused attempts, the outages) and rules on it
there; round 2 is played; and the standings the league page shows are those `marketfold
verify` recounts from the league's signed export. The other players move through the API as
reference bots. Screenshots at phone and desktop widths (copied to the test's tmp dir) of
the dashboard, the review page and the standings; axe-core on each page."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from datetime import datetime, timedelta

import requests

from cli.bot import Bot
from tests import background
from tests.api.league_web import check_axe, confirm, fill, sign_in_with_token
from tests.api.test_web_moderation import grant_operator
from tests.api.web_page import WIDTHS, WebPage, new_player, no_script_errors
from tests.conftest import ROOT, api_server
from tests.reliability.load import auth
from tests.support.waiting import wait_for

try:
    from selenium.webdriver.support.ui import Select
except ImportError:  # browser.py reports the missing selenium
    Select = None

TIMEOUT_S = 8  # the league's decision deadline: a no-show costs a few seconds a turn
HANDLES = ["ana", "bo", "cy", "dee", "eli"]  # invited by handle; "fay" comes by the link


def shots(page: WebPage, name: str, tmp_path, at: str | None = None) -> None:
    """Phone and desktop screenshots, left in SCREENS and copied to the test's tmp dir:
    the first screen, the whole page and (`at`) the screen showing that element."""
    for width_name, width in WIDTHS.items():
        full = page.shot(f"{name}-{width_name}", width)
        first = full.with_name(full.name.replace("-full", ""))
        for path in (first, full):
            shutil.copy(path, tmp_path / path.name)
        if at:
            page.d.set_window_size(width, 844 if width < 500 else 900)
            page.d.execute_script("document.querySelector(arguments[0]).scrollIntoView()", at)
            time.sleep(0.3)
            there = full.with_name(f"{name}-{width_name}-at.png")
            page.d.save_screenshot(str(there))
            shutil.copy(there, tmp_path / there.name)
            page.d.set_window_size(1280, 1000)


def local_time(page: WebPage, css: str, when: datetime) -> None:
    """Type a local date and time (to the second) into a datetime-local field."""
    page.d.execute_script(
        "const f = document.querySelector(arguments[0]); f.step = '1'; f.value = arguments[1];",
        css,
        when.strftime("%Y-%m-%dT%H:%M:%S"),
    )


def late_move(base: str, gid: str, player: dict) -> str:
    """The no-show's one attempt, after their decisions were defaulted: an action that does
    not answer what they owe now (a reaction while their turn waits, else an end of turn),
    sent with the version they read. The game refuses it (409; 412 if the game moved
    meanwhile) and the dispute's evidence keeps it. Return its code."""
    game = requests.get(f"{base}/v1/games/{gid}").json()
    seat = next(s["seat"] for s in game["seats"] if s["player"] == player["id"])
    turn = any(o["seat"] == seat and o["kind"] == "turn" for o in game["owed"])
    late = requests.post(
        f"{base}/v1/games/{gid}/actions",
        json={"type": "pass" if turn else "end_turn"},
        headers={**auth(player["token"]), "If-Match": str(game["version"])},
    )
    assert late.status_code in (409, 412), late.text
    return late.json()["code"]


def test_an_organizer_runs_a_season_from_the_browser(browser, redis_url, worker_process, tmp_path):
    with api_server(redis_url) as (base, _):
        worker_process()
        page = WebPage(browser, base)

        # the first operator, made on the server; the organizer signs up on the page
        op = new_player(base, "Club operator", "operator")
        grant_operator(redis_url, op["id"])
        desk = page.sign_in("Desk", "desk")
        page.click("#leagues .new-league-link")  # not an organizer yet: the page says so
        page.wait_for("#new-league form")
        fill(page, "#lf-name", "Too early")
        page.click("#new-league button[type=submit]")
        page.wait(lambda: "Only organizers may create leagues" in page.text("#error"))

        # the operator grants the role from the operators' page
        sign_in_with_token(page, op["token"])
        page.wait(lambda: page.find("#moderation-link").is_displayed())
        page.click("#moderation-link")
        page.wait_for("#roles .role-held")
        fill(page, "#grant-player", "desk")
        Select(page.find("#grant-role")).select_by_value("organizer")
        page.click("#roles .grant-role button[type=submit]")
        page.wait(lambda: "Desk is now organizer." in page.text("#roles-said"))
        page.wait(lambda: page.all(f'#roles .role-held[data-player="{desk["id"]}"]'))
        check_axe(page, "the operators' page")
        roles = requests.get(f"{base}/v1/roles", headers=auth(op["token"])).json()["roles"]
        assert {
            "player": desk["id"],
            "name": "Desk",
            "role": "organizer",
            "source": "store",
        } in roles

        # the organizer creates the league from the form (its start is set later)
        sign_in_with_token(page, desk["token"])
        page.click("#leagues .new-league-link")
        page.wait_for("#new-league form")
        fill(page, "#lf-name", "Club season")
        Select(page.find("#lf-ruleset")).select_by_value("gobcon")
        fill(page, '#new-league .lf-options [id^="sf-time_limit-"]', "3")
        fill(page, "#lf-table-min", "3")
        fill(page, "#lf-table-max", "3")
        fill(page, '[data-key="rounds"]', "2")
        fill(page, "#lf-decision_timeout_s", str(TIMEOUT_S))
        Select(page.find("#lf-decision_timeout_s + select")).select_by_visible_text("seconds")
        fill(page, "#lf-cadence_s", "40")  # round 2 starts 40 s after round 1
        Select(page.find("#lf-cadence_s + select")).select_by_visible_text("seconds")
        fill(page, '[data-key="withdraw_after_timeouts"]', "0")  # the organizer decides
        fill(page, "#lf-points", "3, 1, 0")
        local_time(page, "#lf-start_at", datetime.now() + timedelta(hours=1))
        page.click("#new-league button[type=submit]")
        page.wait(lambda: "#/l/" in page.d.current_url)
        lid = page.d.current_url.split("#/l/")[1]
        league = requests.get(f"{base}/v1/leagues/{lid}").json()
        assert (league["ruleset"], league["decision_timeout_s"], league["cadence_s"]) == (
            "gobcon",
            TIMEOUT_S,
            40,
        )

        # five players invited by handle, a sixth through the join link; Sub waits aside
        players = {h: new_player(base, h.title(), h) for h in [*HANDLES, "fay", "sub"]}
        page.wait_for("#league-desk")
        for handle in HANDLES:
            fill(page, "#add-member-input", handle)
            page.click("#league-desk .invite-member")
            page.wait(lambda h=handle: f"{h.title()} is invited" in page.text("#add-member-said"))
        link = page.find("#join-link").get_attribute("value")
        for handle in HANDLES:  # each answers from their own home page, with their token
            sign_in_with_token(page, players[handle]["token"])
            page.click(f'#leagues [data-league="{lid}"] .join-league')
            page.wait(lambda: not page.all(f'#leagues [data-league="{lid}"] .join-league'))
        sign_in_with_token(page, players["fay"]["token"])
        page.d.get(link)
        page.click(".join-league")
        page.wait(lambda: "You play in this league" in page.text("#league-member"))
        page.wait(lambda: "6 players" in page.text(".league-head .meta"))

        # the organizer moves round 1 to a few seconds from now
        sign_in_with_token(page, desk["token"])
        page.click(f'#leagues [data-league="{lid}"] .game-link')
        page.click("#league-desk .edit-league")
        page.wait_for("#edit-league form")
        local_time(page, "#lf-start_at", datetime.now() + timedelta(seconds=6))
        page.click("#edit-league button[type=submit]")
        page.wait(lambda: page.d.current_url.endswith(f"#/l/{lid}"))
        league = requests.get(f"{base}/v1/leagues/{lid}").json()
        assert sorted(m["name"] for m in league["members"]) == sorted(
            p["name"] for h, p in players.items() if h != "sub"
        )

        # round 1: Eli never comes; everyone else is a reference bot
        round1 = f"{base}/v1/leagues/{lid}/rounds/1"
        wait_for(
            lambda: all(tb["game"] for tb in requests.get(round1).json()["tables"]), 60, every=0.25
        )
        tables = requests.get(round1).json()["tables"]
        by_id = {p["id"]: p for p in players.values()}
        eli = players["eli"]
        for tb in tables:
            wait_for(
                lambda g=tb["game"]: requests.get(f"{base}/v1/games/{g}").json().get("owed"),
                60,
                every=0.25,
            )
            for seat in tb["players"]:
                if seat["player"] != eli["id"]:
                    background.play(Bot(base, tb["game"], by_id[seat["player"]]["token"], None))
        noshow = next(tb for tb in tables if eli["id"] in [s["player"] for s in tb["players"]])
        gid = noshow["game"]
        seat = f'.league-seat[data-player="{eli["id"]}"]'

        def no_show_shown() -> bool:  # the organizer reloads the page until it shows
            page.d.refresh()
            page.wait_for("#league-rounds")
            try:
                page.wait(lambda: "no-show" in page.text(seat), timeout=2)
            except AssertionError:
                return False
            return True

        wait_for(no_show_shown, 60, every=0.25)
        refused = late_move(base, gid, eli)
        check_axe(page, "the dashboard with a no-show")
        shots(page, "season-dashboard-no-show", tmp_path)

        member = f'#league-desk li[data-player="{eli["id"]}"]'
        page.click(f"{member} .substitute summary")
        fill(page, f"#substitute-{eli['id']}", "sub")
        confirm(page, f"{member} .substitute button[type=submit]")
        page.wait(lambda: "Sub" in page.texts("#league-desk .league-members .seat-name"))
        game = requests.get(f"{base}/v1/games/{gid}").json()
        sub = players["sub"]
        assert sub["id"] in {s["player"] for s in game["seats"]}, game["seats"]
        background.play(Bot(base, gid, sub["token"], None))  # Sub plays Eli's seat on
        wait_for(
            lambda: all(tb["result"] for tb in requests.get(round1).json()["tables"]),
            90,
            every=0.25,
        )

        # a player of that table disputes it from the table
        disputer = next(
            by_id[s["player"]] for s in noshow["players"] if s["player"] not in (eli["id"],)
        )
        sign_in_with_token(page, disputer["token"])
        page.open(f"/#/g/{gid}")
        page.click("#dispute-open summary")
        fill(page, "#dispute-open textarea", "Eli's seat was played by the server for a while.")
        page.click("#dispute-open button[type=submit]")
        page.wait(lambda: "Dispute 1 is open" in page.text("#dispute-open"))

        # the organizer reviews the game and rules on it from the review page
        sign_in_with_token(page, desk["token"])
        page.open(f"/#/l/{lid}")
        page.wait(lambda: "1 dispute waits for your ruling." in page.text("#league-disputes"))
        page.click('.dispute[data-dispute="1"] .review-link')
        page.wait_for("#review-checks .check")
        assert "Every check passes" in page.text("#review-checks")
        assert refused in page.text("#review-refused")
        assert "Eli" in page.text("#review-refused")
        assert page.all("#review-outages")  # an outage list, empty or not
        assert page.all("#review-moves .timed-out .default-tag")  # the defaults, marked
        assert "Eli's seat was played" in page.text("#review-disputes")
        check_axe(page, "the review page")
        shots(page, "season-review", tmp_path)
        form = "#review-disputes .ruling-form"
        Select(page.find(f"{form} .ruling-kind")).select_by_value("adjusted")
        fill(page, f'{form} .ruling-points input[data-player="{disputer["id"]}"]', "2")
        fill(page, f"{form} .ruling-reason", "The defaults cost them a place: 2 points.")
        confirm(page, f"{form} button[type=submit]")
        page.wait(lambda: "Ruling: points adjusted" in page.text("#review-disputes"))
        review = requests.get(
            f"{base}/v1/leagues/{lid}/games/{gid}/review", headers=auth(desk["token"])
        ).json()
        assert review["counted"][disputer["id"]] == 2
        assert review["disputes"][0]["status"] == "ruled"

        # round 2, everyone a bot (Sub in Eli's place), to the end of the league
        round2 = f"{base}/v1/leagues/{lid}/rounds/2"
        wait_for(lambda: requests.get(round2).status_code == 200, 90, every=0.25)
        wait_for(
            lambda: all(tb["game"] for tb in requests.get(round2).json()["tables"]), 60, every=0.25
        )
        for tb in requests.get(round2).json()["tables"]:
            assert eli["id"] not in [s["player"] for s in tb["players"]]
            game_url = f"{base}/v1/games/{tb['game']}"  # named before a worker creates it
            wait_for(lambda u=game_url: requests.get(u).status_code == 200, 60, every=0.25)
            for s in tb["players"]:
                background.play(Bot(base, tb["game"], by_id[s["player"]]["token"], None))
        league_url = f"{base}/v1/leagues/{lid}"
        wait_for(lambda: requests.get(league_url).json()["status"] == "finished", 90, every=0.25)

        # the standings shown equal those recounted from the signed export
        export = requests.get(f"{league_url}/export")
        (tmp_path / "league.json").write_bytes(export.content)
        (tmp_path / "keys.json").write_text(requests.get(f"{base}/v1/keys").text)
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "cli",
                "verify",
                "--json",
                "--keys",
                str(tmp_path / "keys.json"),
                str(tmp_path / "league.json"),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        report = json.loads(done.stdout)
        assert report["ok"] and report["league"] == lid
        assert [(r["kind"], r["dispute"]) for r in report["rulings"]] == [("adjusted", 1)]
        page.open(f"/#/l/{lid}")
        page.wait(lambda: "finished" in page.text("#league-status"))
        rows = page.texts("#league-standings tbody tr")
        # rank, name and points as shown (the page rounds points to 3 decimals, as people read)
        shown = [
            (rank, name, round(float(pts), 3))
            for rank, name, pts in (r.split("\t")[:3] for r in rows)
        ]
        recounted = [
            (
                str(r["rank"]),
                r["name"] + (" (withdrawn)" if r.get("withdrawn") else ""),
                round(r["points"], 3),
            )
            for r in report["standings"]
        ]
        assert shown == recounted, (shown, recounted)
        assert "Ruling: points adjusted" in page.text('.round[data-round="1"]')
        assert "Eli → Sub" in page.text(f'.round[data-round="1"] {seat}')  # who played it
        check_axe(page, "the finished league")
        shots(page, "season-standings", tmp_path, at="#league-standings")
        no_script_errors(page.d)
