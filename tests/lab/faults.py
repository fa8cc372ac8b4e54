"""What the lab's fault tests (and bench/reliability/lab.py) play and count.

- `Run`: bots of every ruleset playing through HAProxy (tests/reliability/load.py: every
  answer kept), plus games on a short decision timeout that nobody plays, so the workers
  apply deadlines all through the fault;
- `tally`: a fault's counts: actions acknowledged against actions stored, actions stored
  twice or never acknowledged, deadlines applied, applied twice, extended after an
  outage, and how late the latest came; phase resolutions (reveals) applied twice;
- `Follower`: an event stream read as a client reads it, resuming with Last-Event-ID.
"""

from __future__ import annotations

import threading
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import requests

from events.fold import fold
from events.record import Record
from events.times import when
from tests.reliability.checks import check_acks, commands_of, verify_log
from tests.reliability.load import Load, Table, auth, new_table, new_tables

TIMED_S = 2  # the idle games' decision timeout


def timed_tables(base: str, n: int, tag: str) -> list[Table]:
    """`n` started games (every ruleset in turn) on a TIMED_S decision timeout, which nobody
    plays: every decision is the workers' to default."""
    rulesets = ["goblin-market", "sorcerous-futures", "black-market", "gobcon"]
    return [new_table(base, rulesets[i % 4], 3, f"{tag}{i}", TIMED_S) for i in range(n)]


def from_balancer(res: requests.Response) -> bool:
    """True for HAProxy's own answers: 502/504 (the request was cut off with its host) and
    503 without a problem (no host is up to take it)."""
    problem = res.headers.get("Content-Type", "").startswith("application/problem+json")
    return res.status_code in (502, 504) or (res.status_code == 503 and not problem)


class BalancedLoad(Load):
    """The bots of tests/reliability/load.py, through a balancer: an answer of HAProxy's
    own (`from_balancer`) leaves the request's outcome unknown (as with no answer at all),
    so it is sent again with its key."""

    cut_off = 0

    def _check(self, res: requests.Response, what: str) -> None:
        if from_balancer(res):
            with self._lock:
                self.statuses[(res.status_code, None)] += 1
                self.cut_off += 1
            return
        super()._check(res, what)

    def _file(self, post, res: requests.Response) -> None:
        if from_balancer(res):
            with self._lock:
                self.unknown.setdefault(post.key, post)
            return
        super()._file(post, res)


@dataclass
class Run:
    """One fault's traffic on `lab`: bots play `played` games; `timed` games only time out."""

    lab: Any  # cli.lab.Lab
    played: list[Table]
    timed: list[Table]
    load: BalancedLoad = field(init=False)

    def __post_init__(self) -> None:
        self.load = BalancedLoad(self.lab.url, self.played, seed=len(self.played))

    @classmethod
    def start(cls, lab: Any, tag: str, played: int = 8, timed: int = 4, threads: int = 4) -> Run:
        """Make the games and start `threads` bots on the played ones."""
        seed = zlib.crc32(tag.encode()) % 1000
        run = cls(lab, new_tables(lab.url, played, seed), timed_tables(lab.url, timed, tag))
        run.load.start(threads)
        return run

    def versions(self, tables: list[Table], active: bool = False) -> dict[str, int]:
        """Each game's version now, as the service reads it (`active`: of those in play)."""
        s, base = requests.Session(), self.lab.url
        games = [s.get(f"{base}/v1/games/{t.gid}", timeout=15).json() for t in tables]
        return {g["id"]: g["version"] for g in games if g["status"] == "active" or not active}

    def finish(self, quiet_s: float = 0.0) -> dict[str, Any]:
        """Stop the bots, settle every unknown outcome, wait `quiet_s` for deadlines due, run
        every check of tests/reliability/checks.py; return the counts."""
        self.load.join()
        self.load.settle(timeout=90)
        time.sleep(quiet_s)
        assert not self.load.errors, self.load.errors[:5]
        store = self.lab.store()
        logs = {t.gid: verify_log(self.lab.url, store, t) for t in self.played}
        timed = {t.gid: verify_log(self.lab.url, store, t) for t in self.timed}
        store.close()
        counts = tally(self.load, logs, timed)
        counts["answered by HAProxy (no host)"] = self.load.cut_off
        check_acks(self.load, logs)
        return counts


