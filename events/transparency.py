"""The public log of games: what its leaves say and its signed tree heads. How a bundle, a
saved tree head and a server's later head are checked against it is events.log_checks.

In the manner of Certificate Transparency (RFC 9162), the service appends a leaf to one
append-only Merkle tree (events.merkle) for each fact that fixes a game:

- `created`: the game (by `game_ref`, a hash of its id), ruleset and rules version,
  players, options, decision timeout, league table and seed commitment, as `game.Created`
  logs them;
- `started`: the seats (player ids and names) the game started with;
- `ended`: how many events the log holds, its final hash (which commits to every event)
  and the result.

A game created unlisted keeps its facts to its own players: each of its leaves is sealed
(`sealed`), holding only its kind, its game's reference and a SHA-256 commitment to the
leaf above keyed by the game's id, so the log shows no players, names, times, options or
result of it, and whoever holds the game (its players, with its export) recomputes the
commitment and checks inclusion as for any other game. Once the game is listed (its
held seats lapsed with `open_when_lapsed`) its later leaves are plain.

A leaf is the canonical JSON text of such an object (`text`). The service signs tree
heads (size, root, time) with its key; an export carries its game's leaves, each with an
inclusion proof to one signed tree head, so a verifier needs nothing else to see that
the game it holds is the one the service logged. A player who saved a tree head (or the
game's receipt, `GET /v1/games/{id}/transparency`) during or after play checks that the
service's later heads extend it (a consistency proof), and that the game's leaves are
the ones it saw: a game rewritten afterwards, even re-signed, cannot match both.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from events import binding, catalog, codec, signature

LOG = "marketfold-games/1"
KINDS = ("created", "started", "ended")
# a game's leaves are appended right after its write, or by the next worker sweep if the
# writer died in between (service/transparency.py): within this long, at worst
MERGE_DELAY_S = 120


def game_ref(game_id: Any) -> str | None:
    """How a leaf names its game: SHA-256 of "marketfold-game:" and the id, so whoever
    holds a game's id finds its leaves, and whoever reads the log finds no ids (an unlisted
    game stays unlisted; its id is random, too long to guess)."""
    if not isinstance(game_id, str):
        return None
    return hashlib.sha256(f"marketfold-game:{game_id}".encode()).hexdigest()


def created(env: Mapping[str, Any]) -> dict[str, Any]:
    """The `created` leaf of a game, from its `game.Created` envelope."""
    data = env["data"]
    return {
        "log": LOG,
        "kind": "created",
        "game": game_ref(data.get("game_id")),
        "ruleset": data.get("ruleset"),
        "rules_version": data.get("rules_version"),
        "players": data.get("players"),
        "options": data.get("options"),
        "decision_timeout_s": data.get("decision_timeout_s"),
        "league": data.get("league"),
        "seed_commitment": data.get("seed_commitment"),
        "at": env.get("at"),
    }


def started(game_id: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """The `started` leaf: the seats, in order, as {"seat", "player", "name"}."""
    seats = [{k: s.get(k) for k in ("seat", "player", "name")} for s in seats]
    return {"log": LOG, "kind": "started", "game": game_ref(game_id), "seats": seats}


def ended(game_id: str, events: int, head: str, result: Any) -> dict[str, Any]:
    """The `ended` leaf: the log's length and final hash, and the result."""
    return {
        "log": LOG,
        "kind": "ended",
        "game": game_ref(game_id),
        "events": events,
        "head": head,
        "result": result,
    }


def sealed(game_id: Any, leaf: dict[str, Any]) -> dict[str, Any]:
    """The leaf an unlisted game logs in place of `leaf`: its kind and game reference, and
    SHA-256("marketfold-leaf:" + game id + ":" + the leaf's text), a commitment nobody can
    open or guess without the game's id (random, as long as a key)."""
    digest = hashlib.sha256(f"marketfold-leaf:{game_id}:{text(leaf)}".encode()).hexdigest()
    return {"log": LOG, "kind": leaf["kind"], "game": leaf["game"], "sealed": digest}


def _shown(game_id: Any, leaf: dict[str, Any], unlisted: bool) -> dict[str, Any]:
    return sealed(game_id, leaf) if unlisted else leaf


def due(old: Any, new: Any, envelopes: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The leaves a game's write calls for, as (leaf id, text): from the record before it,
    the record after it (sealed) and the envelopes it appends. An unlisted game's are
    sealed (`sealed`)."""
    gid, out, hide = new.game_id, [], new.unlisted
    for env in envelopes:
        if env.get("type") == catalog.CREATED:
            out.append((f"{gid}:created", text(_shown(gid, created(env), hide))))
    if old.status == "waiting" and new.status in ("active", "finished"):
        seats = [{"seat": s.seat, "player": s.player, "name": s.name} for s in new.seats]
        out.append((f"{gid}:started", text(_shown(gid, started(gid, seats), hide))))
    if new.status == "finished" and old.status != "finished":
        leaf = ended(gid, new.version, new.last_hash, new.result)
        out.append((f"{gid}:ended", text(_shown(gid, leaf, hide))))
    return out


def unlisted(events: list[dict[str, Any]]) -> bool:
    """Return True if the game is unlisted after `events` (as events.fold folds it: its
    `game.Terms`, until a lapse lists it)."""
    hidden = False
    for env in events:
        kind, data = env.get("type"), env.get("data") or {}
        if kind == catalog.TERMS:
            hidden = bool(data.get("unlisted"))
        elif kind == catalog.RESERVATIONS_LAPSED and data.get("listed"):
            hidden = False
    return hidden


def text(leaf: Mapping[str, Any]) -> str:
    return codec.canonical(leaf)


def from_log(events: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The leaves a log calls for, by kind (as the service appends them)."""
    if not events or events[0].get("type") != catalog.CREATED:
        return {}
    game_id = events[0]["data"].get("game_id")
    first = [e for e in events[:2] if e.get("type") in (catalog.CREATED, catalog.TERMS)]
    out = {"created": _shown(game_id, created(events[0]), unlisted(first))}
    for i, env in enumerate(events):
        if env.get("type") == catalog.STARTED:
            leaf = started(game_id, binding.from_log(events[: i + 1])["seats"])
            out["started"] = _shown(game_id, leaf, unlisted(events[: i + 1]))
            break
    last = events[-1]
    if last.get("type") == catalog.ENDED:
        leaf = ended(game_id, len(events), last["hash"], last["data"].get("result"))
        out["ended"] = _shown(game_id, leaf, unlisted(events))
    return out


def head_statement(size: int, root: bytes, at: str) -> dict[str, Any]:
    return {"log": LOG, "size": size, "root": root.hex(), "at": at}


def sign_head(size: int, root: bytes, at: str, key: Any) -> dict[str, Any]:
    """Return a signed tree head: its fields and the service's signature over them."""
    statement = head_statement(size, root, at)
    fields = {"size": size, "root": root.hex(), "at": at}
    return {**fields, "signature": signature.signed(statement, key)}
