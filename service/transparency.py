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

from events import codec, keys, signature, transparency
from events.record import ACTIVE, CANCELLED, FINISHED, WAITING
from service import key_history, metrics, oplog
from service.errors import Invalid, NotFound

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

MAX_LEAVES = 1000  # leaves per page of GET /v1/transparency/leaves
SWEEP_BATCH = 500
# the leaves a game of each status calls for (a cancelled game: at least its `created`)
_DUE = {
    WAITING: ("created",),
    ACTIVE: ("created", "started"),
    FINISHED: transparency.KINDS,
    CANCELLED: ("created",),
}


def sweep(boot: Bootstrap) -> int:
    """Log every leaf a game calls for and the log lacks; return how many were logged.

    Every stored game is swept (`mf:games`: unlisted, private and rematches as well as
    listed ones). A game is logged once: a leaf the log already holds but whose index
    entry was lost is named again from the log (`restore_lost`), never logged a second
    time from what the store holds now (which may have been rewritten)."""
    restore_lost(boot)
    return sum(_sweep(boot, batch) for batch in boot.lobby.every(SWEEP_BATCH))


def _sweep(boot: Bootstrap, batch: list[str]) -> int:
    kinds = transparency.KINDS
    found = boot.tlog.indexes([f"{g}:{k}" for g in batch for k in kinds])
    lacking: dict[str, set[str]] = {}
    for j, at in enumerate(found):
        if at is None:
            lacking.setdefault(batch[j // len(kinds)], set()).add(kinds[j % len(kinds)])
    if not lacking:
        return 0
    listed = list(lacking)
    logged = 0
    for game_id, summary in zip(listed, boot.lobby.summaries(listed), strict=True):
        status = summary.get("status") if summary else None
        if not lacking[game_id] & set(_DUE.get(status, kinds)):  # unknown status: read it
            continue
        leaves = transparency.from_log(boot.store.read(game_id, 0))
        alarmed = boot.tlog.alarmed([f"{game_id}:{k}" for k in leaves])
        for (kind, leaf), never in zip(leaves.items(), alarmed, strict=True):
            if never:  # logged once and then lost: an alarm, never a second leaf
                continue
            before = boot.tlog.size()
            boot.tlog.append(f"{game_id}:{kind}", transparency.text(leaf))
            logged += boot.tlog.size() - before
    return logged


def restore_lost(boot: Bootstrap) -> int:
    """When the log holds more leaves than its index names (entries of `mf:{tlog}:ids`
    deleted), find each stored game's lost leaves in the log itself, name them again,
    and raise an alarm for each (the operator's log, `marketfold_transparency_alarms` in
    /metrics, `/readyz` unready). When the index names leaves past the log's end (the
    log was cut back), drop those entries and raise an alarm for each: the sweep never
    logs such a leaf again. Return how many leaves were named again."""
    size, indexed = boot.tlog.indexed()
    if indexed > size:
        for leaf_id, index in boot.tlog.past_end():
            boot.tlog.alarm(leaf_id, index, codec.now_iso(), "cut")
            game_id, _, kind = leaf_id.rpartition(":")
            oplog.leaf_cut(game_id, kind, index)
        size, indexed = boot.tlog.indexed()  # entries may have been deleted as well
    if indexed >= size:
        return 0
    where: dict[tuple[Any, Any], int] = {}
    for start in range(0, size, SWEEP_BATCH):
        for i, text in enumerate(boot.tlog.texts(start, min(size, start + SWEEP_BATCH))):
            try:
                leaf = json.loads(text)
                where.setdefault((leaf["game"], leaf["kind"]), start + i)
            except (ValueError, TypeError, KeyError):
                continue
    restored = 0
    for game_id in (g for batch in boot.lobby.every(SWEEP_BATCH) for g in batch):
        ref = transparency.game_ref(game_id)
        for kind in transparency.KINDS:
            index = where.get((ref, kind))
            if index is not None and boot.tlog.restore(f"{game_id}:{kind}", index):
                boot.tlog.alarm(f"{game_id}:{kind}", index, codec.now_iso(), "lost")
                oplog.leaf_unindexed(game_id, kind, index)
                restored += 1
    return restored


def head(boot: Bootstrap) -> dict[str, Any]:
    """A tree head of the log as it is now, signed by the service: the one signed when
    the log reached its size (kept, so every caller gets the same head until a leaf is
    appended), or a new one."""
    key = key_history.active_key(boot)  # first: its `key` leaf is in the head it signs
    size = boot.tlog.size()
    kept = boot.tlog.head()
    if kept is not None and kept["size"] == size:
        if kept["signature"]["kid"] == signature.key_id(key.public_key()):
            return kept  # a head signed by a key since retired is signed again
    root = boot.tlog.tree.root(size)
    signed = transparency.sign_head(size, root, codec.now_iso(), key)
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
    if not boot.store.recorder.exists(keys.game_events(game_id)):
        raise NotFound("game_not_found", f"no game {game_id}")