def tally(load: Load, logs: dict[str, list], timed: dict[str, list]) -> dict[str, Any]:
    """The counts of one fault (see the module docstring)."""
    stored = Counter(
        group[0]["cause"]
        for log in logs.values()
        for group in commands_of(log)
        if group[0]["command"]["type"] == "act"
    )
    acked = set(load.acks)
    out: dict[str, Any] = {
        "acknowledged": len(acked),
        "acknowledged and stored": len(acked & set(stored)),
        "acknowledged, not stored": len(acked - set(stored)),
        "stored twice": sum(n - 1 for n in stored.values() if n > 1),
        "stored, never acknowledged": len(set(stored) - acked),
    }
    defaults: Counter = Counter()
    resolves: Counter = Counter()
    extended, late = 0, 0.0
    for gid, log in {**logs, **timed}.items():
        rec = Record(gid)
        for env in log:
            cmd = env.get("command") or {}
            if cmd.get("type") == "resolve":
                resolves[(gid, cmd.get("key"))] += 1
            if env["type"] == "game.DecisionTimedOut":
                data = env["data"]
                defaults[(gid, data["key"], data["seat"])] += 1
                due = rec.deadline(data["key"])
                if due is not None:
                    late = max(late, (when(env["at"]) - when(due)).total_seconds())
            extended += env["type"] == "game.DeadlineExtended"
            rec = fold(rec, env)
    out |= {
        "deadlines applied": sum(defaults.values()),
        "deadlines applied twice": sum(n - 1 for n in defaults.values() if n > 1),
        "deadlines extended (outage)": extended,
        "latest deadline, s late": round(late, 1),
        "phases resolved": len(resolves),
        "phases resolved twice": sum(n - 1 for n in resolves.values() if n > 1),
    }
    return out


def show(record_property, fault: str, counts: dict[str, Any]) -> None:
    """Print a fault's counts, and keep them for the run's summary (tests/conftest.py
    prints every `lab_counts` property after the run, passed or not, under xdist too)."""
    line = f"{fault}: " + "; ".join(f"{k} {v}" for k, v in counts.items())
    print("\n" + line, flush=True)
    record_property("lab_counts", line)


def settled(counts: dict[str, Any]) -> None:
    """Assert what every fault must leave: nothing acknowledged lost or doubled."""
    assert counts["acknowledged, not stored"] == 0
    assert counts["stored twice"] == 0
    assert counts["stored, never acknowledged"] == 0
    assert counts["deadlines applied twice"] == 0
    assert counts["phases resolved twice"] == 0


class Follower(threading.Thread):
    """Reads a game's event stream through `base` as a client does: on a cut it connects
    again with Last-Event-ID; `ids` are the event ids it got, `hosts` the API host that
    served each connection (HAProxy's X-Served-By)."""

    def __init__(self, base: str, gid: str, token: str | None = None):
        super().__init__(daemon=True)
        self.url = f"{base}/v1/games/{gid}/events/stream"
        self.token = token
        self.ids: list[int] = []
        self.hosts: list[str | None] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            last = self.ids[-1] if self.ids else 0
            headers = {**auth(self.token), "Last-Event-ID": str(last)}
            try:
                with requests.get(self.url, stream=True, headers=headers, timeout=(2, 5)) as res:
                    self.hosts.append(res.headers.get("X-Served-By"))
                    if res.status_code == 204:
                        return
                    for line in res.iter_lines(decode_unicode=True):
                        if line.startswith("id: "):
                            self.ids.append(int(line[4:]))
                        if self.stop.is_set():
                            return
            except (requests.RequestException, ValueError):
                time.sleep(0.2)


__all__ = ["Run", "Follower", "new_tables", "settled", "show", "tally", "timed_tables"]
