"""Helpers for league tests: an operator, a league, a server with threads for many streams."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import requests

from cli.bot import Bot
from cli.embedded import free_port
from events import keys
from leagues import standings
from service import league_commands, league_queries, league_rounds
from tests.api.helpers import bearer, new_players, play_to_end
from tests.conftest import ROOT, _env, gunicorn_args
from tests.support.waiting import wait_up


def operator(client, app) -> dict[str, Any]:
    """Register a player and make it the app's operator."""
    op = new_players(client, 1, "operator")[0]
    app.config["OPERATORS"] = [op["id"]]
    return op


def in_seconds(s: float) -> str:
    """Return the ISO time `s` seconds from now."""
    return (datetime.now(UTC) + timedelta(seconds=s)).isoformat(timespec="milliseconds")


def league_body(**overrides: Any) -> dict[str, Any]:
    body = {
        "name": "test league",
        "ruleset": "goblin-market",
        "table_size": {"min": 3, "max": 4},
        "rounds": 2,
        "start_at": in_seconds(3600),
        "cadence_s": 3600,
        "decision_timeout_s": 60,
    }
    return {**body, **overrides}


def new_league(client, op: dict, members: list[dict] = (), **overrides: Any) -> str:
    """Create a league as `op` and add `members`; return its id."""
    res = client.post("/v1/leagues", json=league_body(**overrides), headers=bearer(op))
    assert res.status_code == 201, res.get_json()
    lid = res.get_json()["id"]
    for m in members:
        added = client.post(
            f"/v1/leagues/{lid}/members", json={"player": m["id"]}, headers=bearer(op)
        )
        assert added.status_code == 201, added.get_json()
    return lid


