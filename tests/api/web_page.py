"""The web client at `/` as a person uses it in headless Chromium: sign in, create a game,
play a seat by clicking the actions `legal` offers, while bots play the other seats; plus
axe-core (the pinned npm package) run in the page, and screenshots at phone and desktop
widths (left in SCREENS for a person to look at)."""

from __future__ import annotations

import os
import random
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import requests

from cli.bot import Bot
from cli.strategies import Strategy
from tests import background
from tests.api.browser import By, WebDriverWait
from tests.conftest import ROOT
from tests.reliability.load import auth

try:
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
except ImportError:  # browser.py reports the missing selenium
    StaleElementReferenceException = WebDriverException = Exception
    Select = Keys = None

# where the screenshots are left for a person to look at (MARKETFOLD_SCREENS to choose)
SCREENS = Path(
    os.environ.get("MARKETFOLD_SCREENS", Path(tempfile.gettempdir(), "marketfold-screens"))
)
WIDTHS = {"phone": 390, "desktop": 1280}


class WebPage:
    def __init__(self, driver, base: str):
        self.d, self.base = driver, base
        self.titles: set[str] = set()  # the tab's titles while an action was offered

    def find(self, css: str):
        return self.d.find_element(By.CSS_SELECTOR, css)

    def all(self, css: str) -> list:
        return self.d.find_elements(By.CSS_SELECTOR, css)

    def texts(self, css: str) -> list[str]:
        """The shown text of every element matching `css`, read in one step: the table may be
        redrawn between two WebDriver calls, leaving a found element stale."""
        return self.d.execute_script(
            "return [...document.querySelectorAll(arguments[0])].map((e) => e.innerText)", css
        )

    def text(self, css: str) -> str:
        """The shown text of the first element matching `css` ("" when there is none)."""
        return (self.texts(css) or [""])[0]

    def wait(self, what, timeout: float = 20):
        try:
            return WebDriverWait(
                self.d, timeout, ignored_exceptions=(StaleElementReferenceException,)
            ).until(lambda d: what())
        except Exception:
            self.d.save_screenshot("/tmp/marketfold-web-timeout.png")
            logs = [e["message"] for e in self.d.get_log("browser") if e["level"] != "DEBUG"]
            raise AssertionError(f"timed out at {self.d.current_url}; console: {logs}") from None

    def wait_for(self, css: str, timeout: float = 20):
        return self.wait(lambda: self.all(css), timeout)

    def click(self, css: str, timeout: float = 20, text: str | None = None) -> None:
        """Click the first element matching `css` (and showing `text`, if given) once it is
        there, again if the page was redrawn under the click (a stale element)."""

        def attempt() -> bool:
            try:
                found = [e for e in self.all(css) if text is None or e.text == text]
                if not found:
                    return False
                found[0].click()
            except StaleElementReferenceException:
                return False
            return True

        self.wait(attempt, timeout)

    def open(self, path: str = "/") -> None:
        self.d.get(self.base + path)
        self.wait_for("#app > *")

    def sign_in(self, name: str, handle: str | None = None) -> dict:
        """Pick a name (and a handle) on the home page; return the player the page keeps
        (id, name, token)."""
        self.open("/")
        self.find("#name-input").send_keys(name)
        if handle:
            self.find("#handle-input").send_keys(handle)
        self.find("#sign-in button[type=submit]").click()
        self.wait_for("#token-once:not([hidden])")
        token = self.find("#token-value").get_attribute("value")
        self.find("#token-done").click()
        self.wait_for("#sign-out")
        player = self.d.execute_script(
            "return JSON.parse(localStorage.getItem('marketfold.player'))"
        )
        assert player["token"] == token and player["name"] == name
        return player

    def sign_out(self) -> None:
        """Sign out: the page warns and shows the token first, then forgets it when asked
        again."""
        self.click("#sign-out")
        self.click("#sign-out-confirm")
        self.wait_for("#name-input")

    def create(self, ruleset: str, players: int, options: dict | None = None) -> str:
        """Create a game with the home page's form (seated in it), typing `options` into
        the fields drawn from the ruleset's options schema; return its id."""
        self.wait_for("#create-ruleset")
        Select(self.find("#create-ruleset")).select_by_value(ruleset)
        count = self.find("#create-players")
        count.clear()
        count.send_keys(str(players))
        for key, value in (options or {}).items():
            field = self.find(f'#create .options [id^="sf-{key}-"]')
            field.clear()
            field.send_keys(str(value))
        self.find("#create button[type=submit]").click()
        self.wait(lambda: "#/g/" in self.d.current_url)
        self.wait_for("#status")
        return self.d.current_url.split("#/g/")[1].split("/")[0]  # without a secret

    def play_until_result(self, rnd: random.Random, timeout: float = 300, on_click=None) -> int:
        """Click one of the offered actions whenever there are some (a choice's button
        rather than a form built from a schema, which needs values typed in), until the
        result shows; return how many actions were clicked."""
        clicks, end = 0, time.monotonic() + timeout
        while not self.all("#result-box"):
            assert time.monotonic() < end, "the game did not reach its result in time"
            try:
                offered = [b for b in self.all("#move .choices .act") if b.is_enabled()]
                offered = offered or [b for b in self.all("#move .act") if b.is_enabled()]
                if offered:
                    self.titles.add(self.d.title)
                    chosen = rnd.choice(offered)
                    if clicks % 2:  # every other action from the keyboard: focus, Enter
                        chosen.send_keys(Keys.ENTER)
                    else:
                        chosen.click()
                    clicks += 1
                    if on_click:
                        on_click(clicks)
            except (StaleElementReferenceException, WebDriverException):
                pass  # the table was redrawn under the click: look again
            time.sleep(0.15)
        return clicks

    def shot(self, name: str, width: int) -> Path:
        """Screenshots at this width: the first screen (`name`) and the whole page
        (`name-full`)."""
        SCREENS.mkdir(parents=True, exist_ok=True)
        self.d.set_window_size(width, 844 if width < 500 else 900)
        time.sleep(0.3)
        self.d.save_screenshot(str(SCREENS / f"{name}.png"))
        height = self.d.execute_script("return document.documentElement.scrollHeight")
        self.d.set_window_size(width, min(max(900, height + 20), 4000))
        time.sleep(0.3)
        path = SCREENS / f"{name}-full.png"
        self.d.save_screenshot(str(path))
        self.d.set_window_size(1280, 1000)
        return path

    def axe(self, every: bool = False) -> list[dict]:
        """Run axe-core in the page; return its serious and critical violations (`every`:
        its violations of any impact)."""
        self.d.execute_script(axe_source())
        self.d.set_script_timeout(60)
        found = self.d.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']})"
            ".then((r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,"
            " nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}))))"
            ".catch((e) => done([{id: 'axe-error', impact: 'critical', help: String(e)}]));"
        )
        return [v for v in found if every or v["impact"] in ("serious", "critical")]


