"""The `table` frames of a stream opened with `?with=table` (service.table_frames) on
in-memory ports (the unit tier): the table follows the opening `owes` frame and each
append's last event, at the game's new version, as the caller's seat may see it; every
stream of one seat shares one frame per version and language."""

from __future__ import annotations

import random

from service import game_commands
from service.table_frames import TABLE, Table
from tests.service.streams_setup import data, game
from tests.service.tables_setup import ANN, BOB, CY, started
from tests.service.test_use_cases_unit import turn


class Presented:
    """How the API presents a table (api.present.table), counting what it was asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, int | None]] = []

    def __call__(self, rec, seat):
        self.asked.append((rec.version, seat))
        return {"game": {"id": rec.game_id, "you": seat}, "legal": None}


def tables(frames):
    return [data(f) for f in frames if f.event == TABLE]


def test_a_stream_that_asked_for_the_table_gets_it_after_each_append(boot):
    rec = started(boot)
    present = Presented()
    mine = game(boot, rec.game_id, BOB["id"], rec.version, table=Table(present, "en"))
    plain = game(boot, rec.game_id, CY["id"], rec.version)  # asked for none
    assert [f.event for f in mine.frames][-2:] == ["owes", TABLE]
    (opening,) = tables(mine.frames)
    assert opening == {
        "type": TABLE,
        "version": rec.version,
        "game": {"id": rec.game_id, "you": rec.seat_of(BOB["id"])},
        "legal": None,
    }
    rnd, moves = random.Random(1), iter(range(100))

    def move() -> None:
        player, action = turn(boot.store.load(rec.game_id).record, rnd)
        game_commands.act(boot, rec.game_id, player, action, f"t{next(moves)}", None)

    for _ in range(2):
        move()
        now = boot.store.load(rec.game_id).record
        sent = mine.more()
        assert [t["version"] for t in tables(sent)] == [now.version]  # one per append
        assert sent[-1].event == TABLE  # after the append's last event
    move(), move()  # two appends before the stream looks:
    assert [t["version"] for t in tables(mine.more())] == [  # the game as it stands now
        boot.store.load(rec.game_id).record.version
    ]
    assert tables(plain.frames + plain.more()) == []


def test_every_stream_of_a_seat_shares_one_table_frame_per_version_and_language(boot):
    rec = started(boot)
    present = Presented()
    english, french = Table(present, "en"), Table(present, "fr")
    viewers = (ANN["id"], ANN["id"], None)
    streams = [game(boot, rec.game_id, who, rec.version, table=english) for who in viewers]
    game(boot, rec.game_id, ANN["id"], rec.version, table=french)
    seat = rec.seat_of(ANN["id"])
    assert sorted(present.asked, key=str) == sorted(
        [(rec.version, seat), (rec.version, None), (rec.version, seat)], key=str
    )  # Ann's in English once (two streams), a spectator's, Ann's in French
    first, second, spectator = (s.frames[-1] for s in streams)
    assert first is second and first is not spectator
