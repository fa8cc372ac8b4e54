"""`python -m tests.paused_worker PAUSE_FILE`: a `marketfold worker` whose jobs stop right
before each append while PAUSE_FILE exists (crash tests hold a worker mid-command this
way, then kill it or let it go on). It installs the hook on the dependencies its jobs run
on and runs the normal worker (cli.compose.run_worker)."""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path

from cli import compose


def pause_while(path: Path):
    """Return a hook that blocks while `path` exists."""

    def pause() -> None:
        while path.exists():
            time.sleep(0.05)

    return pause


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    deps = compose.connect(compose.settings())
    deps.before_append = pause_while(Path(sys.argv[1]))
    compose.run_worker(deps=deps)
