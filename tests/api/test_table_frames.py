"""A game stream opened with `?with=table` carries the table (docs/clients.md, "The table
on your stream"): after each append a `table` frame with the game as the caller's seat may
see it then and its legal actions, so a client never reads the game again. Each seat's
frames hold its own view only (never another seat's hidden cards, bids or production),
a spectator's the public one, in every ruleset, Black Market's wild trade (private
steps) included; a stream that did not ask gets no table frame."""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any

import orjson
import pytest
import redis
import requests

from events.fold import fold_all, in_order
from events.record import Record
from events.recorder import RedisRecorder
from events.repository import GameRepository
from service.game_queries import shown_actions
from tests.api.helpers import random_action
from tests.api.openapi_check import assert_matches
from tests.reliability.load import auth, new_table

MOVES = 60  # then the seats resign: enough for hidden cards, bids and productions


class Frames:
    """One caller's stream of a game (`?with=table`), read in a thread until it ends."""

    def __init__(self, url: str, headers: dict[str, str], table: bool = True):
        self.url = f"{url}/events/stream" + ("?with=table" if table else "")
        self.headers, self.frames = headers, []  # (event name, data)
        self.opened, self.private = threading.Event(), 0
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        with requests.get(self.url, headers=self.headers, stream=True, timeout=60) as res:
            self.opened.set()
            event = None
            for line in res.iter_lines(decode_unicode=True):
                if line.startswith("id: ") and "." in line:
                    self.private += 1  # a private step of the caller's seat
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    self.frames.append((event, json.loads(line[6:])))

    def tables(self) -> list[dict[str, Any]]:
        return [data for event, data in self.frames if event == "table"]


def _play(url: str, tokens: dict[int, str], rnd: random.Random) -> None:
    """Play random legal moves for whoever owes, then resign every seat until it ends."""
    moves, ends = 0, time.monotonic() + 60
    while moves < MOVES and time.monotonic() < ends:
        game = requests.get(url, timeout=10).json()
        if game["status"] != "active":
            break
        if not game["owed"]:  # a complete simultaneous phase: the worker resolves it
            time.sleep(0.05)
            continue
        moves += 1
        token = tokens[rnd.choice(game["owed"])["seat"]]
        legal = requests.get(f"{url}/legal", headers=auth(token), timeout=10).json()
        offers = [a for a in legal["actions"] if a["type"] == "offer"]  # wild trade: private
        actions = offers if offers and rnd.random() < 0.6 else legal["actions"]
        if actions:
            requests.post(f"{url}/actions", json=random_action(rnd, actions), headers=auth(token))
    for token in tokens.values():
        if requests.get(url, timeout=10).json()["status"] == "finished":
            break
        requests.post(f"{url}/resign", headers=auth(token), timeout=10)


def _plain(value: Any) -> Any:
    return orjson.loads(orjson.dumps(value))


def _views(gid: str, redis_url: str, version: int, seat: int | None) -> list[tuple[Any, Any]]:
    """Every (view, legal actions) `seat` may be shown at `version`: after the public events
    up to it and any prefix of the private steps that followed them."""
    store = GameRepository(RedisRecorder(redis.Redis.from_url(redis_url)))
    public = store.read(gid, 0, version)
    private = [e for e in store.read_private(gid) if e["seq"] <= version]
    shown = []
    for k in range(len(private) + 1):
        rec = fold_all(Record(gid), in_order(public, private[:k]))
        owes = rec.status == "active" and any(o.seat == seat for o in rec.owed())
        actions = (
            shown_actions(rec.game.legal(rec.state, seat)) if owes and seat is not None else None
        )
        shown.append((_plain(rec.game.view(rec.state, seat, "en")), _plain(actions)))
    return shown


RULESETS = [
    ("goblin-market", {}),
    ("sorcerous-futures", {}),
    ("gobcon", {}),
    ("black-market", {}),
    ("black-market", {"trade": "wild"}),  # private offers between two seats
]


@pytest.mark.parametrize(("ruleset", "options"), RULESETS)
def test_each_seat_is_sent_its_own_table_and_a_spectator_the_public_one(
    shared_server, worker_process, redis_url, ruleset, options
):
    worker_process()  # resolves the simultaneous phases
    table = new_table(shared_server, ruleset, 3, f"tf-{ruleset}", options=options)
    url = f"{shared_server}/v1/games/{table.gid}"
    seats = {seat: Frames(url, auth(token)) for seat, token in table.tokens.items()}
    watcher = Frames(url, {})
    plain = Frames(url, auth(table.tokens[0]), table=False)  # a client that did not ask
    for reader in [*seats.values(), watcher, plain]:
        assert reader.opened.wait(10)
    _play(url, table.tokens, random.Random(ruleset + str(options)))
    for reader in [*seats.values(), watcher, plain]:
        reader.thread.join(30)
        assert not reader.thread.is_alive(), "the stream did not end with the game"

    assert not plain.tables()  # additive: nothing new for a client that did not ask
    final = requests.get(url, timeout=10).json()
    differ = False
    for seat, reader in [*seats.items(), (None, watcher)]:
        tables = reader.tables()
        # one at the connect, then after appends; the last one the finished game
        assert len(tables) > 2, (seat, reader.frames)
        assert (
            tables[-1]["version"] == final["version"] and tables[-1]["game"]["status"] == "finished"
        )
        versions = [t["version"] for t in tables]
        assert versions == sorted(versions)
        for frame in (tables[0], tables[len(tables) // 2], tables[-1]):  # as openapi.yaml says
            assert_matches("StreamTable", frame)
        for frame in tables:
            game = frame["game"]
            assert game["you"] == seat and game["version"] == frame["version"]
            assert game["secret"] is None
            shown = (game["view"], frame["legal"]["actions"] if frame["legal"] else None)
            assert shown in _views(table.gid, redis_url, frame["version"], seat), (seat, frame)
        if seat is not None:  # another seat's view at the same version is not what it got
            others = {t["version"]: t for s, r in seats.items() if s != seat for t in r.tables()}
            differ |= any(
                t["game"]["view"] != others[t["version"]]["game"]["view"]
                for t in tables
                if t["version"] in others and t["game"]["status"] == "active"
            )
    if options.get("trade") == "wild":  # private steps were sent, each with its table
        assert any(r.private for r in seats.values()), "no private step: the test proves less"
    assert differ, "no hidden information to tell the seats apart: the test proves nothing"


def test_an_unknown_stream_option_is_refused_naming_it(shared_server):
    res = requests.get(f"{shared_server}/v1/games/g_missing/events/stream?with=tables", timeout=10)
    assert res.status_code == 422, res.text
    problem = res.json()
    assert res.headers["Content-Type"].startswith("application/problem+json")
    assert "with" in problem["errors"]
