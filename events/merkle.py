"""Merkle trees as RFC 9162 (Certificate Transparency 2.0) section 2.1 defines them.

Leaf hash `SHA-256(0x00 || leaf)`, node hash `SHA-256(0x01 || left || right)`, the tree
split at the largest power of two below its size; inclusion and consistency proofs in
the RFC's form (lists of node hashes, deepest first) and their verification, written
from the RFC's algorithms (2.1.3.1-2.1.4.2). Any verifier that follows the RFC computes
the same roots and accepts the same proofs; tests/events/test_merkle.py holds these
functions to pymerkle (a maintained implementation of the same hashing) as a reference.

Why not pymerkle here: its roots agree with the RFC, but its proofs are its own format
(rules and subsets); clients in other languages (tools/rederive.js) verify RFC proofs.

`Tree` computes over leaf hashes read through a function (the log in Redis), keeping the
hashes of complete aligned subtrees, which never change once full.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

LEAF, NODE = b"\x00", b"\x01"
CACHED_WIDTH = 64  # complete aligned subtrees at least this wide are kept once computed


class ProofError(ValueError):
    """A proof that does not prove what it claims."""


def leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(LEAF + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(NODE + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


class Tree:
    """The tree over `read(start, end)` -> leaf hashes [start, end)."""

    def __init__(self, read: Callable[[int, int], Sequence[bytes]]) -> None:
        self.read = read
        self.full: dict[tuple[int, int], bytes] = {}

    def root(self, size: int) -> bytes:
        """MTH(D[0:size]); the hash of the empty string for an empty tree."""
        return self._mth(0, size) if size else hashlib.sha256(b"").digest()

    def inclusion(self, index: int, size: int) -> list[bytes]:
        """PATH(index, D[0:size]): the audit path of leaf `index` (from 0)."""
        if not 0 <= index < size:
            raise ValueError(f"leaf {index} is not in a tree of {size}")
        return self._path(index, 0, size)

    def consistency(self, first: int, second: int) -> list[bytes]:
        """PROOF(first, D[0:second]): the tree of `first` leaves is a prefix of `second`'s."""
        if not 0 < first <= second:
            raise ValueError(f"no consistency proof from {first} to {second} leaves")
        return [] if first == second else self._subproof(first, 0, second, True)

    def _mth(self, start: int, end: int) -> bytes:
        n = end - start
        aligned = n & (n - 1) == 0 and start % n == 0
        if aligned and (start, n) in self.full:
            return self.full[(start, n)]
        if n < CACHED_WIDTH or aligned:  # read the range once, hash it here
            root = _hash_all(list(self.read(start, end)))
            if aligned and n >= CACHED_WIDTH:
                self.full[(start, n)] = root
            return root
        k = _split(n)
        return node_hash(self._mth(start, start + k), self._mth(start + k, end))

    def _path(self, m: int, start: int, end: int) -> list[bytes]:
        n = end - start
        if n == 1:
            return []
        k = _split(n)
        if m < k:
            return self._path(m, start, start + k) + [self._mth(start + k, end)]
        return self._path(m - k, start + k, end) + [self._mth(start, start + k)]

    def _subproof(self, m: int, start: int, end: int, b: bool) -> list[bytes]:
        n = end - start
        if m == n:
            return [] if b else [self._mth(start, end)]
        k = _split(n)
        if m <= k:
            return self._subproof(m, start, start + k, b) + [self._mth(start + k, end)]
        return self._subproof(m - k, start + k, end, False) + [self._mth(start, start + k)]


def _hash_all(hashes: list[bytes]) -> bytes:
    """MTH over leaf hashes already read."""
    if len(hashes) == 1:
        return hashes[0]
    k = _split(len(hashes))
    return node_hash(_hash_all(hashes[:k]), _hash_all(hashes[k:]))


def verify_inclusion(
    leaf: bytes, index: int, size: int, path: Sequence[bytes], root: bytes
) -> None:
    """RFC 9162 2.1.3.2: raise ProofError unless `path` proves leaf `index` (from 0) of a
    tree of `size` leaves with `root`."""
    if not 0 <= index < size:
        raise ProofError(f"leaf index {index} is not below the tree size {size}")
    fn, sn, r = index, size - 1, leaf_hash(leaf)
    for p in path:
        if sn == 0:
            raise ProofError("the inclusion proof is longer than the tree is deep")
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError("the inclusion proof is shorter than the tree is deep")
    if r != root:
        raise ProofError("the inclusion proof leads to another root")


def verify_consistency(
    first: int, second: int, proof: Sequence[bytes], first_root: bytes, second_root: bytes
) -> None:
    """RFC 9162 2.1.4.2: raise ProofError unless `proof` shows the tree of `first` leaves
    with `first_root` is the prefix of the tree of `second` leaves with `second_root`."""
    if not 0 < first <= second:
        raise ProofError(f"no consistency between trees of {first} and {second} leaves")
    if first == second:
        if proof:
            raise ProofError("a proof between equal sizes must be empty")
        if first_root != second_root:
            raise ProofError("two tree heads of one size with different roots")
        return
    if not proof:
        raise ProofError("the consistency proof is empty")
    path = list(proof)
    if first & (first - 1) == 0:  # a power of two: the first root is the first node
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise ProofError("the consistency proof is longer than the tree is deep")
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError("the consistency proof is shorter than the tree is deep")
    if fr != first_root:
        raise ProofError("the consistency proof does not lead to the earlier root")
    if sr != second_root:
        raise ProofError("the consistency proof does not lead to the later root")


def extend(frontier: list[tuple[int, bytes]], hashes: Sequence[bytes]) -> list[tuple[int, bytes]]:
    """The compact range of a tree after appending leaf hashes: its complete subtrees as
    (width, hash), widest first (what a witness keeps instead of every leaf)."""
    out = list(frontier)
    for h in hashes:
        out.append((1, h))
        while len(out) > 1 and out[-1][0] == out[-2][0]:
            (w, left), (_, right) = out[-2], out[-1]
            out[-2:] = [(2 * w, node_hash(left, right))]
    return out


def frontier_root(frontier: Sequence[tuple[int, bytes]]) -> bytes:
    """MTH of the tree a compact range covers (RFC 9162 splits at the widest subtree)."""
    if not frontier:
        return hashlib.sha256(b"").digest()
    root = frontier[-1][1]
    for _, h in reversed(frontier[:-1]):
        root = node_hash(h, root)
    return root
