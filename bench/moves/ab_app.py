"""The API as `cli.wsgi:app` serves it, with the parts named in `BENCH_OFF` (comma
separated, bench/moves/action_cpu.PARTS) switched off: the B side of bench/moves/ab_http.py's runs.
A benchmark's module: the service never reads BENCH_OFF."""

import os

from bench.moves.action_cpu import PARTS
from cli.wsgi import app

for part in filter(None, os.environ.get("BENCH_OFF", "").split(",")):
    PARTS[part](app)
