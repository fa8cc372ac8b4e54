"""A request's first round trip on in-memory ports (the unit tier): the token's player,
the call's count (against the token, or the address for an unknown token or none) and
the game it names, loaded when the view asks (service.limits.enter)."""

from __future__ import annotations

import json
import time

from service import limits
from stores.memory.limits import MemoryLimits
from tests.service.tables_setup import ANN, table
from tests.support.memory_boot import memory_boot

LIMITS = limits.Limits(token=(5, 60), anon=(2, 60))


def test_a_known_token_is_counted_on_its_own_and_the_game_loaded():
    record = {"id": ANN["id"], "name": ANN["name"], "token_id": "t_1", "used": int(time.time())}
    boot = memory_boot()
    boot.limits = MemoryLimits(boot.store, token_record={"d1": json.dumps(record).encode()}.get)
    rec, _ = table(boot)
    entry = limits.enter(boot, LIMITS, "d1", "10.0.0.1", rec.game_id)
    assert entry.reached and entry.player == {**ANN, "token_id": "t_1"}
    assert (entry.count.limit, entry.count.calls) == ((5, 60), 1)
    assert entry.game().record.version == rec.version


def test_an_unknown_token_and_no_token_are_counted_against_the_address():
    boot = memory_boot()
    first = limits.enter(boot, LIMITS, "unknown", "10.0.0.2", None)
    second = limits.enter(boot, LIMITS, None, "10.0.0.2", None, quick=True)
    third = limits.enter(boot, LIMITS, None, "10.0.0.2", None)
    assert first.player is None and first.game is None
    assert [e.count.calls for e in (first, second, third)] == [1, 2, 3]
    assert third.count.over and third.count.limit == (2, 60)
