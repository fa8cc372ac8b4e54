"""The service's unit tests run on in-memory ports: `boot` is the whole service built on
the twins (tests/support/memory_boot.py); a module that needs other settings or a fixed
deal defines its own."""

from __future__ import annotations

import pytest

from service.bootstrap import Bootstrap
from tests.support.memory_boot import memory_boot


@pytest.fixture
def boot() -> Bootstrap:
    return memory_boot()
