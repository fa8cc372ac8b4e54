"""What a caller's event stream carries (service.game_stream, service.private_stream,
service.feed_stream), on in-memory ports read through the stream hub's twin (the unit
tier; tests/service/streams_setup.py): a seat sees its own sealed choice and command but
never another seat's, a spectator only public facts; the seat that owes is told so with
its legal actions, the others are not; a resume with Last-Event-ID gets exactly the
frames it missed; a wild trade's private offer reaches its two parties only, a resume
after a step exactly the steps after it; spectators' table chat stays off the seats'
streams; a feed carries its player's own notes only; once the game ends, everything
opens."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from events.record import Record
from service import chat, config, game_commands, game_queries
from service.bootstrap import Bootstrap
from service.game_stream import GameStream
from tests.games.playout import random_action
from tests.service.streams_setup import data, events, feed, game, named
from tests.service.tables_setup import ANN, BOB, CY, started
from tests.service.test_stale_choice_unit import offer_to_bob, wild_trade
from tests.service.test_use_cases_unit import turn
from tests.support.memory_boot import memory_boot

PLAYERS = [ANN["id"], BOB["id"], CY["id"]]
SEALED, OFFER = "black-market.ProductionSealed", "black-market.OfferMade"


@pytest.fixture
def boot(tmp_path) -> Bootstrap:
    return memory_boot(config={**config.DEFAULTS, "SIGNING_KEY_DIR": str(tmp_path)})


def produced(boot: Bootstrap, rec: Record, rnd: random.Random) -> dict[str, list[str]]:
    """Each seat of a Black Market game seals a random production; what each chose."""
    chose = {}
    for seat in rec.seats:
        action = random_action(rec.game.legal(rec.state, seat.seat), rnd)
        game_commands.act(boot, rec.game_id, seat.player, action, f"p{seat.seat}", None)
        chose[seat.player] = action["goods"]
    return chose


def played(boot: Bootstrap, game_id: str, rnd: random.Random, moves: int) -> None:
    """`moves` random legal actions of whoever owes one."""
    for n in range(moves):
        player, action = turn(boot.store.load(game_id).record, rnd)
        game_commands.act(boot, game_id, player, action, f"m{n}", None)


def test_a_seat_sees_its_own_sealed_choice_and_never_anothers_and_a_spectator_none(boot):
    rec = started(boot, "black-market", trade="wild")
    streams = {who: game(boot, rec.game_id, who, rec.version) for who in [*PLAYERS, None]}
    chose = produced(boot, rec, random.Random(3))
    stored = {e["seq"]: e for e in boot.store.read(rec.game_id)}
    for who, stream in streams.items():
        sealed = {e["data"]["seat"]: e for e in events(stream.more()) if e["type"] == SEALED}
        assert sorted(sealed) == [0, 1, 2]  # that each seat sealed is public
        mine = rec.seat_of(who) if who else None
        for seat, shown in sealed.items():
            if seat == mine:  # its own: in full, its command and key too
                assert shown == stored[shown["seq"]]
                assert shown["data"]["goods"] == dict(Counter(chose[who]))
            else:
                assert shown["data"] == {"seat": seat} and shown["redacted"]
                assert shown["cause"] == "hidden" and not {"command", "salt"} & set(shown)


def test_the_seat_that_owes_is_told_so_with_its_legal_actions_and_the_others_are_not(boot):
    rec = started(boot)  # Goblin Market: one seat owes at a time
    streams = {who: game(boot, rec.game_id, who, rec.version) for who in [*PLAYERS, None]}
    owing = rec.seats[rec.owed()[0].seat].player
    for who, stream in streams.items():
        (first,) = named(stream.frames, "owes")
        assert first["version"] == rec.version and first["seat"] == rec.seat_of(who or "")
        assert [o["seat"] for o in first["owed"]] == [rec.owed()[0].seat]  # told to all
        if who == owing:
            assert first["owes"] == first["owed"]
            legal = game_queries.legal(boot, rec.game_id, who)[1]
            assert [a["type"] for a in first["actions"]] == [s.type for s in legal]
        else:
            assert first["owes"] == [] and first["actions"] == []
    played(boot, rec.game_id, random.Random(5), 1)
    after = boot.store.load(rec.game_id).record
    now = after.seats[after.owed()[0].seat].player
    for who, stream in streams.items():
        told = named(stream.more(), "owes")
        if who == now:  # owes now, at the new version, with what it may do
            assert [(o["version"], bool(o["owes"]), bool(o["actions"])) for o in told] == [
                (after.version, True, True)
            ]
        elif who == owing:  # owed, owes nothing now
            assert [(o["owes"], o["actions"]) for o in told] == [([], [])]
        else:
            assert told == []


def test_a_resume_with_last_event_id_gets_exactly_the_frames_it_missed(boot):
    rec = started(boot)
    live = game(boot, rec.game_id, BOB["id"], rec.version)
    played(boot, rec.game_id, random.Random(7), 6)
    live.more()
    sent = [f for f in live.frames if f.id is not None]
    assert len(sent) > 4
    last_seen = int(sent[2].id)  # the connection dropped after the third event
    resumed = game(boot, rec.game_id, BOB["id"], last_seen)
    resumed.more()
    assert [f for f in resumed.frames if f.id is not None] == sent[3:]
    assert resumed.more() == []  # nothing twice


def test_a_private_offer_reaches_its_two_parties_only_and_a_resume_the_steps_after(boot):
    gid = wild_trade(boot)
    v = boot.store.load(gid).record.version
    streams = {who: game(boot, gid, who, v) for who in [*PLAYERS, None]}
    offer_id = offer_to_bob(boot, gid)
    for who, stream in streams.items():
        got = [(f.id, f.event) for f in stream.more()]
        if who in (ANN["id"], BOB["id"]):
            assert got == [(f"{v}.1", OFFER)]  # its seat's first private step, after event v
        else:
            assert got == []  # not a frame, not its number
    shown = data(streams[BOB["id"]].frames[-1])
    assert shown["data"]["id"] == offer_id and shown["cause"] == "hidden"
    assert not {"private", "prev", "hash", "salt", "command"} & set(shown)
    game_commands.act(boot, gid, BOB["id"], {"type": "decline", "offer": offer_id}, "d1", None)
    resumed = game(boot, gid, ANN["id"], v, seen=1)  # Last-Event-ID `<v>.1`
    resumed.more()
    steps = [(f.id, f.event) for f in resumed.frames if f.id is not None]
    assert steps == [(f"{v}.2", "black-market.OfferDeclined")]
    assert streams[CY["id"]].more() == [] and streams[None].more() == []


def test_table_chat_reaches_the_streams_that_may_read_it_and_spectators_talk_apart(boot):
    rec = started(boot)
    streams = {who: game(boot, rec.game_id, who, rec.version) for who in [*PLAYERS, None]}
    chat.post(boot, rec, {"id": "p_dee", "name": "Dee"}, "who wins?")  # a spectator
    chat.post(boot, rec, ANN, "good luck")
    for who, stream in streams.items():
        said = [m["text"] for m in named(stream.more(), "chat")]
        assert said == (["who wins?", "good luck"] if who is None else ["good luck"])


def test_a_feed_carries_its_players_own_turns_and_notes_only(boot):
    rec = started(boot)
    owing = rec.seats[rec.owed()[0].seat].player
    since = {who: boot.inbox.last_id(who) for who in PLAYERS}
    feeds = {who: feed(boot, who) for who in PLAYERS}
    for who, stream in feeds.items():
        (turns,) = named(stream.frames, "turns")
        assert turns["player"] == who
        assert [t["game"] for t in turns["turns"]] == ([rec.game_id] if who == owing else [])
    played(boot, rec.game_id, random.Random(5), 4)
    notes = {who: [data(f) for f in stream.more()] for who, stream in feeds.items()}
    assert any(notes.values())
    for who, got in notes.items():
        assert got == [note for _, note in boot.inbox.since(who, since[who])]
        others = {n["id"] for other, theirs in notes.items() if other != who for n in theirs}
        assert not others & {n["id"] for n in got}


def test_once_the_game_ends_everything_opens(boot):
    rec = started(boot, "black-market", trade="wild")
    produced(boot, rec, random.Random(3))
    cy = game(boot, rec.game_id, CY["id"], rec.version)
    for quitter in (ANN["id"], BOB["id"]):
        game_commands.resign(boot, rec.game_id, quitter)
    sent = cy.more()
    assert cy.ended and [f.event for f in sent][-2:] == ["game.Ended", "receipt"]
    log = boot.store.read(rec.game_id)
    for who in [*PLAYERS, None]:  # from the start: every event as it was logged
        replay = game(boot, rec.game_id, who)
        replay.more()
        assert events(replay.frames) == log and replay.ended
        sealed = [e for e in events(replay.frames) if e["type"] == SEALED]
        assert len(sealed) == 3 and all("goods" in e["data"] for e in sealed)
    assert GameStream(boot, rec.game_id, None, log[-1]["seq"]).finished  # answered 204
    assert not GameStream(boot, rec.game_id, None, log[-2]["seq"]).finished
