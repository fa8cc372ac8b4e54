"""Fixtures for the HTTP tests: the checked test client and a real browser."""

import pytest

from tests.api.browser import chromium, fresh_tab
from tests.api.openapi_check import CheckedClient
from tests.background import SERVED


@pytest.fixture
def api(client) -> CheckedClient:
    """The Flask test client, with every answer checked against openapi.yaml."""
    return CheckedClient(client)


@pytest.fixture
def browser(tmp_path):
    """Debian's Chromium, headless, under Selenium (skipped where Chromium is not installed)."""
    yield from chromium(tmp_path)


@pytest.fixture(scope="module")
def module_browser(tmp_path_factory):
    """One Chromium for every test of a module that asks for `shared_browser`."""
    yield from chromium(tmp_path_factory.mktemp("chromium"))


@pytest.fixture
def shared_browser(module_browser):
    """The module's Chromium (saves a browser start per test), left as new after the test
    (tests/api/browser.py `fresh_tab`): a blank tab, nothing kept for any server's origin,
    the first window size."""
    yield module_browser
    fresh_tab(module_browser, SERVED)
