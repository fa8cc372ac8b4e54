"""Every ruleset's actions, defaults and views fit its schemas in openapi.yaml."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import games
from events import ending
from events.record import Record
from games.rng import Rng
from games.schemas import value_for
from service import deadline_commands
from tests.api.helpers import random_action
from tests.api.openapi_check import (
    assert_matches,
    expect,
    matches,
    spec,
)
from tests.api.spec_helpers import (
    ACTIONS,
    GAME,
    GAMES,
    JOIN,
    LEGAL,
    action_branches,
    action_types,
    as_json,
    component,
    register,
)
from tests.games.playout import Playout, apply
from tests.games.playout import random_action as random_legal_action

# --- every ruleset's legal actions and views fit its schemas ---------------------------------

PLAYOUTS = [  # ruleset, players, options, seed
    ("goblin-market", 3, {}, 1),
    ("goblin-market", 6, {"courts": False, "edition": "es"}, 2),
    ("sorcerous-futures", 3, {}, 3),
    ("sorcerous-futures", 4, {}, 4),
    ("sorcerous-futures", 4, {"sly_excuse": True}, 5),
    ("black-market", 3, {}, 6),
    ("black-market", 5, {}, 7),
    ("black-market", 4, {"trade": "wild"}, 8),
    ("black-market", 6, {"trade": "wild"}, 9),
    ("gobcon", 2, {}, 10),
    ("gobcon", 3, {}, 11),
    ("gobcon", 4, {"end_on_empty_deck": True, "goal": 30}, 15),
    ("gobcon", 6, {"time_limit": 6}, 24),
]
MAX_DECISIONS = 800
VIEW_EVERY = 25


def legal_objects(spec_: dict[str, Any], rnd: random.Random) -> Iterator[tuple[Any, dict]]:
    """Yield (key, action object) for what a client may build from one /legal entry: every
    listed choice, a value from the schema, and that value with each field run through its
    whole enum and bounds. Equal keys stand for the same check (a field's value is checked
    once per action type, whatever the other fields hold)."""
    kind = spec_["type"]
    for choice in spec_["choices"] or []:
        yield json.dumps(choice, sort_keys=True), choice
    schema = spec_["schema"]
    base = value_for(schema, rnd)
    yield json.dumps(base, sort_keys=True), base
    for name, prop in schema.get("properties", {}).items():
        values = list(prop.get("enum", []))
        if prop.get("type") == "integer" and not values:
            values = [prop["minimum"], prop["maximum"]]
        if prop.get("type") == "object":  # e.g. a sale: every member at its bounds
            for key, sub in prop.get("properties", {}).items():
                if sub.get("type") == "integer":
                    values += [
                        {**base[name], key: sub["minimum"]},
                        {**base[name], key: sub["maximum"]},
                    ]
        for value in values:
            yield (kind, name, json.dumps(value, sort_keys=True)), {**base, name: value}


class SpecChecker:
    """Checks one ruleset's legal() specs, deadline defaults and views against the spec,
    each distinct action object once."""

    def __init__(self, ruleset: str, rnd: random.Random):
        self.game, self.rnd = games.get(ruleset), rnd
        self.action, self.view = component(ruleset, "Action"), component(ruleset, "View")
        branches = action_branches(self.action)
        self.fields = {b["properties"]["type"]["const"]: set(b["properties"]) for b in branches}
        self.seen: set[Any] = set()
        self.types: set[str] = set()
        self.kinds: set[str] = set()

    def action_fits(self, action: dict[str, Any], where: str, key: Any = None) -> None:
        key = key or json.dumps(action, sort_keys=True)
        if key not in self.seen:
            self.seen.add(key)
            if not matches(self.action, action):
                assert_matches(self.action, action)  # raises, naming what breaks
                raise AssertionError(f"{where}: {action}")

    def state(self, state: Any, order: tuple[int, ...], views: bool) -> None:
        for owed in self.game.owed(state):
            self.kinds.add(owed.kind)
            self.action_fits(as_json(owed.default), f"default of {owed.kind}")
            for entry in as_json([vars(s) for s in self.game.legal(state, owed.seat)]):
                # a schema whose fields depend on each other is a oneOf of exact branches
                for branch in entry["schema"].get("oneOf", [entry["schema"]]):
                    assert branch["properties"].keys() == self.fields[entry["type"]], entry
                self.types.add(entry["type"])
                for key, action in legal_objects(entry, self.rnd):
                    self.action_fits(action, f"legal {entry['type']} for {owed.kind}", key)
        if views:
            for seat in (*order, None):
                view = as_json(self.game.view(state, seat, self.rnd.choice(["en", "es"])))
                if not matches(self.view, view):
                    assert_matches(self.view, view)


def check_playout(ruleset: str, players: int, options: dict[str, Any], seed: int) -> SpecChecker:
    """Play a random game with the driver's functions, checking the spec at every decision."""
    game, pick = games.get(ruleset), random.Random(seed)
    order = tuple(pick.sample(range(players), players))
    rng, checker = Rng(f"openapi-{seed}".encode()), SpecChecker(ruleset, random.Random(seed))
    run = Playout(game, order)
    apply(game, run, game.setup(game.normalize_options(options, players), order, rng))
    checker.state(run.state, order, views=True)
    while not game.is_over(run.state) and run.decisions < MAX_DECISIONS:
        if game.ready(run.state) is not None:  # a complete simultaneous phase, as a worker
            apply(game, run, game.resolve(run.state, rng))
            checker.state(run.state, order, views=False)
            continue
        chosen = pick.choice(game.owed(run.state))
        if chosen.simultaneous and pick.random() < 0.1:
            action = chosen.default
        else:
            action = random_legal_action(game.legal(run.state, chosen.seat), pick)
        apply(game, run, game.decide(run.state, chosen.seat, action, rng))
        run.decisions += 1
        checker.state(run.state, order, views=run.decisions % VIEW_EVERY == 0)
    if game.is_over(run.state):
        checker.state(run.state, order, views=True)
        served = Record(
            "g", ruleset=game.id, rules_version=game.rules_version, state=run.state
        )  # the result as the service serves it: reason, resigned seats (events.ending)
        assert_matches("Result", as_json(ending.result(served, "completed")))
    return checker


