"""The stream hub's contract (stores.hub), run on Redis and in memory alike: a subscriber
is handed every entry after its place, in order, once, with the fields the writers
stored (a game's events with `o` beside an append's last, its private steps, its chat, a
player's feed); a resume from an earlier id gets the gap, then the live ones; nothing
after an unsubscribe; [] after a timeout with nothing new; two subscriptions sharing
one `news` event wake each other. The writers are the recorder, the chat and the inbox
(their twins in memory), so the twin is shown to read what Redis would hold."""

from __future__ import annotations

import json
import time
from typing import Any, NamedTuple

import pytest

from events import codec, keys
from events.memory_recorder import MemoryRecorder
from events.recorder import RedisRecorder
from events.recording import Append, Log, Writes
from service.bootstrap import client
from stores.chat import RedisChat
from stores.hub import RedisHub
from stores.inbox import RedisInbox
from stores.memory.chat import MemoryChat
from stores.memory.hub import MemoryHub
from stores.memory.inbox import MemoryInbox
from tests.events.recorders import envelopes

GAME = "g1"
EVENTS, PRIVATE, CHAT = keys.game_events(GAME), keys.game_private(GAME), keys.game_chat(GAME)


class Place(NamedTuple):
    hub: Any
    recorder: Any
    chat: Any
    inbox: Any


# the Redis one is marked `process`, so only the in-memory one is in the unit tier
@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def place(request):
    if request.param == "memory":
        recorder, chat = MemoryRecorder(), MemoryChat()
        inbox = MemoryInbox(follow=recorder.writes)
        return Place(MemoryHub(recorder.stream, chat.stream, inbox.stream), recorder, chat, inbox)
    r, url = request.getfixturevalue("r"), request.getfixturevalue("redis_url")
    hub = RedisHub(client(url, blocking=False, socket_timeout=5, max_connections=100), 0.2)
    return Place(hub, RedisRecorder(r), RedisChat(r), RedisInbox(r))


def append(place: Place, start: int, n: int, owed: str = "", then: Writes | None = None):
    """Append events `start`..`start + n - 1` to the game's log."""
    envs = envelopes(start, n)
    request = Append(Log.game(GAME), envs, expected=start - 1, owed=owed, then=then)
    place.recorder.append(request)
    return [codec.dumps(e) for e in envs]


def took(place: Place, sub: Any, gap: list, want: int) -> list:
    """The gap and what `take` hands `sub` until `want` entries came (5 s at most)."""
    got, ends = list(gap), time.monotonic() + 5
    while len(got) < want and time.monotonic() < ends:
        more = place.hub.take(sub, 0.5)
        assert more is not None, "the stream cannot be read"
        got += more
    return got


def test_a_subscriber_gets_the_entries_after_its_place_in_order_with_their_fields(place):
    first = append(place, 1, 2, owed='[{"seat": 0}]')
    sub, gap = place.hub.subscribe(EVENTS, "1-0")
    later = append(place, 3, 2, owed='[{"seat": 1}]')
    assert took(place, sub, gap, 3) == [
        (b"2-0", {b"e": first[1], b"o": b'[{"seat": 0}]'}),  # `o`: beside an append's last
        (b"3-0", {b"e": later[0]}),
        (b"4-0", {b"e": later[1], b"o": b'[{"seat": 1}]'}),
    ]
    assert place.hub.take(sub, 0.3) == []  # each once
    place.hub.unsubscribe(EVENTS, sub)


def test_a_resume_from_an_earlier_id_gets_the_gap_then_the_live_ones_once(place):
    ahead, gap = place.hub.subscribe(EVENTS, "0-0")
    append(place, 1, 3)
    assert [i for i, _ in took(place, ahead, gap, 3)] == [b"1-0", b"2-0", b"3-0"]
    behind, gap = place.hub.subscribe(EVENTS, "1-0")  # a resume with Last-Event-ID 1
    assert [i for i, _ in took(place, behind, gap, 2)] == [b"2-0", b"3-0"]
    append(place, 4, 1)
    assert [i for i, _ in took(place, ahead, [], 1)] == [b"4-0"]
    assert [i for i, _ in took(place, behind, [], 1)] == [b"4-0"]  # nothing of its gap again
    assert place.hub.take(ahead, 0.3) == [] and place.hub.take(behind, 0) == []
    place.hub.unsubscribe(EVENTS, ahead)
    place.hub.unsubscribe(EVENTS, behind)


def test_an_unsubscribed_subscription_is_handed_nothing_more(place):
    sub, gap = place.hub.subscribe(EVENTS, "0-0")
    append(place, 1, 1)
    assert len(took(place, sub, gap, 1)) == 1
    place.hub.unsubscribe(EVENTS, sub)
    append(place, 2, 1)
    assert place.hub.take(sub, 0.5) == []


def test_a_take_with_nothing_new_answers_an_empty_list_when_its_timeout_ends(place):
    append(place, 1, 1)
    sub, gap = place.hub.subscribe(EVENTS, "1-0")
    started = time.monotonic()
    assert gap == [] and place.hub.take(sub, 0.3) == []
    assert time.monotonic() - started >= 0.25  # it waited
    assert place.hub.take(sub, 0) == []
    sub.news.set()  # woken from outside (a shutdown): at once, nothing
    started = time.monotonic()
    assert place.hub.take(sub, 5) == [] and time.monotonic() - started < 1
    place.hub.unsubscribe(EVENTS, sub)


def test_a_stream_followed_beside_another_wakes_its_loop_and_hands_its_own_entries(place):
    """A game stream follows the chat (and a private log) beside the log, on one event."""
    log, _ = place.hub.subscribe(EVENTS, "0-0")
    chat, gap = place.hub.subscribe(CHAT, "0-0", news=log.news)
    assert chat.news is log.news and gap == []
    said = {"player": "p_1", "text": "hi"}
    mid = place.chat.post(GAME, "p_1", said, (5, 10_000), 100)
    started = time.monotonic()
    assert place.hub.take(log, 5) == []  # woken by the chat: nothing of its own
    assert time.monotonic() - started < 2
    assert took(place, chat, [], 1) == [(mid.encode(), {b"m": json.dumps(said).encode()})]
    place.hub.unsubscribe(EVENTS, log)
    place.hub.unsubscribe(CHAT, chat)


def test_private_steps_and_feed_notes_written_with_an_append_reach_their_subscribers(place):
    feed = keys.player_feed("p_1")
    steps, gap = place.hub.subscribe(PRIVATE, "0-0")
    notes, gap_notes = place.hub.subscribe(feed, "0-0")
    step = {**envelopes(2, 1)[0], "private": 1}
    then = Writes()
    then.xadd(feed, {"n": '{"type": "turn"}'}, maxlen=100)
    envs = envelopes(1, 1)
    place.recorder.append(Append(Log.game(GAME), [*envs, step], expected=0, then=then))
    assert took(place, steps, gap, 1) == [(b"1-0", {b"e": codec.dumps(step)})]
    (note,) = took(place, notes, gap_notes, 1)
    assert note[1] == {b"n": b'{"type": "turn"}'}
    outside = Writes()  # a note written outside an append (InboxStore.write)
    outside.xadd(feed, {"n": '{"type": "other"}'}, maxlen=100)
    place.inbox.write(outside)
    assert [f for _, f in took(place, notes, [], 1)] == [{b"n": b'{"type": "other"}'}]
    place.hub.unsubscribe(PRIVATE, steps)
    place.hub.unsubscribe(feed, notes)
