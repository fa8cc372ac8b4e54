"""The public log of games, as a use case: signed tree heads, a game's receipt (its
leaves with inclusion proofs), consistency proofs, leaves for monitors, and the sweep.

A game's leaves are written by the append that calls for them (service.game_log: a
follow-up write, `events.recorder.Writes.tlog`): on one Redis inside the append's own
script, atomic with it. On a cluster the log's keys have a slot of their own, so the leaf
follows the append in a script of its own; if the writer dies in between, the next worker
sweep (every minute, and when a worker starts) logs it, so a leaf is logged within
`transparency.MERGE_DELAY_S` of its game's write at worst. The sweep also logs games
written before the log existed.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from events import codec, keys, transparency
from events.record import ACTIVE, FINISHED, WAITING
from service import metrics, proof
from service.errors import Invalid, NotFound

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

MAX_LEAVES = 1000  # leaves per page of GET /v1/transparency/leaves


def sweep(boot: Bootstrap) -> int:
    """Log every leaf a game calls for and the log lacks; return how many were logged."""
    logged = 0
    wanted = {WAITING: ("created",), ACTIVE: ("created", "started")}
    wanted[FINISHED] = ("created", "started", "ended")
    for status, kinds in wanted.items():
        ids = [m.decode() for m in boot.redis.zrange(keys.lobby(status), 0, -1)]
        for i in range(0, len(ids), 500):
            batch = ids[i : i + 500]
            found = boot.tlog.indexes([f"{g}:{k}" for g in batch for k in kinds])
            missing = {batch[j // len(kinds)] for j, at in enumerate(found) if at is None}
            for game_id in missing:
                envelopes = boot.store.read(game_id, 0)
                for kind, leaf in transparency.from_log(envelopes).items():
                    before = boot.tlog.size()
                    boot.tlog.append(f"{game_id}:{kind}", transparency.text(leaf))
                    logged += boot.tlog.size() - before
    return logged


def head(boot: Bootstrap) -> dict[str, Any]:
    """A tree head of the log as it is now, signed by the service: the one signed when
    the log reached its size (kept, so every caller gets the same head until a leaf is
    appended), or a new one."""
    size = boot.tlog.size()
    kept = boot.tlog.head()
    if kept is not None and kept["size"] == size:
        key = proof.keyring(boot).public().get(kept["signature"]["kid"])
        if key is not None:  # a head signed by a key since removed is signed again
            return kept
    root = boot.tlog.tree.root(size)
    signed = transparency.sign_head(size, root, codec.now_iso(), proof.keyring(boot).active())
    metrics.SIGNATURES.inc()
    boot.tlog.keep_head(signed)
    return signed


def receipt(boot: Bootstrap, game_id: str) -> dict[str, Any]:
    """A game's leaves, each with its inclusion proof to a fresh signed tree head."""
    _exists(boot, game_id)
    kinds = list(transparency.KINDS)
    at = boot.tlog.indexes([f"{game_id}:{k}" for k in kinds])
    signed = head(boot)
    leaves = []
    for index in at:
        if index is None or index >= signed["size"]:
            continue
        path = boot.tlog.tree.inclusion(index, signed["size"])
        text = boot.tlog.texts(index, index + 1)[0]
        leaves.append({"index": index, "leaf": text, "path": [p.hex() for p in path]})
    return {"tree_head": signed, "leaves": leaves}


def consistency(boot: Bootstrap, first: int, second: int) -> dict[str, Any]:
    """The RFC 9162 proof that the log's first `first` leaves are the prefix of `second`."""
    size = boot.tlog.size()
    if not 0 < first <= second <= size:
        errors = {"second" if second > size else "first": [f"need 0 < first <= second <= {size}"]}
        raise Invalid("invalid_query", f"the log holds {size} leaves", errors=errors)
    path = boot.tlog.tree.consistency(first, second)
    return {"first": first, "second": second, "path": [p.hex() for p in path]}


def leaves(boot: Bootstrap, start: int, end: int | None) -> dict[str, Any]:
    """Leaves [start, end) for monitors, at most MAX_LEAVES at once."""
    size = boot.tlog.size()
    end = min(size, start + MAX_LEAVES if end is None else end, start + MAX_LEAVES)
    texts = boot.tlog.texts(start, end)
    return {"size": size, "leaves": [{"index": start + i, "leaf": t} for i, t in enumerate(texts)]}


def compare(boot: Bootstrap, bundle: Any) -> str | None:
    """Say where a bundle's leaves differ from what this server's log holds for its game
    (None if they agree, or if this server logged nothing for it)."""
    items = (bundle.get("transparency") or {}).get("leaves") if isinstance(bundle, dict) else None
    game = (bundle.get("game") or {}).get("id") if isinstance(bundle, dict) else None
    if not items or not isinstance(game, str):
        return None
    for item in items:
        try:
            kind = json.loads(item["leaf"])["kind"]
        except (TypeError, KeyError, ValueError):
            continue
        (index,) = boot.tlog.indexes([f"{game}:{kind}"])
        if index is None:
            continue
        if index != item.get("index") or boot.tlog.texts(index, index + 1)[0] != item["leaf"]:
            return (
                f"this server's log records game {game}'s {kind} as leaf {index}; "
                f"the bundle's is leaf {item.get('index')} with other contents"
            )
    return None


def _exists(boot: Bootstrap, game_id: str) -> None:
    if not boot.redis.exists(keys.game_events(game_id)):
        raise NotFound("game_not_found", f"no game {game_id}")
