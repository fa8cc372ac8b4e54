"""The replay viewer in headless Chromium: a finished game replayed, a game in play watched."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

try:  # the browser tests fail, rather than skip, when Chromium is there but Selenium is not
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    webdriver = None

from tests.service.helpers import by_seat
from tests.service.replay_helpers import SHOTS, assert_nothing_hidden, finished_game, game_in_play

RECORD_FETCHES = """
window.__fetched = [];
const original = window.fetch;
window.fetch = async function (input, init) {
  const res = await original.apply(this, arguments);
  const headers = (init && init.headers) || {};
  const auth = Object.keys(headers).some((h) => h.toLowerCase() === "authorization");
  const body = await res.clone().text();
  window.__fetched.push({url: String(input), auth, status: res.status, body});
  return res;
};
"""


@pytest.fixture
def browser(tmp_path):
    """Debian's Chromium, headless, driven by Selenium through Debian's chromedriver."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no chromium binary installed (apt-get install chromium chromium-driver)")
    assert webdriver is not None, "chromium is installed but selenium is not: pip install selenium"
    driver_path = shutil.which("chromedriver") or "/usr/lib/chromium/chromedriver"
    assert Path(driver_path).exists(), "chromium is installed without chromium-driver"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1440,1000",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_FETCHES})
    yield driver
    driver.quit()


class Page:
    """The replay page as a user sees it."""

    def __init__(self, driver, base: str, tmp_path: Path):
        self.driver, self.base, self.tmp_path = driver, base, tmp_path

    def find(self, css: str):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def all(self, css: str) -> list:
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def wait_for_seq(self, seq: int) -> None:
        WebDriverWait(self.driver, 15).until(
            lambda d: (
                self.find("#table").get_attribute("data-seq") == str(seq)
                and "loading" not in self.find("body").get_attribute("class")
            )
        )

    def seq(self) -> int:
        return int(self.find("#table").get_attribute("data-seq"))

    def click(self, css: str) -> None:
        self.find(css).click()

    def shot(self, name: str) -> Path:
        path = self.tmp_path / f"{name}.png"
        self.driver.save_screenshot(str(path))
        SHOTS.mkdir(exist_ok=True)
        shutil.copy(path, SHOTS / path.name)
        return path

    def assert_at(self, seq: int, state: dict) -> None:
        """Check the page shows event `seq`, highlights it, and draws the API's coins and cards."""
        assert self.seq() == seq
        assert self.find("#seq").text == str(seq)
        assert self.find("#slider").get_attribute("value") == str(seq)
        current = self.all("#events li.current")
        assert [li.get_attribute("data-seq") for li in current] == [str(seq)]
        assert len(self.all("#events li.past")) == seq - 1
        assert f"{seq} of" in self.find("#summary").text
        if state["view"] is None:
            return
        for player in state["view"]["players"]:
            row = self.find(f'#table .seat-row[data-seat="{player["seat"]}"]')
            assert row.find_element(By.CSS_SELECTOR, '[data-key="coins"] .num').text == str(
                player["coins"]
            )
            assert len(row.find_elements(By.CSS_SELECTOR, ".card")) == len(player["cards"])
        for owed in state["owed"]:
            row = self.find(f'#table .seat-row[data-seat="{owed["seat"]}"]')
            assert "to-act" in row.get_attribute("class")


def no_console_errors(driver) -> None:
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors


def only_this_host(driver, base: str) -> None:
    names = driver.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name)"
    )
    assert names and all(n.startswith(base + "/") for n in names), names