def no_script_errors(driver) -> None:
    """No script error in the console. A refused call (a 409 for a stale action, a 404 for
    a route an older server lacks) is logged by the browser as a network error: the page
    handles those answers, so they are not errors of the page."""
    errors = [
        e for e in driver.get_log("browser") if e["level"] == "SEVERE" and e["source"] != "network"
    ]
    assert not errors, errors


_AXE: list[str] = []


def axe_source() -> str:
    """axe-core's script from the npm tools pinned in package-lock.json (.ci/npm-tools)."""
    if not _AXE:
        tools = subprocess.run(
            [str(ROOT / ".ci" / "npm-tools")],
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
        ).stdout.strip()
        _AXE.append((Path(tools) / "node_modules" / "axe-core" / "axe.min.js").read_text("utf-8"))
    return _AXE[0]


def bots_join(
    base: str, game_id: str, n: int, prefix: str = "bot", strategy: Strategy | None = None
) -> list[threading.Thread]:
    """Seat `n` reference bots (cli/bot.py) in the game, each playing in a thread (with
    `strategy`, else at random)."""
    threads = []
    for i in range(n):
        player = requests.post(
            f"{base}/v1/players", json={"name": f"{prefix}{i}"}, timeout=10
        ).json()
        res = requests.post(
            f"{base}/v1/games/{game_id}/join",
            headers={"Authorization": f"Bearer {player['token']}"},
            timeout=10,
        )
        assert res.status_code == 200, res.text
        threads.append(background.play(Bot(base, game_id, player["token"], strategy, seed=i)))
    return threads


def join_idle_table(page: WebPage, names, **game) -> tuple[str, list[dict]]:
    """Create a game (`game`: its body) by players called `names`, who join it and never
    move, then join it in the page as its last seat, which starts it; return its id and
    those players."""
    base = page.base
    idle = [requests.post(f"{base}/v1/players", json={"name": n}, timeout=10).json() for n in names]
    gid = requests.post(f"{base}/v1/games", json=game, headers=auth(idle[0]["token"]), timeout=10)
    gid = gid.json()["id"]
    for p in idle:
        requests.post(f"{base}/v1/games/{gid}/join", headers=auth(p["token"]), timeout=10)
    page.open(f"/#/g/{gid}")
    page.click(".join")
    return gid, idle


def new_player(base: str, name: str, handle: str | None = None) -> dict:
    """A new player (with its token), made through the API."""
    body = {"name": name, **({"handle": handle} if handle else {})}
    return requests.post(f"{base}/v1/players", json=body, timeout=10).json()


def play_others_until_mine(base: str, gid: str, me: dict, others: list[dict]) -> None:
    """Play the first offered choice for whoever of `others` owes in the game, until `me`'s
    seat owes something."""
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
