"""The public log of games: what its leaves say, and how a bundle is checked against it.

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
import json
from collections.abc import Mapping
from typing import Any

from events import binding, catalog, codec, merkle, signature

LOG = "marketfold-games/1"
KINDS = ("created", "started", "ended")
CHECK = "in the public log of games"
SEEN = "consistent with a tree head seen before"
HISTORY = "the server's log extends the tree head seen"
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


def check_head(head: Any, trusted: Mapping[str, Any]) -> str | None:
    """Return why `head` is not a tree head signed by a trusted key, or None if it is."""
    if not isinstance(head, dict):
        return "the tree head is not an object with size, root, at and signature"
    said, why = signature.opened(head.get("signature"), trusted)
    if said is None:
        return f"the tree head: {why}"
    fields = {k: head.get(k) for k in ("size", "root", "at")}
    if said != {"log": LOG, **fields}:
        return "the tree head's fields differ from the statement its key signed"
    return None


def check_leaves(
    events: list[dict[str, Any]], proof: Any, trusted: Mapping[str, Any]
) -> tuple[bool, str]:
    """Check a bundle's `transparency` member: a trusted tree head, and every leaf its log
    calls for included in it, each leaf equal to what the log says."""
    if not isinstance(proof, dict):
        return False, "not in the log: the bundle carries no transparency proofs"
    head = proof.get("tree_head")
    if why := check_head(head, trusted):
        return False, why
    size, root = head["size"], bytes.fromhex(head["root"])
    given = {}
    for item in proof.get("leaves") or []:
        try:
            leaf = json.loads(item["leaf"])
            given[leaf["kind"]] = (leaf, item)
        except (TypeError, KeyError, ValueError):
            return False, "a transparency leaf is not a JSON object with a kind"
    for kind, expected in from_log(events).items():
        if kind not in given:
            return False, f"the log of games holds no {kind} leaf for this game in the bundle"
        leaf, item = given[kind]
        if leaf != json.loads(text(expected)):
            field = next((k for k in expected if leaf.get(k) != expected[k]), "kind")
            return False, (
                f"the {kind} leaf logged for this game says {field} "
                f"{_short(leaf.get(field))}, the bundle's log says {_short(expected[field])}"
            )
        try:
            path = [bytes.fromhex(h) for h in item["path"]]
            merkle.verify_inclusion(item["leaf"].encode(), item["index"], size, path, root)
        except (KeyError, TypeError, ValueError) as e:
            return (
                False,
                f"the {kind} leaf (index {item.get('index')}) is not in the tree head: {e}",
            )
    kinds = ", ".join(k for k in KINDS if k in given)
    return (
        True,
        f"{kinds} included in the tree head of {size} leaves signed by {head['signature']['kid']}",
    )


def check_seen(
    events: list[dict[str, Any]],
    proof: Mapping[str, Any],
    seen: Mapping[str, Any],
    consistency: list[str] | None,
    trusted: Mapping[str, Any],
) -> tuple[bool, str]:
    """Check a bundle against a tree head (or a game's receipt) saved earlier: the later
    head extends it, and the game's leaves it records are the bundle's."""
    saved = seen.get("tree_head", seen)
    if why := check_head(saved, trusted):
        return False, f"the saved tree head: {why}"
    head = proof["tree_head"]
    if why := fork(saved, head, "the bundle's"):
        return False, why
    first, second = sorted([(saved["size"], saved["root"]), (head["size"], head["root"])])
    if first[0] != second[0] or first[1] != second[1]:
        if consistency is None:
            return False, "no consistency proof between the saved tree head and the bundle's"
        try:
            merkle.verify_consistency(
                first[0],
                second[0],
                [bytes.fromhex(h) for h in consistency],
                bytes.fromhex(first[1]),
                bytes.fromhex(second[1]),
            )
        except ValueError as e:
            return False, (
                f"the tree of {second[0]} leaves does not extend the one of {first[0]}: {e}"
            )
    ours = {json.loads(i["leaf"])["kind"]: i for i in proof.get("leaves") or []}
    for item in seen.get("leaves") or []:
        kind = json.loads(item["leaf"]).get("kind")
        mine = ours.get(kind)
        if mine is None or (mine["index"], mine["leaf"]) != (item["index"], item["leaf"]):
            where = f"leaf {mine['index']}" if mine else "no leaf"
            return False, (
                f"the saved receipt records this game's {kind} as leaf {item['index']}; "
                f"the bundle has {where} with other contents: the game was rewritten"
            )
    ended = events[-1] if events and events[-1].get("type") == catalog.ENDED else None
    end = ours.get("ended")
    if ended and end and end["index"] >= saved["size"]:
        late = codec.parse_time(saved["at"]) - codec.parse_time(ended["at"])
        if late.total_seconds() > MERGE_DELAY_S:
            return False, (
                f"the game ended at {ended['at']}, before the saved tree head of {saved['at']}, "
                f"but its end was logged later (leaf {end['index']}, "
                f"the saved head has {saved['size']}): the game was rewritten"
            )
    return True, f"consistent with the tree head of {saved['size']} leaves saved at {saved['at']}"


def fork(seen: Mapping[str, Any], other: Mapping[str, Any], whose: str) -> str | None:
    """Name a fork: two signed heads of one size with different roots (None if not)."""
    if seen["size"] != other["size"] or seen["root"] == other["root"]:
        return None
    return (
        f"fork: two heads of size {seen['size']} with different roots "
        f"({seen['root'][:16]}... seen at {seen['at']}, {other['root'][:16]}... {whose} "
        f"at {other['at']}): the log was rewritten"
    )


def check_history(
    seen: Mapping[str, Any],
    current: Any,
    consistency: list[str] | None,
    trusted: Mapping[str, Any],
) -> tuple[bool, str]:
    """Check that a server's current tree head extends a head seen before (`consistency`:
    the server's RFC 9162 proof from the seen size to its own, hex): name a rollback (a
    head smaller than one seen) or a fork (two heads of one size, or a later head that
    does not extend the one seen)."""
    for name, head in (("the saved tree head", seen), ("the server's tree head", current)):
        if why := check_head(head, trusted):
            return False, f"{name}: {why}"
    m, n = seen["size"], current["size"]
    if n < m:
        return False, f"the log was rolled back: a head of size {m} was seen, the server's is {n}"
    if why := fork(seen, current, "the server's"):
        return False, why
    if n > m and m > 0:
        try:
            merkle.verify_consistency(
                m,
                n,
                [bytes.fromhex(h) for h in consistency or []],
                bytes.fromhex(seen["root"]),
                bytes.fromhex(current["root"]),
            )
        except (ValueError, TypeError) as e:
            return False, (
                f"fork: the server's head of size {n} does not extend the head of size {m} "
                f"seen ({e}): the log was rewritten"
            )
    return True, f"the server's head of size {n} extends the head of size {m} seen at {seen['at']}"


def _short(value: Any) -> str:
    out = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return out if len(out) <= 80 else out[:77] + "..."
