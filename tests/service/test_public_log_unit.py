"""The public log's use cases over every stored game (service.transparency) and the
lobby's backfill check, on in-memory ports (the unit tier): the sweep logs what a game's
log calls for and the public log lacks, once; a receipt proves a game's leaves; a log cut
back is an alarm and no leaf is logged twice."""

from __future__ import annotations

import json

import pytest

from events import merkle
from events.memory_tlog import MemoryPublicLog
from service import backfill, config, transparency
from service.bootstrap import Bootstrap
from service.errors import Invalid, NotFound
from tests.service.test_use_cases_unit import seated
from tests.support.memory_boot import memory_boot


@pytest.fixture
def boot(tmp_path) -> Bootstrap:
    cfg = {**config.DEFAULTS, "SIGNING_KEY_DIR": str(tmp_path / "keys")}
    return memory_boot(config=cfg)


def started(boot: Bootstrap) -> str:
    """A started game, stored (in the index of every game) and logged by its appends."""
    game_id = seated(boot, ["ann", "bob", "cy"]).game_id
    boot.lobby.register(game_id, 1.0)
    return game_id


def test_a_games_appends_log_its_leaves_and_the_sweep_adds_none(boot):
    game_id = started(boot)
    assert boot.tlog.indexes([f"{game_id}:created", f"{game_id}:started"]) == [0, 1]
    assert transparency.sweep(boot) == 0
    assert boot.tlog.size() == 2


def test_the_sweep_logs_what_a_stored_game_calls_for_once(boot):
    started(boot)
    boot.tlog = MemoryPublicLog()  # the log lacks them (written before it existed)
    assert transparency.sweep(boot) == 2
    texts = [json.loads(t) for t in boot.tlog.texts(0, 2)]
    assert [t["kind"] for t in texts] == ["created", "started"]
    assert transparency.sweep(boot) == 0  # logged once


def test_a_receipt_proves_each_leaf_of_a_game_in_a_signed_head(boot):
    game_id = started(boot)
    got = transparency.receipt(boot, game_id)
    head = got["tree_head"]
    assert head["size"] == 3  # the game's two leaves, and the signing key's leaf
    assert [item["index"] for item in got["leaves"]] == [0, 1]
    for item in got["leaves"]:
        path = [bytes.fromhex(p) for p in item["path"]]
        root = bytes.fromhex(head["root"])
        merkle.verify_inclusion(item["leaf"].encode(), item["index"], head["size"], path, root)
    assert transparency.head(boot) == head  # the same head until a leaf is appended
    with pytest.raises(NotFound) as err:
        transparency.receipt(boot, "g_none")
    assert err.value.code == "game_not_found"


def test_consistency_and_leaves_are_read_within_the_log(boot):
    started(boot)
    assert transparency.leaves(boot, 1, None) == {
        "size": 2,
        "leaves": [{"index": 1, "leaf": boot.tlog.texts(1, 2)[0]}],
    }
    assert transparency.consistency(boot, 1, 2)["path"]
    with pytest.raises(Invalid) as err:
        transparency.consistency(boot, 1, 3)
    assert err.value.code == "invalid_query" and "second" in err.value.errors


def test_an_index_naming_leaves_past_the_logs_end_raises_an_alarm_once(boot):
    game_id = started(boot)
    boot.tlog.restore("g_cut:created", 7)  # the log was cut back under its index
    assert transparency.sweep(boot) == 0
    assert boot.tlog.alarms() == 1 and boot.tlog.alarmed(["g_cut:created"]) == [True]
    assert boot.tlog.indexes(["g_cut:created", f"{game_id}:created"]) == [None, 0]


def test_a_bundle_that_disagrees_with_the_log_is_named(boot):
    game_id = started(boot)
    leaf = boot.tlog.texts(0, 1)[0]
    bundle = {"game": {"id": game_id}, "transparency": {"leaves": [{"index": 0, "leaf": leaf}]}}
    assert transparency.compare(boot, bundle) is None
    bundle["transparency"]["leaves"][0]["index"] = 5
    assert "leaf 0" in transparency.compare(boot, bundle)


def test_the_backfill_runs_only_when_a_stored_game_has_no_lobby_summary(boot):
    started(boot)  # its appends kept its lobby summary
    assert not backfill.missing(boot)
    assert backfill.run(boot) == 0
    boot.lobby.register("g_before_the_lobby", 2.0)  # stored before summaries were kept
    assert backfill.missing(boot)
