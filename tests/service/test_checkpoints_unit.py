"""The public log's checkpoints, witnesses' cosignatures and signing keys' history as use
cases on in-memory ports (the unit tier): the public log's twin (events.memory_tlog),
stores.memory.checkpoints and stores.memory.key_history, and a keyring in a temporary
directory."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events import note, signature
from service import checkpoints, config, key_history, keyring
from service.bootstrap import Bootstrap
from service.errors import Conflict, Invalid, NotFound
from tests.support.memory_boot import memory_boot

ORIGIN = "games.example/log"


@pytest.fixture
def witness() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


@pytest.fixture
def boot(tmp_path, witness) -> Bootstrap:
    vkey = note.Verifier("w1.example", note.COSIGNATURE, witness.public_key()).text()
    cfg = {
        **config.DEFAULTS,
        "SIGNING_KEY_DIR": str(tmp_path / "keys"),
        "TLOG_ORIGIN": ORIGIN,
        "WITNESS_KEYS": [vkey],
    }
    return memory_boot(config=cfg)


def cosigned(boot: Bootstrap, key: Ed25519PrivateKey, name: str = "w1.example") -> str:
    """The checkpoint the log serves now, with `name`'s cosignature added."""
    served = checkpoints.checkpoint(boot)
    text, lines = note.split(served)
    return note.note(text, [*lines, note.cosign(text, name, key, 1_800_000_000)])


def test_the_active_key_is_logged_once_before_it_signs(boot):
    key = key_history.active_key(boot)
    assert boot.tlog.size() == 1
    key_history.active_key(boot)
    checkpoints.checkpoint(boot)
    assert boot.tlog.size() == 1  # logged once, however often it signs
    kid = signature.key_id(key.public_key())
    assert list(key_history.windows(boot)) == [kid]  # the log's first key: valid from its start
    published = key_history.published(boot)["keys"]
    assert [(k["kid"], k["status"], k["retired_leaf"]) for k in published] == [
        (kid, "active", None)
    ]


def test_a_rotation_logs_the_new_key_retiring_the_old(boot):
    old = signature.key_id(key_history.active_key(boot).public_key())
    new = keyring.of(boot.config).rotate()
    assert signature.key_id(key_history.active_key(boot).public_key()) == new
    windows = key_history.windows(boot)
    assert (windows[old].first, windows[old].last) == (None, 1)  # retired by leaf 1
    assert windows[new].first == 1 and windows[new].last is None
    assert boot.tlog.size() == 2


def test_the_checkpoint_is_signed_by_the_log_over_its_size_and_root(boot):
    text, lines = note.split(checkpoints.checkpoint(boot))
    cp = note.parse_checkpoint(text)
    assert (cp.origin, cp.size, cp.root) == (ORIGIN, 1, boot.tlog.tree.root(1))
    public = keyring.of(boot.config).active().public_key()
    assert note.verifies(text, lines[0], note.Verifier(ORIGIN, note.ED25519, public))


def test_a_witness_cosignature_is_kept_and_served_with_the_checkpoint(boot, witness):
    with pytest.raises(NotFound) as err:
        checkpoints.checkpoint(boot, "w1.example")
    assert err.value.code == "checkpoint_not_found"
    data = cosigned(boot, witness)
    assert checkpoints.cosign(boot, {"note": data}) == {"size": 1, "cosigned_by": ["w1.example"]}
    assert checkpoints.checkpoint(boot, "w1.example") == data
    served = checkpoints.checkpoint(boot)
    assert [line.name for line in note.split(served)[1]] == [ORIGIN, "w1.example"]
    boot.tlog.append("g1:created", '{"kind": "created"}')  # the log grows: not cosigned yet
    assert [line.name for line in note.split(checkpoints.checkpoint(boot))[1]] == [ORIGIN]
    assert checkpoints.checkpoint(boot, "w1.example") == data  # the newest it cosigned


def test_a_witness_keeps_its_largest_checkpoint(boot, witness):
    small = cosigned(boot, witness)
    boot.tlog.append("g1:created", '{"kind": "created"}')
    large = cosigned(boot, witness)
    checkpoints.cosign(boot, {"note": large})
    assert checkpoints.cosign(boot, {"note": small})["size"] == 1  # valid, but older
    assert (
        note.parse_checkpoint(note.split(checkpoints.checkpoint(boot, "w1.example"))[0]).size == 2
    )


def test_cosignatures_that_are_not_a_witness_or_not_this_log_are_refused(boot, witness):
    with pytest.raises(Invalid) as err:
        checkpoints.cosign(boot, {"nope": 1})
    assert err.value.code == "invalid_body" and "note" in err.value.errors
    stranger = cosigned(boot, Ed25519PrivateKey.generate())
    with pytest.raises(Invalid) as err:
        checkpoints.cosign(boot, {"note": stranger})
    assert err.value.code == "invalid_cosignature"
    text = note.Checkpoint(ORIGIN, 5, b"\x00" * 32).text()  # larger than the log
    forged = note.note(text, [note.cosign(text, "w1.example", witness, 1_800_000_000)])
    with pytest.raises(Conflict) as err:
        checkpoints.cosign(boot, {"note": forged})
    assert err.value.code == "checkpoint_mismatch"
    assert boot.checkpoints.every_cosigned() == []  # nothing kept
