"""Open event streams counted against their caller, on in-memory ports (the unit tier):
a caller opens at most its cap, a closed stream frees its place, and a refresh tells a
stream whose token was revoked to end (service.stream_slots)."""

from __future__ import annotations

from service.stream_slots import Slot
from service.tokens import hash_token
from stores.memory.stream_slots import MemoryStreamSlots
from tests.support.memory_boot import memory_boot


def test_a_caller_opens_at_most_its_cap_of_streams():
    boot = memory_boot()
    first, second = Slot(boot, "ip:1.2.3.4", 15), Slot(boot, "ip:1.2.3.4", 15)
    assert first.open(cap=1) and not second.open(cap=1)
    assert Slot(boot, "ip:5.6.7.8", 15).open(cap=1)  # another caller's own cap
    first.close()
    assert second.open(cap=1) and second.refresh()


def test_a_stream_whose_token_was_revoked_ends_at_its_refresh():
    live = {hash_token("tok-live")}
    boot = memory_boot(stream_slots=MemoryStreamSlots(token_exists=live.__contains__))
    kept, revoked = Slot(boot, "player:p1", 15, "tok-live"), Slot(boot, "player:p1", 15, "tok-x")
    assert kept.open(cap=5) and revoked.open(cap=5)
    assert kept.refresh() and not revoked.refresh()
