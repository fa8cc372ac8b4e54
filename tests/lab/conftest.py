"""One lab (cli.lab: hosts in network namespaces) per test module, and only one at a time
on the machine: a file lock keeps a second pytest-xdist worker (or another run) waiting
rather than starting a second deployment on the same two cores."""

from __future__ import annotations

import fcntl
import tempfile
from pathlib import Path

import pytest

from cli.lab import Lab, why_not

LOCK = Path(tempfile.gettempdir()) / "marketfold-lab-tests.lock"
# the API hosts' and workers' settings under test (tests/conftest.py's, for a live lab)
SETTINGS = {
    "MARKETFOLD_SSE_HEARTBEAT_S": "1",
    "MARKETFOLD_OUTAGE_GRACE_S": "4",  # decisions due just after an outage get 4 s more
    "MARKETFOLD_CLAIM_S": "3",  # a worker cut off loses its claims within the cut
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    reason = why_not()
    if reason:
        pytest.skip(f"the lab (network namespaces, HAProxy) cannot run here: {reason}")
    with open(LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        deployment = Lab("t", tmp_path_factory.mktemp("lab"), "10.213.9", env=SETTINGS)
        try:
            yield deployment.up()
        finally:
            deployment.down()