def test_a_finished_game_replays_from_start_to_end_in_a_browser(
    browser, live_server, client, app, tmp_path
):
    gid, _ = finished_game(client, app)
    version = client.get(f"/v1/games/{gid}/events").get_json()["version"]
    state = {}

    def at(seq: int) -> dict:
        if seq not in state:
            state[seq] = client.get(f"/v1/games/{gid}/state?at={seq}").get_json()
        return state[seq]

    page = Page(browser, live_server, tmp_path)
    browser.get(f"{live_server}/games/{gid}/replay")
    page.wait_for_seq(1)
    page.assert_at(1, at(1))
    assert page.find("#total").text == str(version)
    assert len(page.all("#events li")) == version
    assert "0 of 3 seats filled" in page.find("#table").text
    # step forward to the dealt table, then back one
    start = next(n for n in range(1, version) if at(n)["view"] and at(n)["owed"])
    for n in range(2, start + 2):
        page.click("#step")
        page.wait_for_seq(n)
    page.click("#back")
    page.wait_for_seq(start)
    page.assert_at(start, at(start))
    assert page.all("#table .seat-row .card") or page.all("#table .panel .card")
    page.shot("1-start")

    # the slider: a click in its middle jumps to about half way
    slider = page.find("#slider")
    ActionChains(browser).move_to_element(slider).click().perform()
    middle = int(slider.get_attribute("value"))
    assert abs(middle - (1 + version) / 2) <= version * 0.1
    page.wait_for_seq(middle)
    page.assert_at(middle, at(middle))
    page.shot("2-middle")

    # play runs to the end by itself
    page.find("#speed").send_keys("fast")
    page.click("#last")
    page.wait_for_seq(version)
    for n in [version - 1, version - 2]:
        page.click("#back")
        page.wait_for_seq(n)
    page.click("#play")
    page.wait_for_seq(version)
    assert "Play" in page.find("#play").text  # it stopped at the last event
    page.assert_at(version, at(version))
    final = at(version)["result"]
    standings = page.all("#result .standings li")
    assert [li.get_attribute("data-seat") for li in standings] == [
        str(s["seat"]) for s in final["standings"]
    ]
    names = {s["seat"]: s["name"] for s in at(version)["seats"]}
    assert [li.find_element(By.CSS_SELECTOR, ".seat-chip").text for li in standings] == [
        names[s["seat"]] for s in final["standings"]
    ]
    for winner in final["winners"]:
        assert "winner" in page.find(f'#table .seat-row[data-seat="{winner}"]').text
    assert page.find("#step-status").text == "finished"
    page.shot("3-end")

    # a finished game opens every seat's view
    tabs = page.all("#perspective .tab")
    assert [t.get_attribute("data-perspective") for t in tabs] == ["public", "0", "1", "2", "all"]
    page.click('#perspective .tab[data-perspective="all"]')
    assert len(page.all("#table .view")) == 3
    page.click('#perspective .tab[data-perspective="public"]')
    only_this_host(browser, live_server)
    no_console_errors(browser)


def test_during_play_the_page_shows_a_spectator_only_public_facts(
    browser, live_server, client, app, tmp_path
):
    gid, players = game_in_play(client)
    version = client.get(f"/v1/games/{gid}/events").get_json()["version"]
    page = Page(browser, live_server, tmp_path)
    browser.get(f"{live_server}/games/{gid}/replay#at={version}")
    page.wait_for_seq(version)
    assert page.find("#viewer").text == "spectator view"
    assert page.all("#events li .tag.hidden")  # the deck order is shown as hidden
    assert page.find("#perspective").get_attribute("hidden") is not None
    page.shot("4-in-play-spectator")
    page.click("#first")
    page.wait_for_seq(1)
    fetched = browser.execute_script("return window.__fetched")
    assert fetched and not any(f["auth"] for f in fetched)
    assert all(f["status"] == 200 for f in fetched), [(f["url"], f["status"]) for f in fetched]
    raw = app.extensions["marketfold"].store.read(gid)
    assert_nothing_hidden(raw, [f["body"] for f in fetched])

    # a player who pastes a token sees the game as their seat; forgetting it makes a spectator
    seat, player = next(iter(by_seat(client, gid, players).items()))
    page.click("#token-box summary")
    page.find("#token-input").send_keys(player["token"])
    page.click('#token-form button[type="submit"]')
    mine = f"viewing as {player['name']} (seat {seat})"
    WebDriverWait(browser, 15).until(lambda d: page.find("#viewer").text == mine)
    assert browser.execute_script("return window.__fetched")[-1]["auth"] is True
    page.click("#token-box summary")
    page.click("#token-forget")
    WebDriverWait(browser, 15).until(lambda d: page.find("#viewer").text == "spectator view")
    assert browser.execute_script("return Object.keys(localStorage)") == []
    no_console_errors(browser)
