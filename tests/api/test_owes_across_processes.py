"""An `owes` frame in an API process that did not make the append: the record at that
version is the one the process holds, folded through the entries its streams received
(no load of the game), and the frames are those a load gives."""

from __future__ import annotations

import random

import orjson
import redis

from cli.compose import create_app
from events import keys
from events.fold import fold_all
from events.record import Record
from service import game_log
from service.game_stream import GameStream
from service.owes_frame import owes_data
from tests.api.helpers import bearer, by_seat, new_game, new_players
from tests.conftest import TEST_CONFIG


def _frames(stream: GameStream, r: redis.Redis, after: str) -> tuple[list, str]:
    entries = r.xrange(keys.game_events(stream.game_id), f"({after}", "+")
    frames = []
    for entry_id, fields in entries:
        frames += stream.entry(entry_id.decode(), fields)[0]
    return frames, entries[-1][0].decode() if entries else after


def test_an_owes_frame_elsewhere_folds_the_streams_entries_instead_of_loading(redis_url, r):
    cfg = {**TEST_CONFIG, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url}
    here, there = create_app(cfg), create_app(cfg)  # two API processes' repositories
    client, rnd = here.test_client(), random.Random(3)
    players = new_players(client, 3)
    gid = new_game(client, players)
    seats = by_seat(client, gid, players)
    boot = there.extensions["marketfold"]
    with there.app_context():
        streams = {s: GameStream(boot, gid, p["id"], 0) for s, p in seats.items()}
    loads = []
    original = boot.store.load

    def counted(*args, **kwargs):
        loads.append(args)
        return original(*args, **kwargs)

    boot.store.load = counted
    after, said = "0-0", []
    for _ in range(12):
        assert _move(client, gid, seats, rnd).status_code == 201
        start = after
        for s, stream in streams.items():
            frames, after = _frames(stream, r, start)
            said += [(s, f.data) for f in frames if f.event == "owes"]
    assert said and not loads  # every owes frame without a load of the game
    held = boot.store.held(gid)[0].record
    assert held.version == r.xlen(keys.game_events(gid))  # and it holds the newest record
    # each frame is the one the record folded from the stored log says
    for seat, data in said:
        frame = orjson.loads(data)
        version = frame["version"]
        rec = fold_all(Record(gid), boot.store.read(gid, 0, version))
        assert frame == orjson.loads(orjson.dumps(owes_data(rec, seat, game_log.owed(rec))))
    assert len(said) > 5 and any(frame_actions(data) for _, data in said)


def _move(client, gid: str, seats: dict, rnd: random.Random):
    """The seat that owes first plays one of its listed choices; return the answer."""
    seat = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
    legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[seat])).get_json()
    action = rnd.choice([c for a in legal["actions"] for c in a["choices"] or []])
    return client.post(f"/v1/games/{gid}/actions", json=action, headers=bearer(seats[seat]))


def frame_actions(data: str) -> list:
    return orjson.loads(data)["actions"]


def test_an_owes_frame_of_a_seat_that_owes_nothing_needs_no_record(redis_url, r):
    """The append stores who owes what beside its last event: a seat that owes nothing
    after it is told so from that, in a process that holds no record of the game."""
    cfg = {**TEST_CONFIG, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url}
    here, there = create_app(cfg), create_app(cfg)
    client, rnd = here.test_client(), random.Random(5)
    players = new_players(client, 3)
    gid = new_game(client, players)
    seats = by_seat(client, gid, players)
    boot = there.extensions["marketfold"]
    with there.app_context():  # one seat's stream: the others' frames are not made here
        streams = {0: GameStream(boot, gid, seats[0]["id"], 0)}
    boot.store.held = lambda game_id: None  # this process holds nothing
    loads = []
    original = boot.store.load
    boot.store.load = lambda *a, **k: loads.append(a) or original(*a, **k)
    after, said = "0-0", []
    for _ in range(12):
        _move(client, gid, seats, rnd)
        start = after
        for s, stream in streams.items():
            frames, after = _frames(stream, r, start)
            said += [(s, orjson.loads(f.data)) for f in frames if f.event == "owes"]
    idle = [(s, frame) for s, frame in said if not frame["owes"]]
    owing = [(s, frame) for s, frame in said if frame["owes"]]
    assert idle and owing
    assert len(loads) == len(owing)  # a load for each frame with legal actions, none else
    for seat, frame in said:  # each as the record folded from the stored log says
        rec = fold_all(Record(gid), boot.store.read(gid, 0, frame["version"]))
        assert frame == orjson.loads(orjson.dumps(owes_data(rec, seat, game_log.owed(rec))))
