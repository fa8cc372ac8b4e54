"""The recipients port's contract, on Redis and in memory (stores/recipients.py): one
look at a player gives their settings, read marks, newest notes and a delivery's mark and
attempts as the other ports keep them; on Redis, the channels' own reads ride along."""

import json

import pytest

from events import keys, notify_keys
from events.recording import Writes
from stores.inbox import SCAN, RedisInbox
from stores.memory.inbox import MemoryInbox
from stores.memory.notify_outbox import MemoryNotifyOutbox
from stores.memory.notify_prefs import MemoryNotifyPrefs
from stores.memory.recipients import MemoryRecipients
from stores.notify_outbox import RedisNotifyOutbox
from stores.notify_prefs import RedisNotifyPrefs
from stores.recipients import RedisRecipients


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def ports(request):
    """(recipients, inbox, prefs, outbox)."""
    if request.param == "memory":
        inbox, prefs, outbox = MemoryInbox(), MemoryNotifyPrefs(), MemoryNotifyOutbox()
        return MemoryRecipients(inbox, prefs, outbox), inbox, prefs, outbox
    r = request.getfixturevalue("r")
    return RedisRecipients(r), RedisInbox(r), RedisNotifyPrefs(r), RedisNotifyOutbox(r)


def write_notes(inbox, player, count):
    writes = Writes()
    for i in range(count):
        text = json.dumps({"id": f"n{i}", "type": "your_turn"})
        writes.xadd(keys.player_feed(player), {"n": text}, maxlen=1000)
    inbox.write(writes)


def test_a_player_never_seen_looks_empty(ports):
    recipients = ports[0]
    got = recipients.look("p1", 0, {})
    assert (got.settings, got.seen, got.read, got.live, got.newest) == (
        None,
        "0-0",
        set(),
        False,
        [],
    )
    assert (got.ended, got.tried) == (None, 0)


def test_the_look_sees_what_the_other_ports_keep(ports):
    recipients, inbox, prefs, outbox = ports
    prefs.keep("p1", {"lang": "es"})
    write_notes(inbox, "p1", SCAN + 3)
    inbox.mark_read("p1", "n2")
    delivery = ("n5", "email", "t1", "email-t1-p1")
    outbox.attempted(delivery, 60, None, None)
    got = recipients.look("p1", 0, {}, delivery)
    assert got.settings == {"lang": "es"}
    assert got.read == {"n2"}
    assert len(got.newest) == SCAN and got.newest[0][1]["id"] == f"n{SCAN + 2}"
    assert (got.ended, got.tried) == (None, 1)
    outbox.attempted(delivery, 60, "refused", None)
    again = recipients.look("p1", 0, {}, delivery)
    assert (again.ended, again.tried) == ("refused", 2)


@pytest.mark.process
def test_on_redis_the_channels_reads_and_open_streams_ride_along(r):
    r.hset(notify_keys.player_push("p1"), "ps_1", "{}")
    r.zadd(keys.open_streams("player:p1"), {"s1": 5_000})
    reads = {"push": lambda pipe, player: pipe.hgetall(notify_keys.player_push(player))}
    got = RedisRecipients(r).look("p1", 4_000, reads)
    assert got.stored == {"push": {b"ps_1": b"{}"}} and got.live
    assert not RedisRecipients(r).look("p1", 6_000, reads).live  # the stream stopped counting


def test_in_memory_the_channels_ask_their_own_ports_and_live_is_asked_of_the_slots():
    inbox, prefs, outbox = MemoryInbox(), MemoryNotifyPrefs(), MemoryNotifyOutbox()
    recipients = MemoryRecipients(inbox, prefs, outbox, live=lambda caller, now: now < 5_000)
    reads = {"push": lambda pipe, player: None}
    assert recipients.look("p1", 4_000, reads).stored == {"push": None}
    assert recipients.look("p1", 4_000, reads).live
    assert not recipients.look("p1", 6_000, reads).live
