"""Checkpoints and cosignatures in the C2SP formats (events/note.py), held to the reference
vectors of Go's golang.org/x/mod/sumdb/note and to the byte layouts the specifications
give (c2sp.org/signed-note, tlog-checkpoint, tlog-cosignature); and what a witness
refuses to cosign (events/witness.py)."""

import base64
import hashlib
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events import merkle, note, transparency, witness

# golang.org/x/mod/sumdb/note's test keys and note (note_test.go: TestSign, TestOpen)
PETER_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
PETER_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
ENOCH_VKEY = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop"
TEXT = (
    "If you think cryptography is the answer to your problem,\n"
    "then you don't know what your problem is.\n"
)
PETER = (
    "x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM="
)
ENOCH = (
    "rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ="
)
PETER_SIG, ENOCH_SIG = f"— PeterNeumann {PETER}\n", f"— EnochRoot {ENOCH}\n"


def test_a_note_signed_here_is_byte_for_byte_the_go_reference_note():
    name, kind, key = note.parse_signer(PETER_SKEY)
    assert (name, kind) == ("PeterNeumann", note.ED25519)
    assert note.note(TEXT, [note.sign(TEXT, name, key)]) == TEXT + "\n" + PETER_SIG
    assert note.Verifier(name, kind, key.public_key()).text() == PETER_VKEY


def test_each_signature_of_the_go_reference_note_verifies_only_under_its_own_key():
    text, lines = note.split(TEXT + "\n" + PETER_SIG + ENOCH_SIG)
    peter, enoch = note.parse_vkey(PETER_VKEY), note.parse_vkey(ENOCH_VKEY)
    assert text == TEXT
    assert [note.verifies(text, line, peter) for line in lines] == [True, False]
    assert [note.verifies(text, line, enoch) for line in lines] == [False, True]
    assert not note.verifies(TEXT.replace("answer", "answers"), lines[0], peter)


@pytest.mark.parametrize(
    "bad",
    [
        TEXT,  # no signatures
        TEXT + "\n",
        TEXT + "\n" + PETER_SIG[:-1],  # no final newline
        "\x01" + TEXT + "\n" + PETER_SIG,  # a control character
        TEXT + f"\n— Bad Name {PETER}\n",
        TEXT + "\n" + PETER_SIG + "Unexpected line.\n",
        TEXT + "\n" + PETER_SIG * 101,  # more signatures than a verifier takes
    ],
)
def test_malformed_notes_are_refused_as_go_refuses_them(bad):
    with pytest.raises(note.NoteError):
        note.split(bad)


def test_a_changed_verifier_key_is_refused():
    for bad in (
        PETER_VKEY.replace("c74f20a3", "c74f20a4"),
        PETER_VKEY[:-2],
        "PeterNeumann+c74f20a3",
    ):
        with pytest.raises(note.NoteError):
            note.parse_vkey(bad)


def test_a_checkpoint_is_origin_size_and_base64_root_and_nothing_looser():
    root = hashlib.sha256(b"root").digest()
    cp = note.Checkpoint("example.com/log", 20852163, root)
    assert cp.text() == f"example.com/log\n20852163\n{base64.b64encode(root).decode()}\n"
    assert note.parse_checkpoint(cp.text()) == cp
    for bad in (
        "example.com/log\n012\nAAAA\n",
        "example.com/log\n12\n",
        f"o\n-1\n{cp.text()[-45:]}",
    ):
        with pytest.raises(note.NoteError):
            note.parse_checkpoint(bad)


def test_a_cosignature_signs_the_spec_message_with_its_timestamp_and_a_type_4_key_id():
    key = Ed25519PrivateKey.generate()
    text = note.Checkpoint("example.com/behind-the-sofa", 20852163, b"\x07" * 32).text()
    line = note.cosign(text, "witness.example.com/w1", key, 1679315147)
    raw = key.public_key().public_bytes_raw()
    # the key ID, the timestamp and the message exactly as c2sp.org/tlog-cosignature says
    want_id = hashlib.sha256(b"witness.example.com/w1\n\x04" + raw).digest()[:4]
    blob = base64.b64decode(line.text().split(" ")[2])
    assert blob[:4] == want_id and blob[4:12] == (1679315147).to_bytes(8, "big")
    key.public_key().verify(blob[12:], b"cosignature/v1\ntime 1679315147\n" + text.encode())
    assert line.text().startswith("\u2014 witness.example.com/w1 ")
    w = note.Verifier("witness.example.com/w1", note.COSIGNATURE, key.public_key())
    assert note.verifies(text, line, w) and note.timestamp(line) == 1679315147
    assert not note.verifies(text.replace("20852163", "20852164"), line, w)
    plain = note.Verifier("witness.example.com/w1", note.ED25519, key.public_key())
    assert not note.verifies(text, line, plain)  # a note key is not a cosignature key


def leaf(game: str, kind: str) -> str:
    ref = transparency.game_ref(game)
    return transparency.text({"log": transparency.LOG, "kind": kind, "game": ref, "n": 0})


def checkpoint_of(texts: list[str]) -> note.Checkpoint:
    hashes = [merkle.leaf_hash(t.encode()) for t in texts]
    return note.Checkpoint("o/log", len(texts), merkle.frontier_root(merkle.extend([], hashes)))


def consistency(texts: list[str], m: int) -> list[bytes]:
    hashes = [merkle.leaf_hash(t.encode()) for t in texts]
    return merkle.Tree(lambda a, b: hashes[a:b]).consistency(m, len(texts))


def findings(found) -> list[str]:
    return [f["finding"] for f in found]


def test_a_witness_cosigns_a_log_that_grows_and_refuses_each_way_of_rewriting_it():
    log = [leaf("a", "created"), leaf("a", "started"), leaf("b", "created"), leaf("a", "ended")]
    found, state = witness.review(None, checkpoint_of(log), [], log)
    assert (
        found == [] and state["size"] == 4 and state["games"][transparency.game_ref("a")] == "ended"
    )
    grown = log + [leaf("b", "started"), leaf("c", "created")]
    found, later = witness.review(state, checkpoint_of(grown), consistency(grown, 4), grown[4:])
    assert found == [] and later["size"] == 6
    json.dumps(later)  # kept as JSON between runs

    # a rollback, a fork at one size, a larger log that does not extend it
    assert findings(witness.review(later, checkpoint_of(grown[:5]), [], [])[0]) == ["rollback"]
    forked = grown[:5] + [leaf("d", "created")]
    assert findings(witness.review(later, checkpoint_of(forked), [], [])[0]) == ["fork"]
    longer = forked + [leaf("e", "created")]
    proof = consistency(longer, 6)
    assert findings(witness.review(later, checkpoint_of(longer), proof, longer[6:])[0]) == ["fork"]
    # leaves served that are not the checkpoint's
    more = grown + [leaf("e", "created")]
    served = [leaf("f", "created")]
    assert findings(
        witness.review(later, checkpoint_of(more), consistency(more, 6), served)[0]
    ) == ["leaves"]
    # a game logged a second time (from a rewritten store), a leaf out of order
    for bad, name in ((leaf("a", "started"), "duplicate"), (leaf("c", "ended"), "order")):
        new = grown + [bad]
        found, kept = witness.review(later, checkpoint_of(new), consistency(new, 6), [bad])
        assert findings(found) == [name] and kept == later, found
    assert (
        witness.review(None, checkpoint_of([leaf("x", "started")]), [], [leaf("x", "started")])[0][
            0
        ]["finding"]
        == "order"
    )
