"""A league's log built by hand, as envelopes, for the tests of the pure league code
(standings, the API's league views): a league of four members a-d, its rounds and its
recorded games."""

from __future__ import annotations

SETTINGS = {
    "name": "t",
    "ruleset": "goblin-market",
    "rounds": 3,
    "start_at": "2030-01-01T00:00:00Z",
    "cadence_s": 60,
    "points": [3, 2, 1, 0],
    "seed": "x",
    "table_min": 3,
    "table_max": 3,
}


def league_log(*events, **settings):
    out = [("league.Created", {**SETTINGS, **settings})]
    out += [("league.MemberJoined", {"player": p, "name": p.upper()}) for p in "abcd"]
    out += list(events)
    return [
        {"seq": i, "hash": str(i), "type": kind, "data": data, "at": "2030-01-01T00:00:00Z"}
        for i, (kind, data) in enumerate(out, start=1)
    ]


def round_started(n, players, byes, game):
    tables = [{"table": 1, "game": game, "players": players}]
    return ("league.RoundStarted", {"round": n, "tables": tables, "byes": byes})


def game_recorded(game, n, places, reason="completed"):
    pts = {1: 3, 2: 2, 3: 1}
    rows = [
        {
            "player": p,
            "seat": i,
            "place": pl,
            "score": 0,
            "points": 0 if reason == "aborted" else pts[pl],
            "mu": 25.0,
            "sigma": 8.0,
        }
        for i, (p, pl) in enumerate(places.items())
    ]
    return (
        "league.GameRecorded",
        {"game": game, "round": n, "table": 1, "places": rows, "reason": reason},
    )
