"""Fixtures for the event log tests."""

import pytest

from cli.compose import create_app
from tests.conftest import TEST_CONFIG


@pytest.fixture
def small_snapshots(redis_url):
    """An app that stores a snapshot every 5 events."""
    return create_app(
        {**TEST_CONFIG, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url, "SNAPSHOT_EVERY": 5}
    )
