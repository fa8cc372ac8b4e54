"""What a bundle's header claims about its game, compared with what its log says.

The header (`bundle["game"]`) is a convenience for readers and is not hashed; everything
in it that identifies the game is also in the hash-chained log, from its first event:
`game.Created` names the game id, ruleset, rules version, players, options, decision
timeout and league table, each `game.PlayerJoined` a seat, its player id and name (a
`game.PlayerLeft` frees one; the seats after it move up). An
auditor trusts the log and names every header field that disagrees with it.
"""

from __future__ import annotations

import json
from typing import Any

from events import catalog

CREATED = {  # header field -> the field of game.Created that binds it
    "id": "game_id",
    "ruleset": "ruleset",
    "rules_version": "rules_version",
    "players": "players",
    "options": "options",
    "decision_timeout_s": "decision_timeout_s",
    "league": "league",
}


def league_game_id(league_id: str, number: int, table: int, replay: int | None = None) -> str:
    """The id of a league's game at `table` of round `number` (fixed: a league creates
    each of its games once, and the id says where it belongs); the table's `replay`-th
    replay, ordered by an organizer's ruling, ends in `_p<replay>`."""
    base = f"g_{league_id}_r{number}_t{table}"
    return f"{base}_p{replay}" if replay else base


def from_log(events: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the header fields as the log states them."""
    created = _data(events[0])
    said = {field: created.get(name) for field, name in CREATED.items()}
    seats: list[dict[str, Any]] = []
    for env in events:  # a seat left frees it, and the later seats move up one (as the fold)
        if _type(env) == catalog.PLAYER_JOINED:
            seat = {k: _data(env).get(k) for k in ("seat", "player", "name")}
            seat["computer"] = _data(env).get("computer")  # a computer player's level, or None
            seats.append(seat)
        elif _type(env) == catalog.SEAT_TAKEN:  # a substitute holds the seat from here on
            taken = _data(env)
            seats = [
                {**s, "player": taken.get("player"), "name": taken.get("name"), "computer": None}
                if s["seat"] == taken.get("seat")
                else s
                for s in seats
            ]
        elif _type(env) == catalog.PLAYER_LEFT:
            kept = [s for s in seats if s["player"] != _data(env).get("player")]
            seats = [{**s, "seat": i} for i, s in enumerate(kept)]
    said["seats"] = seats
    said["version"] = len(events)
    ended = _type(events[-1]) == catalog.ENDED
    started = any(_type(env) == catalog.STARTED for env in events)
    cancelled = _type(events[-1]) == catalog.CANCELLED
    said["status"] = (
        "finished" if ended else "cancelled" if cancelled else "active" if started else "waiting"
    )
    return said


def disagreements(header: dict[str, Any], events: list[dict[str, Any]]) -> list[str]:
    """Return one line per header field that the log contradicts (or cannot bind)."""
    said = from_log(events)
    out = []
    if said["id"] is None:
        out.append("game.id: game.Created does not name its game, so the log binds no id")
    league = said.get("league")
    if isinstance(league, dict) and said["id"] is not None:
        where = [league.get(k) for k in ("id", "round", "table", "replay")]
        if said["id"] != league_game_id(*where):
            out.append(
                f"game.league: the game id {said['id']} names another league table than "
                f"game.Created logs (league {where[0]}, round {where[1]}, table {where[2]})"
            )
    for field, value in said.items():
        if field not in header or _canon(header[field]) == _canon(value):
            continue
        if field == "seats":
            out += _seats(header["seats"], value)
        elif value is None and field != "id":
            out.append(f"game.{field}: the header says {_short(header[field])}, the log has none")
        elif value is not None:
            out.append(
                f"game.{field}: the header says {_short(header[field])}, "
                f"the log says {_short(value)}"
            )
    return out


def _seats(claimed: Any, logged: list[dict[str, Any]]) -> list[str]:
    """Name each seat field that differs (or the list, if its length or shape does)."""
    if not isinstance(claimed, list) or len(claimed) != len(logged):
        return [f"game.seats: the header says {_short(claimed)}, the log says {_short(logged)}"]
    out = []
    for i, (mine, theirs) in enumerate(zip(claimed, logged, strict=True)):
        for key, value in theirs.items():
            got = mine.get(key) if isinstance(mine, dict) else None
            if _canon(got) != _canon(value):
                out.append(
                    f"game.seats[{i}].{key}: the header says {_short(got)}, "
                    f"the log says {_short(value)}"
                )
    return out


def _data(env: Any) -> dict[str, Any]:
    data = env.get("data") if isinstance(env, dict) else None
    return data if isinstance(data, dict) else {}


def _type(env: Any) -> Any:
    return env.get("type") if isinstance(env, dict) else None


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."
