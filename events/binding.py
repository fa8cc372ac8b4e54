"""What a bundle's header claims about its game, compared with what its log says.

The header (`bundle["game"]`) is a convenience for readers and is not hashed; everything
in it that identifies the game is also in the hash-chained log, from its first event:
`game.Created` names the game id, ruleset, rules version, players, options, decision
timeout and league table, each `game.PlayerJoined` a seat, its player id and name. An
auditor trusts the log and names every header field that disagrees with it.
"""

from __future__ import annotations

import json
from typing import Any

CREATED = {  # header field -> the field of game.Created that binds it
    "id": "game_id",
    "ruleset": "ruleset",
    "rules_version": "rules_version",
    "players": "players",
    "options": "options",
    "decision_timeout_s": "decision_timeout_s",
    "league": "league",
}


def from_log(events: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the header fields as the log states them."""
    created = _data(events[0])
    said = {field: created.get(name) for field, name in CREATED.items()}
    said["seats"] = [
        {k: _data(env).get(k) for k in ("seat", "player", "name")}
        for env in events
        if _type(env) == "game.PlayerJoined"
    ]
    said["version"] = len(events)
    ended = _type(events[-1]) == "game.Ended"
    started = any(_type(env) == "game.Started" for env in events)
    said["status"] = "finished" if ended else "active" if started else "waiting"
    return said


def disagreements(header: dict[str, Any], events: list[dict[str, Any]]) -> list[str]:
    """Return one line per header field that the log contradicts (or cannot bind)."""
    said = from_log(events)
    out = []
    if said["id"] is None:
        out.append("game.id: game.Created does not name its game, so the log binds no id")
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
