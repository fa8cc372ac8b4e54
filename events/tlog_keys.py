"""The Redis keys of the public log of games (events/transparency.py, events/tlog.py):
all under the hash tag `{tlog}`, so one script appends a leaf."""

from __future__ import annotations

from events.keys import PREFIX


def tlog_hashes() -> str:
    """The public log of games (events/transparency.py): its leaf hashes in order (a list
    of 32-byte values). Its keys share the hash tag `{tlog}`: one script appends a leaf."""
    return f"{PREFIX}:{{tlog}}:hashes"


def tlog_texts() -> str:
    """The log's leaves as text (a list, in the order of `tlog_hashes`)."""
    return f"{PREFIX}:{{tlog}}:texts"


def tlog_ids() -> str:
    """Where each game's leaf of each kind lies (hash: `<game>:<kind>` -> index)."""
    return f"{PREFIX}:{{tlog}}:ids"


def tlog_head() -> str:
    """The log's newest signed tree head (JSON), reused until the log grows."""
    return f"{PREFIX}:{{tlog}}:head"


def tlog_keys() -> str:
    """Where each signing key's `key` leaf lies in the log (hash: key id -> index;
    events.keylog), and `:last` the id of the key logged last (the one a rotation retires)."""
    return f"{PREFIX}:{{tlog}}:keys"


def tlog_witnessed() -> str:
    """Each witness's newest cosigned checkpoint (hash: witness name -> the signed note:
    the checkpoint, the log's signature and the witness's cosignature)."""
    return f"{PREFIX}:{{tlog}}:witnessed"


def tlog_alarms() -> str:
    """Alarms about the log (hash: `<game>:<kind>` -> JSON {index, at, alarm}): a leaf the
    log holds whose entry in `tlog_ids` was lost (`lost`: the sweep named it again from
    the log), or one the log no longer holds (`cut`). A leaf id here is never logged
    again, and `/readyz` stays unready while any is recorded."""
    return f"{PREFIX}:{{tlog}}:alarms"
