"""Stream entries: envelopes stored compressed with a preset dictionary, older deflated
and plain JSON entries still read, the hash chain unchanged by the storage form."""

import json
import random
import zlib

from events import codec, envelope
from games.base import Event


def sample(n: int) -> list[dict]:
    rnd = random.Random(n)
    events = [
        Event("goblin-market.BidPlaced", {"seat": rnd.randrange(4), "amount": rnd.randrange(9)})
        for _ in range(n)
    ]
    return codec.seal(envelope.build(events, 0, 1, "cause-1", codec.now_iso()), codec.GENESIS)


def test_an_envelope_round_trips_and_is_stored_in_under_half_its_json():
    envelopes = sample(20)
    stored = [codec.dumps(e) for e in envelopes]
    assert [codec.loads(b) for b in stored] == envelopes
    plain = sum(len(codec.canonical(e).encode()) for e in envelopes)
    assert sum(map(len, stored)) < plain / 2


def test_entries_written_as_plain_json_still_read_and_keep_their_hashes():
    for env in sample(3):
        raw = codec.canonical(env).encode()
        assert codec.loads(raw) == env == codec.loads(raw.decode())
        assert codec.chain_hash(codec.loads(codec.dumps(env))) == env["hash"]
        assert json.loads(raw) == env


def test_entries_deflated_before_zstd_still_read():
    """Entries written as raw deflate with the same dictionary (byte 1), with the window
    and memory levels used then."""
    zdict = codec._dictionary()
    for env in sample(5):
        for wbits, mem in ((15, 9), (15, 8), (13, 5)):
            c = zlib.compressobj(6, zlib.DEFLATED, -wbits, mem, zlib.Z_DEFAULT_STRATEGY, zdict)
            raw = codec.DEFLATE + c.compress(codec.canonical(env).encode()) + c.flush()
            assert codec.loads(raw) == env


def test_new_entries_are_zstd_with_the_dictionary():
    env = sample(1)[0]
    stored = codec.dumps(env)
    assert stored[:1] == codec.ZSTD and codec.loads(stored) == env


def test_an_envelope_only_pythons_json_reads_still_loads():
    """orjson decodes envelopes; what it refuses but Python's encoder writes (an integer
    past 64 bits, NaN) is read by Python's decoder, as before."""
    env = {"seq": 1, "data": {"big": 2**70, "x": float("nan")}, "type": "t"}
    back = codec.loads(codec.dumps(env))
    assert back["data"]["big"] == 2**70 and back["data"]["x"] != back["data"]["x"]
    plain = {"seq": 2, "data": {"n": -(2**63), "f": 0.1, "s": "é\u2028"}, "type": "t"}
    assert codec.loads(codec.dumps(plain)) == plain
