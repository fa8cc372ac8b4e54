"""The stored data's format: which builds may open a store (docs/operations.md, "Upgrades").

The store keeps one number, `mf:format`, written by the first build that opens it. A build
reads every format up to its own `FORMAT` (games and leagues fold their old events with
today's code; tests/cli/test_upgrade.py plays on an earlier release's data), and refuses to
start on a store a newer build marked with a higher one, naming both: the older code would
fold events it does not know. A change that older builds cannot read raises `FORMAT` and
rewrites the mark when it runs; none has been needed yet. A store written before the mark
existed is format 1.
"""

from __future__ import annotations

import redis

from events import keys

FORMAT = 1


class NewerData(RuntimeError):
    """The store was written by a newer build than this one."""


def check(client: redis.Redis) -> None:
    """Mark a new store with this build's format; raise NewerData on a newer store's. A
    store that does not answer is not checked here (the process starts, and answers 503
    until it does)."""
    try:
        stored = client.get(keys.data_format())
        if stored is None:
            client.set(keys.data_format(), FORMAT, nx=True)
            return
    except redis.RedisError:
        return
    if int(stored) > FORMAT:
        raise NewerData(
            f"the store holds data format {int(stored)}, written by a newer marketfold; this "
            f"build reads formats up to {FORMAT}: install the newer build (docs/operations.md)"
        )
