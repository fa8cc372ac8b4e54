"""docs/audit.md specifies the public log's formats exactly (#45 §5): the reference code on
that page, run from the page itself, computes every recorded game's envelope hashes and
leaves (listed and sealed), the Merkle roots and the signed statements exactly as the
service does, and the page's rules for canonical strings are the encoder's."""

from __future__ import annotations

import json
import re

import pytest

from events import codec, merkle, receipts, transparency
from tests.conftest import ROOT

DOC = (ROOT / "docs" / "audit.md").read_text("utf-8")
BUNDLES = sorted((ROOT / "tests" / "data" / "bundles").glob("*.json"))


def reference() -> dict:
    """The page's reference code, as a verifier in another language would read it."""
    section = DOC[DOC.index("### The leaves and heads, exactly") :]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code, "docs/audit.md has no reference code under 'The leaves and heads, exactly'"
    space: dict = {}
    exec(compile(code.group(1), "docs/audit.md", "exec"), space)
    return space


REF = reference()


@pytest.mark.parametrize("path", BUNDLES, ids=[p.stem for p in BUNDLES])
def test_the_pages_code_hashes_every_envelope_and_makes_every_leaf(path):
    events = json.loads(path.read_text("utf-8"))["events"]
    assert [REF["envelope_hash"](e) for e in events] == [e["hash"] for e in events]
    ours = {k: transparency.text(v) for k, v in transparency.from_log(events).items()}
    assert REF["leaves"](events) == ours and set(ours) == set(transparency.KINDS)
    # the same game had it been created unlisted: every leaf sealed
    terms = {"type": "game.Terms", "data": {"unlisted": True}, "seq": 2, "at": events[0]["at"]}
    hidden = [events[0], terms, *events[1:]]
    sealed = {k: transparency.text(v) for k, v in transparency.from_log(hidden).items()}
    assert all("sealed" in json.loads(t) for t in sealed.values())
    assert REF["leaves"](hidden) == sealed


def test_the_pages_tree_and_statements_are_the_services():
    texts = [f"leaf {i} \u00e9" for i in range(40)]
    hashes = [REF["leaf_hash"](t) for t in texts]
    assert hashes == [merkle.leaf_hash(t.encode()) for t in texts]
    tree = merkle.Tree(lambda s, e: hashes[s:e])
    for n in range(41):
        assert REF["root"](hashes[:n]) == tree.root(n), n
    at, root = "2026-11-28T11:23:17.418Z", tree.root(17)
    assert REF["head_statement"](17, root.hex(), at) == codec.canonical(
        transparency.head_statement(17, root, at)
    )
    leaf = texts[3]
    assert REF["promise_statement"]("g_abc", leaf, at) == codec.canonical(
        receipts.promise_statement("g_abc", leaf, at)
    )
    assert REF["LOG"] == transparency.LOG and REF["MERGE_DELAY_S"] == transparency.MERGE_DELAY_S
    assert f"**`MERGE_DELAY_S` = {transparency.MERGE_DELAY_S} seconds**" in DOC


SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def as_the_page_says(text: str) -> str:
    """A string in canonical JSON by the page's words alone."""
    out = []
    for ch in text:
        if ch in SHORT:
            out.append(SHORT[ch])
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def test_canonical_strings_and_numbers_are_as_the_page_says():
    every = "".join(map(chr, range(0x800))) + "\u2028\u2029\ufeff\uffff\U0001f3b2/"
    for i in range(0, len(every), 64):
        chunk = every[i : i + 64]
        value = {"s": chunk, "n": [0, -7, 123456789012]}
        want = '{"n":[0,-7,123456789012],"s":' + as_the_page_says(chunk) + "}"
        assert codec.canonical(value) == want
        assert REF["canonical"](value) == want
    assert codec.canonical({"b": 1, "a": {"d": None, "c": True}}) == (
        '{"a":{"c":true,"d":null},"b":1}'
    )
