"""Fixtures for the HTTP tests: the checked test client and a real browser."""

import pytest

from tests.api.browser import chromium
from tests.api.openapi_check import CheckedClient


@pytest.fixture
def api(client) -> CheckedClient:
    """The Flask test client, with every answer checked against openapi.yaml."""
    return CheckedClient(client)


@pytest.fixture
def browser(tmp_path):
    """Debian's Chromium, headless, under Selenium (skipped where Chromium is not installed)."""
    yield from chromium(tmp_path)
