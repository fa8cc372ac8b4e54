"""Fixtures for the service tests."""

import pytest

from tests.service.openapi_check import CheckedClient


@pytest.fixture
def api(client) -> CheckedClient:
    """The Flask test client, with every answer checked against openapi.yaml."""
    return CheckedClient(client)
