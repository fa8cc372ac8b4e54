"""At the table, a player reports another's chat message and an operator hides one, from the
page (docs/operations.md, "Moderation")."""

from __future__ import annotations

import json
import subprocess
import sys

import requests

from tests.api.web_page import WIDTHS, WebPage, new_player, no_script_errors
from tests.conftest import ROOT


def grant_operator(redis_url: str, player_id: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "admin", "grant", player_id, "operator"],
        env={"REDIS_URL": redis_url, "PATH": "/usr/bin:/bin"},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def test_a_player_reports_a_message_and_an_operator_hides_it(browser, live_server, redis_url):
    base = live_server
    bo = new_player(base, "bo")
    page = WebPage(browser, base)
    ana = page.sign_in("ana")
    gid = page.create("gobcon", 2)
    requests.post(f"{base}/v1/games/{gid}/join", headers={"Authorization": f"Bearer {bo['token']}"})
    page.wait_for("#board .seat-row")
    requests.post(
        f"{base}/v1/games/{gid}/chat",
        json={"text": "you play like a potato"},
        headers={"Authorization": f"Bearer {bo['token']}"},
    )
    page.wait(lambda: "potato" in page.find("#chat").text)
    browser.execute_script("window.prompt = () => 'insults'")  # the reason typed in the dialog
    report = page.find("#chat li button")
    assert report.text == "Report" and "bo" in report.get_attribute("aria-label")
    report.click()
    page.wait(lambda: page.find("#chat li button").text == "Reported")
    grant_operator(redis_url, ana["id"])
    reports = requests.get(
        f"{base}/v1/reports", headers={"Authorization": f"Bearer {ana['token']}"}
    )
    assert [r["reason"] for r in reports.json()["reports"]] == ["insults"]
    browser.refresh()  # the page reads the caller's roles again: ana is an operator now
    page.wait(lambda: page.find("#moderation-link").is_displayed())
    page.find("#moderation-link").click()
    page.wait(lambda: "reported bo" in page.text("#reports"))
    assert "insults" in page.text("#reports")
    assert not page.axe()
    for name, width in WIDTHS.items():
        page.shot(f"moderation-{name}", width)
    browser.execute_script("window.prompt = () => 'slurs'")
    page.click("#reports button", text="Mute")
    page.wait(
        lambda: (
            requests.get(
                f"{base}/v1/players/{bo['id']}/moderation",
                headers={"Authorization": f"Bearer {ana['token']}"},
            ).json()["muted"]
            is not None
        )
    )
    browser.execute_script("window.prompt = () => 'muted him'")
    page.click("#reports button", text="Close")
    page.wait(lambda: "No open reports." in page.text("#reports"))
    browser.get(f"{base}/#/g/{gid}")
    page.wait(lambda: "Hide" in page.texts("#chat li button"))
    browser.execute_script("window.prompt = () => 'rude'")
    page.click("#chat li button", text="Hide")
    page.wait(lambda: "Hide" not in page.texts("#chat li button"))
    seen = requests.get(
        f"{base}/v1/games/{gid}/chat", headers={"Authorization": f"Bearer {bo['token']}"}
    ).json()["messages"]
    assert seen[0]["text"] == "" and seen[0]["hidden"]["reason"] == "rude"
    browser.execute_script(
        "localStorage.setItem('marketfold.player', arguments[0])",
        json.dumps({"id": bo["id"], "name": "bo", "token": bo["token"]}),
    )
    browser.refresh()  # bo reads his own message as hidden, with the reason
    page.wait(lambda: "Hidden by the operators: rude" in page.find("#chat").text)
    assert "potato" not in page.find("#chat").text
    assert not page.axe()
    for name, width in WIDTHS.items():
        page.shot(f"table-chat-hidden-{name}", width)
    no_script_errors(browser)
