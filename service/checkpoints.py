"""The public log's checkpoints (C2SP tlog-checkpoint, signed by the service as a C2SP
signed note) and the witnesses' cosignatures the server collects and serves with them.

The checkpoint of the log as it is now is signed on each request: Ed25519 is
deterministic, so one size, root and key always give the same note. A witness
(`marketfold witness`) posts its cosignature; the server keeps it only if a witness the
operator configured (`WITNESS_KEYS`) signed it and it cosigns this log's checkpoint of
that size, and keeps each witness's newest. `GET /v1/transparency/checkpoint` carries
every kept cosignature of the checkpoint it serves; `?witness=NAME` serves the newest
checkpoint that witness cosigned (docs/audit.md, "Checkpoints and witnesses").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from events import note
from service import key_history, keyring
from service.errors import Conflict, Invalid, NotFound

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def current(boot: Bootstrap) -> note.Checkpoint:
    key_history.active_key(boot)  # the active key's `key` leaf first: the note it signs holds it
    size = boot.tlog.size()
    return note.Checkpoint(boot.config["TLOG_ORIGIN"], size, boot.tlog.tree.root(size))


def signed(boot: Bootstrap, cp: note.Checkpoint) -> str:
    """The checkpoint's text and the service's signature line (its key named as the origin)."""
    return note.note(cp.text(), [note.sign(cp.text(), cp.origin, key_history.active_key(boot))])


def checkpoint(boot: Bootstrap, witness: str | None = None) -> str:
    """The log's checkpoint now, with every cosignature kept for it; or, for `witness`, the
    newest checkpoint that witness cosigned."""
    if witness is not None:
        kept = boot.checkpoints.cosigned(witness)
        if kept is None:
            raise NotFound("checkpoint_not_found", f"no checkpoint cosigned by {witness!r} is kept")
        return kept
    cp = current(boot)
    out = signed(boot, cp)
    for kept in boot.checkpoints.every_cosigned():
        text, lines = note.split(kept)
        if text == cp.text():
            out += "".join(line.text() for line in lines if line.name != cp.origin)
    return out


def witnesses(boot: Bootstrap) -> list[note.Verifier]:
    """The witnesses the operator configured (`WITNESS_KEYS`, checked by service.config)."""
    return [note.parse_vkey(text) for text in boot.config["WITNESS_KEYS"]]


def cosign(boot: Bootstrap, data: Any) -> dict[str, Any]:
    """Keep a witness's cosignature of this log's checkpoint: {"note": the checkpoint with
    the witness's `cosignature/v1` line}. Refuse one no configured witness signed, or one
    of a checkpoint this log never had at that size (409)."""
    raw = data.get("note") if isinstance(data, dict) else None
    if not isinstance(raw, str):
        raise Invalid("invalid_body", 'send {"note": ...}', errors={"note": ["a signed note"]})
    try:
        text, lines = note.split(raw)
        cp = note.parse_checkpoint(text)
    except note.NoteError as e:
        raise Invalid("invalid_cosignature", str(e), errors={"note": [str(e)]}) from e
    ours = current(boot)
    if cp.origin != ours.origin or cp.size > ours.size:
        raise Conflict(
            "checkpoint_mismatch",
            f"this log is {ours.origin!r} of {ours.size} leaves; the note cosigns "
            f"{cp.origin!r} of {cp.size}",
        )
    root = ours.root if cp.size == ours.size else boot.tlog.tree.root(cp.size)
    if root != cp.root:
        raise Conflict(
            "checkpoint_mismatch",
            f"the note cosigns another root for size {cp.size} than this log's",
        )
    known = witnesses(boot)
    good = [(k, line) for k in known for line in lines if note.verifies(text, line, k)]
    if not good:
        names = ", ".join(k.name for k in known) or "none configured"
        why = f"no line of the note is a valid cosignature of a configured witness ({names})"
        raise Invalid("invalid_cosignature", why, errors={"note": [why]})
    for key, line in good:
        _keep(boot, key.name, cp.size, note.note(text, [_log_line(boot, text, lines), line]))
    return {"size": cp.size, "cosigned_by": [k.name for k, _ in good]}


def _log_line(boot: Bootstrap, text: str, lines: list[note.Line]) -> note.Line:
    """The log's signature on a checkpoint a witness cosigned: the note's own, if one of
    the service's keys made it (a checkpoint from before a rotation keeps the old key's
    signature, valid for its size), else the active key's."""
    origin = note.parse_checkpoint(text).origin
    for public in keyring.of(boot.config).public().values():
        vkey = note.Verifier(origin, note.ED25519, public)
        for line in lines:
            if note.verifies(text, line, vkey):
                return line
    return note.sign(text, origin, key_history.active_key(boot))


def _keep(boot: Bootstrap, name: str, size: int, text: str) -> None:
    """Keep a witness's cosigned checkpoint unless it keeps a larger one already."""
    kept = boot.checkpoints.cosigned(name)
    if kept is not None:
        try:
            if note.parse_checkpoint(note.split(kept)[0]).size > size:
                return
        except note.NoteError:
            pass
    boot.checkpoints.keep_cosigned(name, text)
