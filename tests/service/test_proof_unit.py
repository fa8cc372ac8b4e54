"""Proof that an export is the service's (service.proof, service.receipts) on in-memory
ports (tests/support/memory_boot.py) and a key directory of the test's own: an export is
signed and verifies, a changed one does not, and a finished game's receipt is signed."""

from __future__ import annotations

import copy

import pytest

from events import receipts as receipt_checks
from service import config, game_queries, leaving, proof, receipts, tables
from service.bootstrap import Bootstrap
from tests.service.tables_setup import ANN, BOB, CY, table
from tests.support.memory_boot import memory_boot


@pytest.fixture
def boot(tmp_path) -> Bootstrap:
    return memory_boot(config={**config.DEFAULTS, "SIGNING_KEY_DIR": str(tmp_path)})


def finished(boot: Bootstrap) -> str:
    """A game of three created as the API does, aborted by its creator: finished, so
    public to everyone."""
    rec, _ = table(boot)
    for player in (BOB, CY):
        tables.join(boot, rec.game_id, player, None)
    leaving.abort(boot, rec.game_id, ANN["id"])
    return rec.game_id


def failed(report: dict) -> dict[str, str | None]:
    return {c["name"]: c["code"] for c in report["checks"] if not c["ok"]}


def test_an_export_is_signed_by_a_published_key_and_verifies(boot):
    bundle = game_queries.export(boot, finished(boot), None)
    keys = {k["kid"] for k in proof.published(boot)["keys"]}
    assert bundle["signature"] and keys
    report = proof.verify(boot, bundle)
    assert report["ok"], failed(report)
    assert report["signed_by"] in keys
    assert proof.STORED in {c["name"] for c in report["checks"]}


def test_the_same_finished_game_exports_the_same_signature(boot):
    game_id = finished(boot)
    first = game_queries.export(boot, game_id, None)
    assert game_queries.export(boot, game_id, None)["signature"] == first["signature"]


def test_an_export_changed_after_signing_does_not_verify(boot):
    bundle = game_queries.export(boot, finished(boot), None)
    tampered = copy.deepcopy(bundle)
    tampered["events"][0]["data"]["players"] = 4  # a seat added to the game as created
    report = proof.verify(boot, tampered)
    assert not report["ok"] and failed(report)["hash chain"] == "hash_mismatch"
    cut = copy.deepcopy(bundle)
    cut["events"] = cut["events"][:-1]  # its end left out
    report = proof.verify(boot, cut)
    assert not report["ok"] and failed(report)["signed by the service"] == "not_signed"
    assert failed(report)[proof.STORED] == "count_differs"


def test_an_export_signed_by_a_key_the_server_does_not_publish_does_not_verify(boot, tmp_path):
    bundle = game_queries.export(boot, finished(boot), None)
    other = memory_boot(config={**config.DEFAULTS, "SIGNING_KEY_DIR": str(tmp_path / "other")})
    report = proof.verify(other, bundle)
    assert not report["ok"] and report["signed_by"] is None


def test_a_finished_games_receipt_promises_its_end_under_a_published_key(boot):
    game_id = finished(boot)
    kept = receipts.kept(boot, game_id)
    assert kept is not None and kept["game"] == game_id
    events = boot.store.read(game_id, 0)
    trusted = proof.keyring(boot).public()
    ok, why = receipt_checks.check_promise(events, kept["promise"], trusted)
    assert ok, why
    rewritten = copy.deepcopy(events)
    rewritten[-1]["data"]["result"] = {"rewritten": True}
    assert not receipt_checks.check_promise(rewritten, kept["promise"], trusted)[0]


def test_a_game_in_play_has_no_receipt(boot):
    game_id = table(boot)[0].game_id
    assert receipts.kept(boot, game_id) is None
