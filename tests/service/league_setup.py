"""Leagues on memory_boot() for the unit tier: create one with members, and move the
clock past a round's start (time.time shifted, so no test sleeps)."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from api.schemas import LeagueCreate
from service import league_commands, league_queries, league_rounds
from service.bootstrap import Bootstrap

OP = {"id": "op", "name": "Op"}


def league(boot: Bootstrap, members: int = 3, **body) -> str:
    """A league starting in a minute, created by OP, with `members` members m0, m1, ..."""
    start = datetime.fromtimestamp(time.time() + 60, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    spec = {
        "name": "Spring",
        "ruleset": "goblin-market",
        "table_size": {"min": 3, "max": 4},
        "rounds": 2,
        "start_at": start,
        "cadence_s": 3600,
        "decision_timeout_s": 600,
        **body,
    }
    lid = league_commands.create(boot, OP, LeagueCreate().load(spec)).league_id
    for i in range(members):
        player = {"id": f"m{i}", "name": f"M{i}"}
        league_commands.join(boot, lid, player, player["id"])
    return lid


def later(monkeypatch, seconds: float) -> None:
    """Move the clock `seconds` ahead of now."""
    real = time.time
    shift = real() + seconds
    base = real()
    monkeypatch.setattr(time, "time", lambda: shift + (real() - base))


def started(boot: Bootstrap, monkeypatch, members: int = 3, **body) -> str:
    """A league whose round 1 has started (the clock moved past its start)."""
    lid = league(boot, members, **body)
    later(monkeypatch, 120)
    assert league_rounds.start_round(boot, lid, 1) == "started"
    return lid


def game_of(boot: Bootstrap, lid: str, number: int = 1, table: int = 1) -> str:
    return league_queries.load(boot, lid).rounds[number].tables[table - 1].game
