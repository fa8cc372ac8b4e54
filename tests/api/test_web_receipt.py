"""The web client keeps a finished game's receipt without being asked (#45 §2), in headless
Chromium: when the game ends the page stores the receipt its stream sent in localStorage
(by game id), says "receipt kept" (EN/ES) under the result and downloads it; a seat that
was away at the end gets it kept when it comes back. The kept receipt is the one
`marketfold verify --seen` takes."""

from __future__ import annotations

import json
import subprocess
import sys

import requests

from events import receipts, transparency
from tests.api.web_page import WebPage, join_idle_table, no_script_errors
from tests.conftest import ROOT
from tests.reliability.load import auth

KEPT = "return JSON.parse(localStorage.getItem('marketfold.receipt.' + arguments[0]))"


def test_the_page_keeps_the_receipt_at_the_end_and_offers_it(browser, live_server, tmp_path):
    page = WebPage(browser, live_server)
    page.sign_in("rita")
    gid, idle = join_idle_table(page, ["Ana", "Bo"], ruleset="goblin-market", players=3)
    page.wait_for("#decision")
    page.wait(lambda: "Waiting for players" not in page.text("#decision"))
    res = requests.post(f"{live_server}/v1/games/{gid}/abort", headers=auth(idle[0]["token"]))
    assert res.status_code == 200, res.text  # a seated player ends it before anyone moved
    page.wait_for("#receipt-kept")
    assert "Receipt kept" in page.text("#receipt-kept")
    kept = page.d.execute_script(KEPT, gid)
    assert kept["format"] == receipts.FORMAT and kept["game"] == gid
    assert [json.loads(x["leaf"])["kind"] for x in kept["leaves"]] == list(transparency.KINDS)

    # the kept receipt and the export: marketfold verify --seen passes
    (tmp_path / "receipt.json").write_text(json.dumps(kept))
    (tmp_path / "game.json").write_bytes(
        requests.get(f"{live_server}/v1/games/{gid}/export").content
    )
    (tmp_path / "keys.json").write_bytes(requests.get(f"{live_server}/v1/keys").content)
    done = subprocess.run(
        [sys.executable, "-m", "cli", "verify", "--keys", str(tmp_path / "keys.json"),
         "--seen", str(tmp_path / "receipt.json"), "--game", gid, str(tmp_path / "game.json")],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert receipts.PROMISED in done.stdout

    # the download button hands over the same receipt as a file
    page.d.execute_script(
        "window.__saved = null; const real = URL.createObjectURL;"
        "URL.createObjectURL = (b) => { b.text().then((t) => { window.__saved = t; });"
        " return real(b); };"
    )
    page.click(".receipt-download")
    page.wait(lambda: page.d.execute_script("return window.__saved"))
    assert json.loads(page.d.execute_script("return window.__saved")) == kept

    # in Spanish, and for a seat that was away at the end: kept when it comes back
    page.d.execute_script("localStorage.removeItem('marketfold.receipt.' + arguments[0])", gid)
    page.open(f"/?lang=es#/g/{gid}")
    page.wait_for("#receipt-kept")
    assert "Recibo guardado" in page.text("#receipt-kept")
    again = page.d.execute_script(KEPT, gid)
    assert again["promise"]["leaf"] == kept["promise"]["leaf"] and again["leaves"] == kept["leaves"]
    no_script_errors(browser)
