"""The draw algorithm matches the test vectors published in docs/fairness.md."""

import hashlib
import re
from pathlib import Path

from games.rng import Rng, commitment, draw

SEED = bytes(range(32))
DOC = (Path(__file__).resolve().parents[2] / "docs" / "fairness.md").read_text()


def test_draws_match_the_published_vectors():
    assert (
        hex(draw(SEED, 0)) == "0xae3f59313a9bf2cb8b049c66873d65d8b7b0804637458fa37a68495414925cb8"
    )
    assert (
        hex(draw(SEED, 2)) == "0x9f7abcb132ad2dfc6004cb11997c91417b8cb42cd31c32d44daa9f9ba3a4b614"
    )


def test_die_rolls_and_shuffles_match_the_published_vectors():
    rng = Rng(SEED)
    assert [rng.below(6) for _ in range(10)] == [0, 4, 4, 2, 1, 4, 2, 4, 5, 0]
    rng = Rng(SEED)
    assert rng.shuffle(range(10)) == [7, 3, 5, 2, 0, 6, 8, 9, 1, 4]
    assert rng.counter == 9


def test_every_vector_in_the_document_is_checked_here():
    for value in re.findall(r"\b[0-9a-f]{64}\b", DOC):
        assert value in (
            hex(draw(SEED, 0))[2:],
            hex(draw(SEED, 1))[2:],
            hex(draw(SEED, 2))[2:],
            hashlib.sha256(SEED).hexdigest(),
            commitment("g_0123456789ab", SEED),
            SEED.hex(),
        ), value


def test_the_commitment_binds_the_game_id():
    assert (
        commitment("g_0123456789ab", SEED) == hashlib.sha256(b"g_0123456789ab" + SEED).hexdigest()
    )
    assert commitment("g_0123456789ab", SEED) != commitment("g_0123456789ac", SEED)


def test_rejection_sampling_skips_draws_above_the_last_full_multiple():
    rng = Rng(SEED)
    # 2**255 + 1 leaves room for only one multiple: about half of all draws are rejected
    n = 2**255 + 1
    values = [rng.below(n) for _ in range(20)]
    assert rng.counter > 20
    assert all(0 <= v < n for v in values)