def serve(redis_url: str) -> tuple[str, subprocess.Popen]:
    """Start the API under gunicorn as `marketfold serve` does."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, *gunicorn_args(port)], env=_env(redis_url), cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    wait_up(base + "/healthz")
    return base, proc


class Agent:
    """One member: follows their feed from the start and plays, with the reference bot,
    every game the feed says has started for them (through the public API only)."""

    def __init__(self, base: str, player: dict[str, Any], seed: int):
        self.base, self.player, self.seed = base, player, seed
        self.games: dict[str, threading.Thread] = {}
        self.bots: dict[str, Bot] = {}
        self.notes: list[dict[str, Any]] = []
        self.errors: list[BaseException] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._follow, daemon=True)
        self.thread.start()

    def _follow(self) -> None:
        last = "0"
        while not self.stop.is_set():
            try:
                with requests.get(
                    f"{self.base}/v1/players/me/feed",
                    headers={**bearer(self.player), "Last-Event-ID": last},
                    stream=True,
                    timeout=(5, 30),
                ) as res:
                    for line in res.iter_lines(decode_unicode=True):
                        if self.stop.is_set():
                            return
                        if line.startswith("id: "):
                            last = line[4:]
                        elif line.startswith("data: "):
                            self._note(json.loads(line[6:]))
            except requests.RequestException:
                time.sleep(0.2)

    def _note(self, note: dict[str, Any]) -> None:
        """Play each game the feed says started for this member, and, for a substitute,
        each running game whose seat it took over."""
        self.notes.append(note)
        games = [note.get("game")] if note["type"] == "game_started" else []
        if note["type"] == "substituted" and note.get("substitute") == self.player["id"]:
            games = list(note.get("games") or [])
        for gid in games:
            if gid in self.games:
                continue
            bot = Bot(self.base, gid, self.player["token"], seed=self.seed, wait_s=2.0)
            self.bots[gid] = bot
            self.games[gid] = threading.Thread(target=self._play, args=(bot,), daemon=True)
            self.games[gid].start()

    def _play(self, bot: Bot) -> None:
        try:
            bot.play()
        except BaseException as e:  # reported by the test
            self.errors.append(e)


def assert_recount(client, deps, lid: str) -> list[dict[str, Any]]:
    """Assert each table's game was recorded once and that the standings and ratings equal
    a recount from the finished games, in the order the league recorded them."""
    league = league_queries.load(deps, lid)
    log = deps.store.read_stream(keys.league_events(lid))
    recorded = [e["data"] for e in log if e["type"] == "league.GameRecorded"]
    tables = [t.game for r in league.rounds.values() for t in r.tables]
    assert sorted(d["game"] for d in recorded) == sorted(tables)
    points: dict[str, float] = {}
    games: dict[str, int] = {}
    ratings: dict[str, standings.Rating] = {}
    for d in recorded:
        game = client.get(f"/v1/games/{d['game']}").get_json()
        assert game["status"] == "finished"
        played = deps.store.read(d["game"])  # the league's log fixes the game it counted
        assert (d["events"], d["head"]) == (len(played), played[-1]["hash"])
        assert d["seed_commitment"] == played[0]["data"]["seed_commitment"]
        if game["result"]["reason"] == "aborted":
            continue  # on the record, counted for nobody
        who = {s["seat"]: s["player"] for s in game["seats"]}
        places = {who[s["seat"]]: s["place"] for s in game["result"]["standings"]}
        assert {p["player"]: p["place"] for p in d["places"]} == places
        out = forfeited_seats(league, played, who)
        assert {p["player"] for p in d["places"] if p.get("forfeit")} == out
        kept = {p: place for p, place in places.items() if p not in out}  # placed among them
        kept = {p: 1 + sum(kept[o] < kept[p] for o in kept) for p in kept}
        won = standings.points(kept, league.settings["points"]) if kept else {}
        per_forfeit = league.settings.get("forfeit_points", 0)
        won.update({p: per_forfeit for p in out})
        before = {p: ratings.get(p, standings.initial()) for p in places}
        rated = standings.rate({p: before[p] for p in kept}, kept) if len(kept) > 1 else {}
        for p in places:
            points[p] = round(points.get(p, 0) + won[p], 4)
            games[p] = games.get(p, 0) + 1
            ratings[p] = rated.get(p, before[p])
    rows = client.get(f"/v1/leagues/{lid}/standings").get_json()["standings"]
    assert len(rows) == len(league.members)
    for row in rows:
        p = row["player"]
        byes = sum(1 for r in league.rounds.values() if p in r.byes)
        counted = [d for d in recorded if d.get("reason") != "aborted"]
        mine = [d for d in counted if p in {x["player"] for x in d["places"]}]
        per_bye = league.settings.get("bye_points")
        if per_bye is None:
            per_bye = points.get(p, 0) / len(mine) if mine else 0
        expected = round(points.get(p, 0) + byes * per_bye, 4)
        assert row["byes"] == byes and row["points"] == expected and row["games"] == games.get(p, 0)
        assert (row["mu"], row["sigma"]) == ratings.get(p, standings.initial())
        assert row["ordinal"] == standings.ordinal((row["mu"], row["sigma"]))
    return rows


def forfeited_seats(league, events: list[dict], who: dict[int, str]) -> set[str]:
    """Return who forfeits a finished game, read from its log: a seat with no action of
    its own, or resigned when its player was removed or withdrawn for absence."""
    if league.settings.get("forfeit_points", 0) is None:
        return set()
    acted = {e["actor"] for e in events if (e.get("command") or {}).get("type") == "act"}
    resigned = {e["data"]["seat"] for e in events if e["type"] == "game.SeatResigned"}
    gone = {p for p, why in league.why_withdrawn.items() if why in ("removed", "absence")}
    return {p for s, p in who.items() if s not in acted or (s in resigned and p in gone)}


def started_league(client, app, n: int = 3, **overrides) -> tuple[str, list[dict]]:
    """A league whose first round the test starts itself (as a worker would)."""
    lid, _, players = running_league(client, app, n, **overrides)
    return lid, players


def running_league(client, app, n: int = 3, **overrides) -> tuple[str, dict, list[dict]]:
    """A league whose round 1 has started: (its id, its organizer, its members)."""
    op = operator(client, app)
    players = new_players(client, n, "m")
    starts = time.monotonic() + 2  # time to add the members on a loaded machine
    lid = new_league(client, op, players, start_at=in_seconds(2), **overrides)
    time.sleep(max(0.0, starts - time.monotonic()) + 0.05)
    assert league_rounds.start_round(app.extensions["marketfold"], lid, 1) == "started"
    return lid, op, players


def played_league(client, app, rounds=1):
    """A league of three whose first game has been played to its end and recorded."""
    op = operator(client, app)
    players = new_players(client, 3, "m")
    # members join before the start: 0.3 s was too short for three joins on a loaded machine
    starts = time.monotonic() + 1.5
    lid = new_league(
        client,
        op,
        players,
        start_at=in_seconds(1.5),
        rounds=rounds,
        table_size=3,
        decision_timeout_s=600,
    )
    time.sleep(max(0.0, starts - time.monotonic()) + 0.05)
    deps = app.extensions["marketfold"]
    assert league_rounds.start_round(deps, lid, 1) == "started"
    gid = league_queries.load(deps, lid).rounds[1].tables[0].game
    seats = {
        client.get(f"/v1/games/{gid}", headers=bearer(p)).get_json()["you"]: p for p in players
    }
    play_to_end(client, app, gid, seats, random.Random(7))
    assert league_commands.record_result(deps, lid, gid) in ("recorded", "noop")
    return deps, op, players, lid, gid


def league_version(client, lid) -> int:
    """The league's version as the API shows it (it grows with each event logged)."""
    return client.get(f"/v1/leagues/{lid}").get_json()["version"]
