"""The signing keys' history in the public log of games (events.keylog): the active key
is logged before it signs anything, and every key's window is read back from the log.

The first time a process signs with a key the log has not named (the first key, or the
one `marketfold keys rotate` made active), it appends that key's `key` leaf, retiring the
key logged last. The leaf is logged once per key (its leaf id), so processes racing after
a rotation log one leaf. Tree heads and checkpoints are then signed by the new key over a
log that holds its leaf: the rotation re-signs the current head with the new key, and the
old key's heads stay valid for the sizes it signed (docs/audit.md, "Keys with a history").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events import codec, keylog, signature, transparency
from service import keyring

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def active_key(boot: Bootstrap) -> Ed25519PrivateKey:
    """The key new signatures use, its `key` leaf logged first if it is not yet."""
    key = keyring.of(boot.config).active()
    kid = signature.key_id(key.public_key())
    if boot.tlog.indexes([keylog.leaf_id(kid)])[0] is not None:
        return key
    last = boot.key_history.last_logged()
    ring = keyring.of(boot.config)
    retires = ring.private(last) if last is not None and last != kid else None
    earlier = [k for k in ring.public() if k != kid] if last is None else []
    leaf = keylog.leaf(key.public_key(), retires, codec.now_iso(), earlier)
    index = boot.tlog.append(keylog.leaf_id(kid), transparency.text(leaf))
    boot.key_history.logged(kid, index)
    return key


def windows(boot: Bootstrap) -> dict[str, keylog.Window]:
    """Every logged key's window, read from its `key` leaves in the log."""
    found = boot.key_history.leaves()
    size = boot.tlog.size()  # a log cut back no longer holds every key's leaf
    leaves = [(i, boot.tlog.texts(i, i + 1)[0]) for i in sorted(found.values()) if i < size]
    return keylog.history_of(leaves)


def published(boot: Bootstrap) -> dict[str, Any]:
    """The service's public keys as a JWK Set, each with its window from the log."""
    active_key(boot)
    found = keyring.of(boot.config).jwks()
    history = windows(boot)
    for key in found["keys"]:
        if key["kid"] in history:
            key.update(history[key["kid"]].published())
    return found
