"""Snapshots are data-only JSON: exact round trips for every ruleset; pickle is never loaded."""

import json
import os
import pickle
from dataclasses import replace

import pytest

import games
from events import keys, snapshot
from events.fold import fold_all
from events.record import ACTIVE, Record, Seat
from tests.events.snapshot_helpers import full_fold, played
from tests.games.playout import playout


def record_of(game, run, options, version):
    """A record as the fold would hold it around the playout's current state."""
    seats = tuple(Seat(s, f"p{s}", f"Player {s}") for s in range(len(run.order)))
    owed = tuple((o.key, "2026-01-01T00:00:00.000Z") for o in game.owed(run.state))
    return Record(
        "g1",
        ruleset=game.id,
        rules_version=game.rules_version,
        options=options,
        players=len(run.order),
        decision_timeout_s=60,
        created_at="2026-01-01T00:00:00.000Z",
        seats=seats,
        order=run.order,
        status=ACTIVE,
        state=run.state,
        version=version,
        owed_since=owed,
        league={"id": "l1", "round": 1, "table": 0},
    )


def assert_round_trip(record):
    blob = snapshot.encode(record)
    back = snapshot.decode(blob, record.version)
    assert back == record
    assert snapshot.encode(back) == blob  # same types all the way down (tuples, bools, keys)


@pytest.mark.parametrize("ruleset", sorted(games.REGISTRY))
@pytest.mark.parametrize("seed", [1, 2])
def test_a_snapshot_round_trips_exactly_through_a_random_playout(ruleset, seed):
    game = games.get(ruleset)
    players = game.min_players if seed == 1 else game.max_players
    options = game.normalize_options({}, players)
    checked = []

    def after_each(run):
        if run.decisions % 3 == 0:
            record = record_of(game, run, options, len(run.events))
            assert_round_trip(record)
            checked.append(record.version)

    run = playout(game, players, seed, after_each=after_each)
    final = replace(record_of(game, run, options, len(run.events) + 1), result={"winners": [0]})
    assert_round_trip(final)
    assert len(checked) >= 5


def test_dicts_with_reserved_or_other_keys_round_trip():
    state = {1: (True, 1, 1.5), "__t": "x", (0, 1): [None, {"a": ()}], "__tuple": []}
    record = replace(Record("g1", ruleset="goblin-market", version=3), options=state)
    assert_round_trip(record)


@pytest.mark.parametrize(
    "blob",
    [
        b"garbage",
        b'{"format": 2, "rules_version": 1, "record": {"__t": "os.system", "command": "true"}}',
        b'{"format": 2, "rules_version": 1, "record": {"__t": "subprocess.Popen"}}',
        b'{"format": 2, "rules_version": 1, "record": {"__t": "events.record.Record"}}',
        b"[1, 2]",
    ],
)
def test_bytes_that_are_not_our_snapshot_do_not_decode(blob):
    """Other bytes give None or an error (the store refolds on either), never a record."""
    try:
        decoded = snapshot.decode(blob, 1)
    except (ValueError, KeyError):
        decoded = None
    assert decoded is None


class Boom:
    """Unpickling this runs code: it would leave a file behind."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (os.mkdir, (self.path,))


def test_a_pickled_snapshot_is_never_loaded_and_the_log_is_refolded(
    small_snapshots,
    r,
    tmp_path,
):
    gid = played(small_snapshots)
    store = small_snapshots.extensions["marketfold"].store
    version = int(r.hget(keys.game_snapshot(gid), "version"))
    assert json.loads(r.hget(keys.game_snapshot(gid), "blob"))["format"] == snapshot.FORMAT
    marker = tmp_path / "pwned"
    good = store.load(gid).record
    for payload in (
        pickle.dumps((1, 1, Boom(str(marker))), protocol=5),  # the old format, weaponized
        pickle.dumps((1, good.game.rules_version, good), protocol=5),  # an honest old one
    ):
        r.hset(keys.game_snapshot(gid), mapping={"version": version, "blob": payload})
        store.forget()  # a record the process holds would be read instead of the snapshot
        assert store.load(gid).record == full_fold(store, gid)
        assert not marker.exists()


def test_a_snapshot_of_another_format_rules_or_version_is_ignored(small_snapshots, r):
    gid = played(small_snapshots)
    store = small_snapshots.extensions["marketfold"].store
    version = int(r.hget(keys.game_snapshot(gid), "version"))
    at_snapshot = fold_all(Record(gid), store.read(gid)[:version])
    forged = json.loads(snapshot.encode(replace(at_snapshot, created_at="forged")))
    r.hset(keys.game_snapshot(gid), "blob", json.dumps(forged))
    store.forget()  # a record the process holds would be read instead of the snapshot
    assert store.load(gid).record.created_at == "forged"  # a snapshot of ours is trusted
    for changes in ({"format": 1}, {"rules_version": 999}):
        r.hset(keys.game_snapshot(gid), "blob", json.dumps({**forged, **changes}))
        store.forget()
        assert store.load(gid).record == full_fold(store, gid)
    r.hset(keys.game_snapshot(gid), mapping={"version": version - 1, "blob": json.dumps(forged)})
    store.forget()
    assert store.load(gid).record == full_fold(store, gid)


@pytest.mark.parametrize(
    "options",
    [
        {"edition": "en", "courts": True, "n": 2**63 - 1},
        {"name": "Juego de la Feria ñ ✓", "ratio": 1e-05, "nan": float("nan")},
        {"big": 2**64, "neg": -(2**63) - 1},
    ],
)
def test_a_snapshot_is_pythons_compact_ascii_json(options):
    record = replace(Record("g1", ruleset="goblin-market", version=3), options=options)
    plain = snapshot._Encoder().plain(
        {"format": snapshot.FORMAT, "rules_version": record.game.rules_version, "record": record}
    )
    assert snapshot.encode(record) == json.dumps(plain, separators=(",", ":")).encode()


@pytest.mark.parametrize("ruleset", sorted(games.REGISTRY))
def test_snapshots_of_a_playout_are_pythons_compact_ascii_json(ruleset):
    game = games.get(ruleset)
    options = game.normalize_options({}, game.max_players)
    checked = []

    def after_each(run):
        if run.decisions % 3 != 1:  # every third state (the round trip above takes the others)
            return
        record = record_of(game, run, options, len(run.events))
        doc = {"format": snapshot.FORMAT, "rules_version": game.rules_version, "record": record}
        plain = json.dumps(snapshot._Encoder().plain(doc), separators=(",", ":")).encode()
        assert snapshot.encode(record) == plain
        checked.append(record.version)

    playout(game, game.max_players, 3, after_each=after_each)
    assert len(checked) >= 5
