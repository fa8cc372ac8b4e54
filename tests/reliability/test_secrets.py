"""No route gives a seat (or a spectator) another seat's secrets, over random playouts
of every game: the game view, legal actions, the event feed, the SSE stream, the export
and the state at any earlier seq are checked against the raw log at many points of play
(see tests/reliability/hidden.py for what counts as a secret and how it is searched for).
The same playouts check that every action is recorded for the seat whose token sent it.
"""

from __future__ import annotations

import json
import random

import pytest

from api import present
from events.fold import fold_all, in_order
from events.record import Record
from events.redact import redact
from service import deadline_commands
from tests.api.helpers import bearer, by_seat, new_game, new_players, random_action
from tests.reliability import hidden

GAMES = [
    ("goblin-market", 4, {}),
    ("sorcerous-futures", 4, {}),
    ("black-market", 3, {}),
    ("black-market", 3, {"trade": "wild"}),  # private offers: a log only their parties read
    ("gobcon", 2, {}),
]
MAX_STEPS = 200  # long random games are cut short: the secrets are all in play by then


class Playout:
    def __init__(self, client, app, ruleset: str, players: int, options: dict, seed: int):
        self.client, self.deps = client, app.extensions["marketfold"]
        people = new_players(client, players)
        self.gid = new_game(client, people, ruleset=ruleset, options=options)
        self.seats = by_seat(client, self.gid, people)
        self.rnd = random.Random(seed)
        self.sent: dict[str, int] = {}  # idempotency key -> the seat whose token sent it
        self.seen = {"numbers": 0, "strings": 0, "streams": 0, "private steps": 0}
        self.checked: dict[int | None, int] = {}  # viewer -> events already checked

    def headers(self, seat: int | None) -> dict[str, str]:
        return bearer(self.seats[seat]) if seat is not None else {}

    def get(self, path: str, seat: int | None) -> dict:
        res = self.client.get(f"/v1/games/{self.gid}{path}", headers=self.headers(seat))
        assert res.status_code == 200, (path, res.get_json())
        return res.get_json()

    def step(self) -> int | None:
        """Make one move (or resolve a ready phase); return the answer's status."""
        game = self.get("", None)
        if game["status"] != "active":
            return None
        rec = self.deps.store.load(self.gid).record
        if (phase := rec.game.ready(rec.state)) is not None:
            deadline_commands.resolve(self.deps, self.gid, phase)
            return 200
        seat = self.rnd.choice(game["owed"])["seat"]
        action = random_action(self.rnd, self.get("/legal", seat)["actions"])
        key = f"k{len(self.sent)}"
        res = self.client.post(
            f"/v1/games/{self.gid}/actions",
            json=action,
            headers={**self.headers(seat), "Idempotency-Key": key},
        )
        assert res.status_code in (201, 202), res.get_json()
        self.sent[key] = seat
        return res.status_code

    def check(self, full: bool = False) -> None:
        """Check every viewer against the raw log as it is now (`full`: also the whole
        feed again, the export and the SSE stream)."""
        log = self.deps.store.read(self.gid)
        # the private log's steps (wild trade's offers), in the order they were decided:
        # secrets of their two parties, like hidden public events
        both = in_order(log, self.deps.store.read_private(self.gid))
        rec = fold_all(Record(self.gid), both)
        cut = hidden.last_public(both) + 1
        before, tail = fold_all(Record(self.gid), both[:cut]), both[cut:]
        for seat in [None, *sorted(self.seats)]:
            served = self.served(rec, log, seat, full)
            self.no_secret_strings(rec, both, seat, served)
            self.seen["numbers"] += hidden.non_interference(before, tail, rec, seat)

    def served(self, rec, log, seat, full: bool) -> dict:
        """Fetch what `seat` is served, checking each answer against the log."""
        after = 0 if full or rec.status == "finished" else self.checked.get(seat, 0)
        served = {"game": self.get("", seat), "events": self.get(f"/events?after={after}", seat)}
        assert served["game"] == json.loads(json.dumps(present.game(rec, seat, "en")))
        assert served["events"]["events"] == [redact(e, rec, seat) for e in log[after:]]
        self.checked[seat] = len(log)
        for env in served["events"]["events"]:
            if hidden.hidden_from(env, seat) and rec.status != "finished":
                assert env["redacted"] is True and "salt" not in env, env
            if "command" in env and isinstance(env["actor"], int):
                assert env["actor"] == seat or rec.status == "finished", env
        # a command's last event: Black Market's view fails between GameStarted and the
        # rest of its setup (state?at=6 answers 500; reported, not ours to fix here)
        ends = [e["seq"] for e in log if e["seq"] == len(log) or "command" in log[e["seq"]]]
        served["at"] = self.rnd.choice(ends)
        served["past"] = self.get(f"/state?at={served['at']}", seat)
        past = self.at(served["at"])
        expected = present.game(past, seat, "en")
        if rec.status == "finished" and past.state is not None:  # everything opens at the end
            expected["views"] = [past.game.view(past.state, s, "en") for s in range(past.players)]
            expected["cards"] = present.glossary(past, "en", expected["view"], expected["views"])
        assert served["past"] == json.loads(json.dumps(expected))
        if seat is not None:
            served["legal"] = self.get("/legal", seat)
        if full:
            if seat is not None or rec.status == "finished":
                served["export"] = self.get("/export", seat)["events"]
                assert served["export"] == served["events"]["events"]
            served["stream"], served["steps"] = self.stream(seat, len(log))
            assert served["stream"] == served["events"]["events"]
            private = self.deps.store.read_private(self.gid)
            mine = [e for e in private if seat in e["visible_to"]]
            assert [f["type"] for f in served["steps"]] == [e["type"] for e in mine]
            self.seen["private steps"] += len(served["steps"])
        return served

    def at(self, seq: int) -> Record:
        """The game as it stood after event `seq` (and the private steps that followed it)."""
        log = self.deps.store.read(self.gid)[:seq]
        steps = [e for e in self.deps.store.read_private(self.gid) if e["seq"] <= seq]
        return fold_all(Record(self.gid), in_order(log, steps))

    def no_secret_strings(self, rec, log, seat, served) -> None:
        secrets = hidden.secret_strings(rec, log, seat)
        leaked = hidden.strings(served) & secrets
        assert not leaked, f"seat {seat} is served {sorted(leaked)[:5]}"
        at = served["at"]
        if rec.status != "finished":
            past = self.at(at)
            then = hidden.secret_strings(past, [e for e in log if e["seq"] <= at], seat)
            assert not hidden.strings(served["past"]) & then
        self.seen["strings"] += bool(secrets)

    def stream(self, seat: int | None, version: int) -> tuple[list[dict], list[dict]]:
        """Read the SSE stream from the start up to `version`, then hang up; return its
        event frames and, apart, its private steps' frames (ids `<seq>.<k>`)."""
        res = self.client.get(
            f"/v1/games/{self.gid}/events/stream", headers=self.headers(seat), buffered=False
        )
        frames, steps, text = [], [], ""
        for chunk in res.response:
            text += chunk.decode() if isinstance(chunk, bytes) else chunk
            *done, text = text.split("\n\n")
            for frame in done:
                if "\nevent: owes\n" in f"\n{frame}\n":  # where the game stands: checked apart
                    continue
                if "\nevent: receipt\n" in f"\n{frame}\n":  # after the end: public facts only
                    continue
                data = [ln[6:] for ln in frame.split("\n") if ln.startswith("data: ")]
                ids = [ln[4:] for ln in frame.split("\n") if ln.startswith("id: ")]
                # `owes` rides beside the envelope (the seat's own, public, turn signal)
                shown = [{k: v for k, v in json.loads(d).items() if k != "owes"} for d in data]
                (steps if ids and "." in ids[0] else frames).extend(shown)
            if frames and frames[-1]["seq"] >= version:
                break
        res.close()
        self.seen["streams"] += 1
        return frames, steps

    def actors_match_tokens(self) -> None:
        """Every action in the log is the acting token's seat's, with its player id."""
        for env in self.deps.store.read(self.gid):
            if env.get("command", {}).get("type") == "act":
                seat = self.sent[env["cause"]]
                assert env["actor"] == seat
                assert env["command"]["player"] == self.seats[seat]["id"]


@pytest.mark.parametrize(
    ("ruleset", "players", "options"),
    GAMES,
    ids=[f"{r}-{n}" + "".join(f"-{v}" for v in o.values()) for r, n, o in GAMES],
)
def test_no_route_serves_a_seat_the_secrets_of_others(client, app, ruleset, players, options):
    play = Playout(client, app, ruleset, players, options, seed=sum(map(ord, ruleset)))
    play.check(full=True)
    steps, status = 0, 200
    while status is not None and steps < MAX_STEPS:
        status = play.step()
        steps += 1
        if status == 202 and play.rnd.random() < 0.2 or steps % 15 == 0:
            play.check(full=steps % 75 == 0)
    play.check(full=True)
    play.actors_match_tokens()
    assert play.seen["strings"] or play.seen["numbers"], play.seen  # there were secrets
    if options.get("trade") == "wild":
        assert play.seen["private steps"], play.seen  # offers were made and streamed
    print(ruleset, steps, play.seen)
