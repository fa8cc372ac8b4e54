"""The reference client: plays any game to its end through the public API alone.

It follows the game's event stream, whose `owes` frames say what its seat owes and what
it may do (its legal actions), first on every connect and then whenever that changes.
When it owes something, a strategy picks one of those actions and the bot posts it with
an Idempotency-Key and If-Match (the frame's version); the answer carries the seat's
next legal actions, so a seat with several decisions in a row goes on without waiting; a
refused action's answer (409, 412) carries them too, as they are now, and the bot goes on
from those (none after `deadline_passed`: it waits for the stream while the default lands).
A signal is acted on once: only one newer than the last version the bot acted on or was
answered with counts. Nothing is polled: a move costs one call, the action (plus the
game's JSON for a strategy that reads it). A strategy is any function `(game, actions,
rng) -> action`, where `game` is the JSON of `GET /v1/games/{id}` and `actions` the
legal actions (as `GET .../legal` lists them); pass your own with `marketfold bot
--strategy package.module:function`. A strategy with `needs_game = False` gets the game as read
when the bot started (the random one does), which saves a call per move.

At the game's end the stream sends the game's receipt (`receipt` frame, after
`game.Ended`: the service's signed promise of the game's end, with the game's leaves in
the public log of games); the bot keeps it in `receipt` and, given a directory, saves it
as `<dir>/<game>.receipt.json`, which `marketfold verify --seen` takes (docs/audit.md).

The bot adds its seat's randomness to the game's draws without being asked
(docs/fairness.md, "Seats' randomness"): a bot that takes its seat (`join`, or `play` on a
game still waiting for it) draws a 32-byte secret, sends its SHA-256 as the join's
`seat_commitment`, keeps the secret in memory, and reveals it as soon as every seat is
taken (the stream's `game.RevealsOpened`, or the game's `seat_seeds` when it looks).
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import secrets
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import requests

from cli import bot_receipts
from cli.patient_http import PatientHttp, retry_after, stream_lines
from cli.strategies import Strategy, random_strategy
from events import catalog

logger = logging.getLogger(__name__)


class Bot:
    """One seat's player, talking HTTP to `server`; `calls` counts its requests."""

    def __init__(
        self,
        server: str,
        game_id: str,
        token: str,
        strategy: Strategy | None = None,
        seed: int | None = None,
        wait_s: float = 5.0,
        patience_s: float = 600.0,
        receipts: str | Path | None = None,
    ):
        self.base = f"{server.rstrip('/')}/v1/games/{game_id}"
        self.game_id = game_id
        self.receipts = Path(receipts) if receipts is not None else None
        self.receipt: dict[str, Any] | None = None  # the game's, from the stream
        self.net = PatientHttp(token, patience_s)  # rides out restarts; counts the calls
        self.strategy = strategy or random_strategy
        self.rng = random.Random(seed)
        self.wait_s = wait_s
        self.moves = 0
        self._news = threading.Condition()
        self._seen = 0  # the newest event seq seen on the stream
        self._said = 0  # the version of the newest `owes` signal
        self._owes: list[dict[str, Any]] = []  # what the seat owes at `_said`
        self._actions: list[dict[str, Any]] | None = None  # and what it may do then
        self._done = 0  # the version the bot last acted on (or found nothing to do at)
        self._over = False
        self._ended = False  # the stream sent game.Ended
        self._watching = False  # the stream's reader runs
        self._watcher: threading.Thread | None = None
        self._stream: requests.Response | None = None
        self.seat_secret: bytes | None = None  # the secret this seat committed to, if it did
        self.revealed = False
        self._reveal_due = False  # the stream said the reveals are open

    @property
    def calls(self) -> int:
        """The requests made so far."""
        return self.net.calls

    @property
    def refused(self) -> int:
        """The 429s met (the rate limit)."""
        return self.net.refused

    def join(self, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """Take a seat (`body`: e.g. an unlisted game's {"secret"}), committing to a fresh
        secret of this seat's; return the join's answer."""
        self.seat_secret = secrets.token_bytes(32)
        commitment = hashlib.sha256(self.seat_secret).hexdigest()
        res = self.net.send(
            "POST", f"{self.base}/join", json={**(body or {}), "seat_commitment": commitment}
        )
        res.raise_for_status()
        return res.json()

    def _reveal(self, game: dict[str, Any]) -> dict[str, Any]:
        """Reveal the seat's secret if the game asks for it now; return the game as it is
        then (read again after a reveal)."""
        seeds = game.get("seat_seeds") or {}
        you = game.get("you")
        if (
            self.seat_secret is None
            or self.revealed
            or not seeds.get("reveals_close_at")
            or you not in seeds.get("committed", ())
            or you in seeds.get("revealed", ())
        ):
            return game
        res = self.net.send(
            "POST", f"{self.base}/reveal", json={"seat_secret": self.seat_secret.hex()}
        )
        if res.status_code not in (200, 409):  # 409: the window closed meanwhile
            res.raise_for_status()
        self.revealed = True
        return self.net.get(self.base)

    def play(self, max_moves: int = 100_000) -> dict[str, Any]:
        """Play until the game ends; return the final game JSON."""
        game = self.net.get(self.base)
        if game["status"] == "waiting" and game.get("you") is None:
            self.join()
            game = self.net.get(self.base)
        with self._news:
            self._seen = game["version"]  # the stream's first frame says what the seat owes
        self._watching = True
        self._watcher = threading.Thread(target=self._watch, daemon=True)
        self._watcher.start()
        try:
            while True:
                if game["status"] == "finished" or self._over:
                    game = self.net.get(self.base)
                    if game["status"] == "finished":
                        self._keep_receipt(game["version"])
                    return game
                if self._reveal_due:  # every seat is taken: reveal, as read now
                    self._reveal_due = False
                    game = self._reveal(self.net.get(self.base))
                    continue
                if game["status"] == "waiting":  # (a look after a silence may find it open)
                    game = self._reveal(game)
                if not self._wait_for_turn():
                    game = self.net.get(self.base)  # a long silence: look once, then wait again
                    with self._news:
                        if game["version"] > max(self._said, self._done):
                            self._said = game["version"]
                            self._owes = [o for o in game["owed"] if o["seat"] == game["you"]]
                            self._actions = None  # ask `legal`
                    continue
                if self._reveal_due:
                    continue
                game = self._move(game)
                if self.moves >= max_moves:
                    raise RuntimeError(f"gave up after {max_moves} moves")
        finally:
            self._over = True
            if self._stream is not None:
                self._stream.close()  # frees the server's stream slot at once

    def _keep_receipt(self, version: int) -> None:
        """Keep the game's receipt: the one the stream sent after `game.Ended` (waited
        for a moment: it follows the end in the same write), else read again
        (cli.bot_receipts.read_again); saved when the bot was given a directory."""
        with self._news:
            self._news.wait_for(
                lambda: self.receipt is not None or self.net.stopped or not self._watching, 5.0
            )
        read = bot_receipts.read_again(
            self.net, self.base, self.game_id, version, lambda: self.receipt is not None
        )
        self.receipt = self.receipt if self.receipt is not None else read
        if self.receipt is not None and "leaves" not in self.receipt:  # not merged then
            self.receipt = bot_receipts.with_leaves(self.net, self.base, self.receipt)
        if self.receipt is not None and self.receipts is not None:
            bot_receipts.save(self.receipts, self.game_id, self.receipt)

    def stop(self) -> None:
        """Make `play` return at its next look, and stop riding out an outage (from
        another thread)."""
        self.net.stopped = True
        with self._news:
            self._over = True
            self._news.notify_all()

    def _wait_for_turn(self) -> bool:
        """Block until the stream says the seat owes something new (True), or `wait_s`
        passes without it (False)."""
        with self._news:
            return self._news.wait_for(
                lambda: self._over or self._reveal_due or (self._owes and self._said > self._done),
                self.wait_s,
            )

    def _move(self, game: dict[str, Any]) -> dict[str, Any]:
        """Make every decision the seat owes now, one after another: from the signal's
        actions, then from each answer's."""
        with self._news:
            version, actions = self._said, self._actions
        if actions is None:  # a signal without actions (the long-silence look): ask
            legal = self.net.get(f"{self.base}/legal")
            version, actions = legal["version"], legal["actions"]
        while not self._over:
            if not actions:
                self._done = max(self._done, version)
                return game
            if getattr(self.strategy, "needs_game", True):
                game = self.net.get(self.base)
            answer = self._act(self.strategy(game, actions, self.rng), version)
            if answer is None:  # refused without actions: the stream says what next
                self._done = max(self._done, version)
                return game
            self._done = max(self._done, answer["version"])
            version, actions = answer["version"], answer["actions"]
        return game

    def _act(self, action: dict[str, Any], version: int) -> dict[str, Any] | None:
        # the same key on every retry: the server applies it once
        headers = {"Idempotency-Key": uuid.uuid4().hex, "If-Match": f'"{version}"'}
        res = self.net.send("POST", f"{self.base}/actions", json=action, headers=headers)
        if res.status_code in (409, 412):  # the game moved on: its refusal says what now
            refused = res.json()
            logger.info("action %s refused: %s", action, refused.get("code"))
            if "actions" not in refused:
                return None  # the stream says what next
            return {"version": refused["version"], "actions": refused["actions"]}
        res.raise_for_status()
        self.moves += 1
        return res.json()

    def _watch(self) -> None:
        """Follow the event stream on one connection, resuming with Last-Event-ID if it
        drops; each `owes` frame (the first of every connect too) says what the seat owes."""
        while not self._over:
            try:
                with self.net.stream(f"{self.base}/events/stream", self._seen, 60) as res:
                    self._stream = res
                    if res.status_code == 204:  # the game is over and fully seen
                        self._over = True
                        break
                    if res.status_code != 200:  # refused (429: its old streams not yet
                        time.sleep(retry_after(res))  # counted out; 503): connect again
                        continue
                    for kind, data in stream_lines(res):
                        if data is not None and kind != "chat":
                            self._frame(kind, json.loads(data))
                        if self._over and not (self._ended and self.receipt is None):
                            break  # (the receipt follows the end: the server closes then)
            except (requests.RequestException, AttributeError, ValueError):
                if not self._over:  # (closing the stream from play() lands here too)
                    time.sleep(0.5)
        with self._news:
            self._watching = False
            self._news.notify_all()

    def _frame(self, kind: str | None, data: dict[str, Any]) -> None:
        with self._news:
            if kind == "receipt":
                self.receipt = data
            elif kind == "owes":
                if data["version"] > max(self._said, self._done):  # else: no news
                    self._said, self._owes = data["version"], data["owes"]
                    self._actions = data["actions"]
                self._over |= data["status"] in ("finished", "cancelled")
            else:
                self._seen = max(self._seen, data["seq"])
            if kind == catalog.ENDED:
                self._over = self._ended = True
            if kind == catalog.REVEALS_OPENED:  # every seat is taken: reveal if committed
                self._reveal_due = self.seat_secret is not None and not self.revealed
            self._news.notify_all()
