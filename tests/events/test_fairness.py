"""The draw algorithm matches the test vectors published in docs/fairness.md."""

import hashlib
import hmac
import re
from pathlib import Path

from games.rng import Rng, combine, commitment, draw, seat_commitment

SEED = bytes(range(32))
GAME = "g_0123456789ab"
SEAT_0, SEAT_2 = bytes(range(32, 64)), bytes(range(64, 96))  # seat 1 withheld its secret
KEY = combine(SEED, GAME, [SEAT_0.hex(), None, SEAT_2.hex()])
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
            SEAT_0.hex(),
            SEAT_2.hex(),
            seat_commitment(SEAT_0),
            seat_commitment(SEAT_2),
            KEY.hex(),
            hex(draw(KEY, 0))[2:],
        ), value


def test_seats_randomness_matches_the_published_vectors():
    assert seat_commitment(SEAT_0) == (
        "72dbb7336c76780023f83da4c355f2eeea85733b13d3477697917790c1229084"
    )
    assert seat_commitment(SEAT_2) == (
        "ca2a4fe727faaecf16ecd130a86e0885c5540c05375340445071c0657555fd42"
    )
    assert KEY.hex() == "25ac2494e0a1ea962f9788a5fe579931b0470483c6ab223a6cd9adb72b3a410c"
    assert hex(draw(KEY, 0)) == (
        "0xe5fea3a3f5cf56bdd66e37be0c43f15be16de6f1235fd7786455103588ba3b62"
    )
    rng = Rng(KEY)
    assert rng.shuffle(range(10)) == [5, 7, 8, 1, 2, 3, 9, 0, 6, 4] and rng.counter == 9
    assert f"{KEY.hex()}" in DOC and "5, 7, 8, 1, 2, 3, 9, 0, 6, 4 (9 draws used)" in DOC


def test_every_seat_counts_in_the_combined_key_and_no_one_alone_chooses_it():
    lines = "\n".join(["marketfold:seed:2", GAME, SEAT_0.hex(), "", SEAT_2.hex()])
    assert KEY == hmac.new(SEED, lines.encode(), hashlib.sha256).digest()
    others = [
        combine(SEED, GAME, [SEAT_0.hex(), None, None]),  # seat 2 withholding instead
        combine(SEED, GAME, [SEAT_0.hex(), SEAT_2.hex(), None]),  # a reveal moved to seat 1
        combine(SEED, "g_0123456789ac", [SEAT_0.hex(), None, SEAT_2.hex()]),  # another game
        combine(bytes(32), GAME, [SEAT_0.hex(), None, SEAT_2.hex()]),  # another server seed
    ]
    assert len({KEY, SEED, *others}) == 6


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
