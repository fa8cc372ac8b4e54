"""A Black Market wild trade over HTTP: a three-seat game brought to its trade phase, a
legal private offer built from /legal, an action that must be accepted."""

from __future__ import annotations

import random

from games.base import ActionSpec
from service import deadline_commands
from tests.api.helpers import bearer, by_seat, new_game, new_players
from tests.games.playout import random_action


def act(client, gid: str, player: dict, action: dict) -> dict:
    res = client.post(f"/v1/games/{gid}/actions", json=action, headers=bearer(player))
    assert res.status_code in (201, 202), res.get_json()
    return res.get_json()


def legal_offer(client, gid: str, player: dict, to: int, rnd: random.Random) -> dict:
    """A legal offer of `player` to seat `to`, built from its /legal schema."""
    legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(player)).get_json()
    spec = next(a for a in legal["actions"] if a["type"] == "offer")
    schema = {**spec["schema"], "properties": {**spec["schema"]["properties"], "to": {"const": to}}}
    return random_action([ActionSpec("offer", schema, None)], rnd)


def wild_trade(client, app, **body):
    """A three-seat wild game whose trade phase has just opened (`body`: more of the
    creation's body, e.g. `claim_after_s`)."""
    players = new_players(client, 3, prefix="w")
    gid = new_game(client, players, ruleset="black-market", options={"trade": "wild"}, **body)
    seats, rnd = by_seat(client, gid, players), random.Random(3)
    for seat, player in seats.items():
        legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(player)).get_json()
        specs = [ActionSpec(a["type"], a["schema"], a["choices"]) for a in legal["actions"]]
        act(client, gid, player, random_action(specs, rnd))
    deps = app.extensions["marketfold"]
    rec = deps.store.load(gid).record
    deadline_commands.resolve(deps, gid, rec.game.ready(rec.state))
    owed = client.get(f"/v1/games/{gid}").get_json()["owed"]
    assert {o["kind"] for o in owed} == {"trade"}
    return gid, seats, rnd
