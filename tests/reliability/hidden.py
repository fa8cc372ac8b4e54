"""What each seat may know at a point of a game, taken from the raw log, and the checks
that no route tells it more. The games' own `redact` is *not* trusted here: what counts
as secret is decided from `visible_to` and one declared policy, PUBLIC_FIELDS.

A *secret event* for seat `s` is one visible to other seats only (a sealed bid, a hand
dealt to another seat); for a spectator, any event not visible to all. (An event hidden
from every seat, such as a deck order, is not a secret *of another seat*: a seat's own
view may legitimately hold cards that came from it.) Of a secret event, only who and
where may be public (PUBLIC_FIELDS) and how many (counts, sizes, which the redacted
forms add); every other value in its data, and the fields of the action that caused it,
is secret.

- String secrets (card ids, names, goods) must appear nowhere in what the seat is
  served, as a value or a key, unless the seat knows them anyway: from an event it may
  see, a public field, or its own actions.
- Number and yes/no secrets (amounts, counts of goods, choices) cannot be searched for,
  so they are checked by non-interference: change every such secret of the still-open
  phase (the events after the last public one) and fold again; what the seat is shown
  (view, legal actions, who owes what, the redacted events) must not change.
"""

from __future__ import annotations

from typing import Any

from events.fold import fold_all
from events.record import Record
from events.redact import may_see, redact

Path = tuple[Any, ...]
PUBLIC_FIELDS = {"seat", "from", "to", "under"}  # who submitted or moved what, and where


def leaves(value: Any, path: Path = ()) -> dict[Path, Any]:
    """Flatten JSON data to {path: scalar}."""
    if isinstance(value, dict):
        out: dict[Path, Any] = {}
        for k, v in value.items():
            out.update(leaves(v, (*path, k)))
        return out
    if isinstance(value, list):
        out = {}
        for i, v in enumerate(value):
            out.update(leaves(v, (*path, i)))
        return out
    return {path: value}


def strings(value: Any) -> set[str]:
    """Return every string in JSON data, values and keys."""
    out: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            out.update(k for k in v if isinstance(k, str))
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, str):
            out.add(v)
    return out


def hidden_from(env: dict[str, Any], seat: int | None) -> bool:
    """Is this event a secret of others for `seat` (see the module docstring)?"""
    visible = env["visible_to"]
    if visible == "all":
        return False
    return seat is None or (bool(visible) and seat not in visible)


def secret_leaves(env: dict[str, Any]) -> dict[Path, Any]:
    """The values of a secret event that only its audience may know."""
    return {p: v for p, v in leaves(env["data"]).items() if p and p[0] not in PUBLIC_FIELDS}


def action_values(env: dict[str, Any]) -> set[str]:
    """The string fields of the action a seat sent (its type is public: it was owed)."""
    action = env.get("command", {}).get("action") or {}
    fields = {k: v for k, v in action.items() if k != "type"}
    return {v for v in leaves(fields).values() if isinstance(v, str)}


def known_strings(log: list[dict[str, Any]], seat: int | None) -> set[str]:
    """Strings `seat` may know from the log: events it may see, the public fields of the
    others, and its own actions."""
    out: set[str] = set()
    for env in log:
        if may_see(env, seat):
            out |= strings(env["data"])
        else:
            out |= strings({k: v for k, v in env["data"].items() if k in PUBLIC_FIELDS})
        if env["actor"] == seat or isinstance(env["actor"], str):
            out |= action_values(env)
    return out


def secret_strings(rec: Record, log: list[dict[str, Any]], seat: int | None) -> set[str]:
    """Strings only other seats may know at this point of the log (none once it ended)."""
    out: set[str] = set()
    if rec.status == "finished":
        return out
    for env in log:
        if hidden_from(env, seat):
            out |= {v for v in secret_leaves(env).values() if isinstance(v, str)}
            if env["actor"] != seat:
                out |= action_values(env)
    return out - known_strings(log, seat)


def last_public(log: list[dict[str, Any]]) -> int:
    """Return the index of the last event visible to all (-1 if none)."""
    return max((i for i, e in enumerate(log) if e["visible_to"] == "all"), default=-1)


def _changed(value: Any) -> Any:
    return (not value) if isinstance(value, bool) else value + 1


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _set(data: Any, path: Path, value: Any) -> None:
    for step in path[:-1]:
        data = data[step]
    data[path[-1]] = value


def perturbed(tail: list[dict[str, Any]], seat: int | None) -> list | None:
    """Return the open phase (`tail`, the events after the last public one) with every
    number/yes-no secret of `seat` changed, or None when there is none to change."""
    out, changed = [], False
    for env in tail:
        if hidden_from(env, seat):
            env = {**env, "data": _copy(env["data"])}
            for path, value in secret_leaves(env).items():
                if isinstance(value, (bool, int)):
                    _set(env["data"], path, _changed(value))
                    changed = True
            if "command" in env and isinstance(env["actor"], int):
                env["command"] = {"type": "act", "action": {"type": "hidden"}}
        out.append(env)
    return out if changed else None


def shown(rec: Record, tail: list[dict[str, Any]], seat: int | None) -> dict[str, Any]:
    """What `seat` is shown of a record: view, legal actions, who owes what, and the open
    phase's events as redacted for it."""
    g = rec.game
    legal = [] if seat is None else [vars(s) for s in g.legal(rec.state, seat)]
    owed = [(o.seat, o.kind, o.key) for o in g.owed(rec.state)]
    events = [
        {k: v for k, v in redact(e, rec, seat).items() if k not in ("hash", "prev")} for e in tail
    ]
    return {"view": g.view(rec.state, seat, "en"), "legal": legal, "owed": owed, "events": events}


def non_interference(
    before: Record, tail: list[dict[str, Any]], now: Record, seat: int | None
) -> bool:
    """Assert that changing the open phase's hidden numbers changes nothing `seat` is
    shown (`before`: the record up to the last public event; `now`: after `tail`);
    return whether there was anything to change."""
    if now.status != "active":
        return False
    other = perturbed(tail, seat)
    if other is None:
        return False
    kinds = sorted({e["type"] for e in tail if hidden_from(e, seat)})
    assert shown(fold_all(before, other), other, seat) == shown(now, tail, seat), (
        f"seat {seat} can tell the hidden numbers of {kinds}"
    )
    return True
