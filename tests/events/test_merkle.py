"""The transparency log's Merkle tree is RFC 9162's: the same roots and inclusion paths as
pymerkle (a maintained implementation of the RFC's hashing), and proofs that verify as
the RFC's algorithms say, failing on any change."""

import hashlib

import pytest
from pymerkle import InmemoryTree

from events import merkle

SIZES = list(range(1, 70)) + [127, 128, 129, 300]


def leaves(n: int) -> list[bytes]:
    return [f"leaf {i}".encode() for i in range(n)]


def tree_of(n: int) -> tuple[merkle.Tree, list[bytes]]:
    hashes = [merkle.leaf_hash(x) for x in leaves(n)]
    return merkle.Tree(lambda a, b: hashes[a:b]), hashes


def reference(n: int) -> InmemoryTree:
    ref = InmemoryTree(algorithm="sha256")
    for x in leaves(n):
        ref.append_entry(x)
    return ref


@pytest.mark.parametrize("n", SIZES)
def test_roots_and_inclusion_paths_equal_the_reference(n):
    tree, _ = tree_of(n)
    ref = reference(n)
    for size in {1, n // 2 or 1, n}:
        assert tree.root(size) == ref.get_root(size)
    for i in range(0, n, max(1, n // 9)):
        # pymerkle's path starts with the leaf's own hash; the RFC's path is the rest
        assert tree.inclusion(i, n) == ref.prove_inclusion(i + 1, n).path[1:]


def test_the_empty_tree_root_is_the_hash_of_nothing():
    assert merkle.Tree(lambda a, b: []).root(0) == hashlib.sha256(b"").digest()


@pytest.mark.parametrize("n", SIZES)
def test_every_inclusion_proof_verifies_and_fails_when_changed(n):
    tree, _ = tree_of(n)
    data, root = leaves(n), tree.root(n)
    for i in range(n):
        path = tree.inclusion(i, n)
        merkle.verify_inclusion(data[i], i, n, path, root)
        with pytest.raises(merkle.ProofError):
            merkle.verify_inclusion(b"another leaf", i, n, path, root)
        if path:
            with pytest.raises(merkle.ProofError):
                merkle.verify_inclusion(data[i], i, n, path[:-1], root)
        if n > 1:
            with pytest.raises(merkle.ProofError):
                merkle.verify_inclusion(data[i], (i + 1) % n, n, path, root)


@pytest.mark.parametrize("second", [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 64, 65, 100])
def test_consistency_proofs_verify_between_every_pair_and_fail_on_a_rewrite(second):
    tree, hashes = tree_of(second)
    for first in range(1, second + 1):
        proof = tree.consistency(first, second)
        merkle.verify_consistency(first, second, proof, tree.root(first), tree.root(second))
        if first < second:
            rewritten = hashes.copy()  # the log rewrote a leaf both heads cover
            rewritten[first - 1] = merkle.leaf_hash(b"rewritten")
            other = merkle.Tree(lambda a, b: rewritten[a:b])
            with pytest.raises(merkle.ProofError):
                merkle.verify_consistency(
                    first,
                    second,
                    other.consistency(first, second),
                    tree.root(first),
                    other.root(second),
                )


def test_the_tree_keeps_full_subtrees_and_reads_only_the_tail_again():
    hashes = [merkle.leaf_hash(x) for x in leaves(300)]
    reads = []

    def read(a, b):
        reads.append((a, b))
        return hashes[a:b]

    tree = merkle.Tree(read)
    tree.root(300)
    reads.clear()
    tree.root(300)
    assert sum(b - a for a, b in reads) < 64  # the 256-leaf subtree was kept
