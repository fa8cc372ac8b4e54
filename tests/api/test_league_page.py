"""A league's standings page in headless Chromium: the table, the rounds, replay links."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from selenium.webdriver.common.by import By

from service import league_commands
from tests.api.helpers import by_seat, play_to_end
from tests.leagues.helpers import started_league

SHOTS = Path("/tmp/league-shots")


def test_the_standings_page_shows_the_table_rounds_and_replay_links(
    browser,
    live_server,
    client,
    app,
    tmp_path,
):
    lid, players = started_league(client, app, n=4, rounds=3, table_size={"min": 3, "max": 3})
    deps = app.extensions["marketfold"]
    gid = client.get(f"/v1/leagues/{lid}/rounds/1").get_json()["tables"][0]["game"]
    seated = [p for p in players if deps.store.load(gid).record.seat_of(p["id"]) is not None]
    play_to_end(client, app, gid, by_seat(client, gid, seated), random.Random(4))
    assert league_commands.record_result(deps, lid, gid) == "recorded"
    browser.get(f"{live_server}/leagues/{lid}")
    path = tmp_path / "league.png"
    browser.save_screenshot(str(path))
    SHOTS.mkdir(exist_ok=True)
    shutil.copy(path, SHOTS / "league.png")
    rows = browser.find_elements(By.CSS_SELECTOR, "#standings tbody tr")
    standings = client.get(f"/v1/leagues/{lid}/standings").get_json()["standings"]
    assert [r.find_elements(By.TAG_NAME, "td")[1].text for r in rows] == [
        s["name"] for s in standings
    ]
    assert rows[0].find_elements(By.TAG_NAME, "td")[2].text == f"{standings[0]['points']:g}"
    rounds = browser.find_elements(By.CSS_SELECTOR, "section.round h3")
    assert [h.text for h in rounds][:2] == ["Round 1 (started)", "Round 2 (to come, as paired now)"]
    links = browser.find_elements(By.CSS_SELECTOR, "section.round a")
    assert [a.get_attribute("href") for a in links] == [f"{live_server}/games/{gid}/replay"]
    first = browser.find_element(By.CSS_SELECTOR, "section.round").text
    assert "sitting out" in first
    assert "players (by seat), with their place once played" in first  # the label of "(place n)"
    assert "(place 1)" in first
    font = browser.execute_script(
        "return getComputedStyle(document.querySelector('th')).backgroundColor"
    )
    assert font == "rgb(243, 241, 234)"  # the stylesheet loaded under the page's CSP
