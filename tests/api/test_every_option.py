"""Every ruleset, at its fewest and most seats, and every value of every option it
publishes, played to the end over HTTP by clients that know only the contract: each seat
follows its stream and moves in one call (docs/clients.md). Each finished game's bundle,
downloaded as anyone would, verifies. The tables come from `GET /v1/rulesets`, so an
option added to a ruleset is played here without a change to this test."""

from __future__ import annotations

import concurrent.futures

import requests

from tests.api.stream_seats import play_from_streams
from tests.reliability.load import new_table

# values tried for an integer option beside its default (the bound that ends games soonest)
INTEGER_VALUES = {"time_limit": 2}


def tables(ruleset: dict) -> list[tuple[int, dict]]:
    """(players, options) for one ruleset: its defaults at both ends of its player range,
    and each other value of each option, one at a time, at its most seats (an option that
    needs a table size, as Sorcerous Futures' Sly Excuse does, needs the largest)."""
    fewest, most = ruleset["min_players"], ruleset["max_players"]
    out = [(fewest, {}), (most, {})]
    for name, spec in ruleset["options"]["properties"].items():
        if "enum" in spec:
            values = spec["enum"]
        elif spec.get("type") == "boolean":
            values = [False, True]
        else:
            values = [INTEGER_VALUES[name]] if name in INTEGER_VALUES else []
        out += [(most, {name: v}) for v in values if v != spec.get("default")]
    return out


def test_every_ruleset_and_option_plays_to_the_end_and_verifies(live_server, worker_process):
    worker_process()
    rulesets = requests.get(f"{live_server}/v1/rulesets").json()["rulesets"]
    matrix = [(r["id"], players, options) for r in rulesets for players, options in tables(r)]
    assert {"goblin-market", "sorcerous-futures", "black-market", "gobcon"} <= {
        m[0] for m in matrix
    }
    assert ("black-market", 6, {"trade": "wild"}) in matrix
    assert ("sorcerous-futures", 4, {"sly_excuse": True}) in matrix

    def play(ruleset: str, players: int, options: dict) -> str | None:
        table = new_table(live_server, ruleset, players, "opt", options=options)
        play_from_streams(live_server, table, within_s=240)
        gid = table.gid
        game = requests.get(f"{live_server}/v1/games/{gid}").json()
        if game["status"] != "finished":
            return f"{ruleset} {players} {options}: {game['status']} at {game['version']}"
        if game["options"] != {**game["options"], **options}:
            return f"{ruleset} {options}: played with {game['options']}"
        bundle = requests.get(f"{live_server}/v1/games/{gid}/export")
        report = requests.post(f"{live_server}/v1/verify", data=bundle.content).json()
        if not report["ok"]:
            return f"{ruleset} {players} {options}: bundle does not verify: {report}"
        return None

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        problems = [p for p in pool.map(lambda m: play(*m), matrix) if p]
    assert not problems, problems
