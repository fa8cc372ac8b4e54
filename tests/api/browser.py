"""A real browser for the replay viewer tests: Debian's headless Chromium under Selenium,
and the replay page as a user sees it."""

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
    webdriver = Service = ActionChains = By = WebDriverWait = None

from tests.api.replay_helpers import SHOTS

RECORD_FETCHES = """
window.__fetched = [];
const original = window.fetch;
window.fetch = async function (input, init) {
  const res = await original.apply(this, arguments);
  // a stream's body (a game's events, a player's feed) never ends: not recorded
  if ((res.headers.get("content-type") || "").startsWith("text/event-stream")) return res;
  const headers = (init && init.headers) || {};
  const auth = Object.keys(headers).some((h) => h.toLowerCase() === "authorization");
  const body = await res.clone().text();
  window.__fetched.push({url: String(input), auth, status: res.status, body});
  return res;
};
"""


WINDOW = (1440, 1000)  # the window's size as Chromium starts


def chromium(tmp_path: Path):
    """Debian's Chromium, headless, driven by Selenium through Debian's chromedriver (the
    `browser` fixture, tests/api/conftest.py): yield the driver, quit it afterwards."""
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
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_FETCHES})
    yield driver
    driver.quit()


def fresh_tab(driver, origins) -> None:
    """Leave a browser as a test found it new (the `shared_browser` fixture, after each test):
    one blank tab of its own (a test's DevTools overrides, such as an Accept-Language or an
    added script, belonged to the tab closed), no cookies, HTTP cache or permissions, nothing
    kept for any of `origins` (local and session storage, IndexedDB, service workers and
    their push subscriptions), the window at its first size, and the console read."""
    driver.switch_to.new_window("tab")
    fresh = driver.current_window_handle
    for handle in driver.window_handles:
        if handle != fresh:
            driver.switch_to.window(handle)
            driver.close()
    driver.switch_to.window(fresh)
    driver.execute_cdp_cmd("Page.bringToFront", {})  # shown, as a new browser's one tab is
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_FETCHES})
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    for origin in origins:
        driver.execute_cdp_cmd(
            "Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"}
        )
    driver.execute_cdp_cmd("Browser.resetPermissions", {})
    driver.set_window_size(*WINDOW)
    driver.get_log("browser")


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
