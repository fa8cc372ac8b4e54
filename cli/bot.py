"""The reference client: plays any game to its end through the public API alone.

It reads the game, asks `GET .../legal` what it may do, lets a strategy pick an action,
posts it with an Idempotency-Key, and waits for its next turn on the SSE feed. A strategy
is any function `(game, actions, rng) -> action`, where `game` is the JSON of
`GET /v1/games/{id}` and `actions` the `actions` list of `GET .../legal`; pass your own
with `marketfold bot --strategy package.module:function`.
"""

from __future__ import annotations

import importlib
import logging
import random
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import requests

from games.schemas import random_action

logger = logging.getLogger(__name__)
Strategy = Callable[[dict[str, Any], list[dict[str, Any]], random.Random], dict[str, Any]]


def random_strategy(game: dict, actions: list[dict], rng: random.Random) -> dict:
    """Pick any legal action, uniformly over action types, then over their values."""
    return random_action(actions, rng)


def load_strategy(spec: str | None) -> Strategy:
    """Return the strategy named `package.module:function` (the random one by default)."""
    if not spec:
        return random_strategy
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name or "strategy")


class Bot:
    """One seat's player, talking HTTP to `server`."""

    def __init__(
        self,
        server: str,
        game_id: str,
        token: str,
        strategy: Strategy | None = None,
        seed: int | None = None,
        wait_s: float = 5.0,
    ):
        self.base = f"{server.rstrip('/')}/v1/games/{game_id}"
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {token}"
        self.strategy = strategy or random_strategy
        self.rng = random.Random(seed)
        self.wait_s = wait_s
        self.moves = 0
        self._news = threading.Condition()
        self._seen = 0
        self._over = False
        self._watcher: threading.Thread | None = None

    def play(self, max_moves: int = 100_000) -> dict[str, Any]:
        """Play until the game ends; return the final game JSON."""
        while True:
            game = self._get(self.base)
            if game["status"] == "finished":
                self._over = True
                return game
            mine = [o for o in game["owed"] if o["seat"] == game["you"]]
            if not mine or game["status"] != "active":
                self._wait(game["version"])
                continue
            legal = self._get(f"{self.base}/legal")
            if not legal["actions"] or legal["version"] != game["version"]:
                continue
            self._act(self.strategy(game, legal["actions"], self.rng), legal["version"])
            if self.moves >= max_moves:
                raise RuntimeError(f"gave up after {max_moves} moves")

    def _act(self, action: dict[str, Any], version: int) -> None:
        headers = {"Idempotency-Key": uuid.uuid4().hex, "If-Match": f'"{version}"'}
        for _ in range(60):  # the same key on every retry: the server applies it once
            try:
                res = self.http.post(
                    f"{self.base}/actions", json=action, headers=headers, timeout=30
                )
            except requests.ConnectionError:
                time.sleep(0.5)
                continue
            if res.status_code in (201, 202):
                self.moves += 1
                return
            if res.status_code in (409, 412):  # the game moved on: look again
                logger.info("action %s refused: %s", action, res.json().get("code"))
                return
            if res.status_code in (429, 503):
                time.sleep(float(res.headers.get("Retry-After", "1")))
                continue
            res.raise_for_status()
        raise RuntimeError(f"could not post {action}")

    def _wait(self, version: int) -> None:
        """Block until an event after `version` has been seen on the feed, or `wait_s`."""
        if self._watcher is None:
            self._seen = version
            self._watcher = threading.Thread(target=self._watch, daemon=True)
            self._watcher.start()
        with self._news:
            self._news.wait_for(lambda: self._seen > version or self._over, self.wait_s)

    def _watch(self) -> None:
        """Follow the SSE feed on one connection, resuming with Last-Event-ID if it drops."""
        while not self._over:
            try:
                with self.http.get(
                    f"{self.base}/events/stream",
                    stream=True,
                    timeout=(5, 60),
                    headers={"Last-Event-ID": str(self._seen)},
                ) as res:
                    for line in res.iter_lines(decode_unicode=True):
                        if line.startswith("id: "):
                            with self._news:
                                self._seen = int(line[4:])
                                self._news.notify_all()
                        elif line == "event: game.Ended":
                            self._over = True
            except requests.RequestException:
                time.sleep(0.5)
        with self._news:
            self._news.notify_all()

    def _get(self, url: str) -> dict[str, Any]:
        for _ in range(60):  # rides out a server restart of up to about 30 s
            try:
                res = self.http.get(url, timeout=30)
            except requests.ConnectionError:
                time.sleep(0.5)
                continue
            if res.status_code in (429, 503):
                time.sleep(float(res.headers.get("Retry-After", "1")))
                continue
            res.raise_for_status()
            return res.json()
        raise RuntimeError(f"{url} keeps refusing")