@pytest.mark.slow
def test_random_playouts_legal_actions_defaults_and_views_fit_each_rulesets_schemas():
    offered: dict[str, set[str]] = {ruleset: set() for ruleset in games.REGISTRY}
    kinds: dict[str, set[str]] = {ruleset: set() for ruleset in games.REGISTRY}
    for ruleset, players, options, seed in PLAYOUTS:
        checker = check_playout(ruleset, players, options, seed)
        offered[ruleset] |= checker.types
        kinds[ruleset] |= checker.kinds
    owed_doc = spec()["components"]["schemas"]["Owed"]["description"]
    for ruleset, owed_kinds in kinds.items():  # Owed lists every decision kind of the ruleset
        section = " ".join(owed_doc.split(f"- `{ruleset}`:")[1].split("\n- `")[0].split())
        assert all(f"`{kind}` (" in section for kind in owed_kinds), (ruleset, owed_kinds)
    for ruleset, types in offered.items():
        documented = set(action_types(component(ruleset, "Action")))
        assert types <= documented
        # if the rules change, pick PLAYOUTS (seeds, options) that reach every action again
        assert documented - types == set(), f"{ruleset}: no playout offered {documented - types}"


# --- every ruleset over HTTP -----------------------------------------------------------------

HTTP_ACTIONS = 100


@pytest.mark.parametrize("ruleset", ["sorcerous-futures", "black-market", "gobcon"])
def test_each_ruleset_plays_over_http_as_the_spec_describes(api, app, ruleset):
    example = spec()["paths"][GAMES]["post"]["requestBody"]["content"]["application/json"]
    body = {**example["examples"][ruleset]["value"], "decision_timeout_s": None}
    people = register(api, body["players"])
    gid = expect(api.post(GAMES, token=people[0]["token"], json=body), 201)["id"]
    seats = {expect(api.post(JOIN, gid, p["token"]), 200)["seat"]: p["token"] for p in people}
    deps, rnd, statuses = app.extensions["marketfold"], random.Random(3), set()
    action_schema, view_schema = component(ruleset, "Action"), component(ruleset, "View")
    for _ in range(HTTP_ACTIONS):
        rec = deps.store.load(gid).record
        if (phase := rec.game.ready(rec.state)) is not None:  # as the worker would
            deadline_commands.resolve(deps, gid, phase)
            continue
        if (public := expect(api.get(GAME, gid), 200))["status"] != "active":
            break
        seat = rnd.choice(public["owed"])["seat"]
        game = expect(api.get(GAME, gid, seats[seat]), 200)
        assert game["you"] == seat
        assert_matches(view_schema, game["view"])
        actions = expect(api.get(LEGAL, gid, seats[seat]), 200)["actions"]
        for choice in (c for a in actions for c in a["choices"] or []):
            assert_matches(action_schema, choice)
        action = random_action(rnd, actions)
        assert_matches(action_schema, action)
        resp = api.post(
            ACTIONS, gid, seats[seat], json=action, headers={"If-Match": str(game["version"])}
        )
        answer = expect(resp, 202 if resp.status_code == 202 else 201)
        assert answer["pending"] == (resp.status_code == 202)
        statuses.add(resp.status_code)
    assert_matches(view_schema, expect(api.get(GAME, gid), 200)["view"])
    # every ruleset has simultaneous phases (202); in wild Black Market even the auction
    # winner's raise is answered 202, as the next phase it opens is simultaneous
    assert 202 in statuses and statuses <= {201, 202}
