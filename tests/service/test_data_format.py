"""A build marks a new store with its data format and refuses a store a newer build
marked (docs/operations.md, "Upgrades")."""

from __future__ import annotations

import pytest

from cli.compose import create_app, run_worker
from events import keys
from service.data_format import FORMAT, NewerData
from tests.conftest import TEST_CONFIG


def test_a_new_store_is_marked_and_a_newer_one_refused(redis_url, r):
    config = {**TEST_CONFIG, "REDIS_URL": redis_url}
    create_app(config)
    assert int(r.get(keys.data_format())) == FORMAT
    create_app(config)  # the same format again: fine
    r.set(keys.data_format(), FORMAT + 1)
    with pytest.raises(NewerData, match=f"format {FORMAT + 1}.*up to {FORMAT}"):
        create_app(config)
    from cli.compose import connect, settings

    with pytest.raises(NewerData):
        run_worker(burst=True, deps=connect(settings(config)))
