"""bench/moves/profile_move.py (issue #34): where a one-call move's CPU goes in the API's
workers, by part, sampled with py-spy while real games are played."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from bench.moves import profile_move
from tests.conftest import ROOT


def test_each_sample_goes_to_the_first_part_whose_frame_its_stack_holds(tmp_path):
    raw = tmp_path / "worker.txt"
    raw.write_text(
        "handle (gunicorn/workers/base_async.py:55);Flask.__call__ (flask/app.py:1536);"
        "post_action (api/games.py:149);act (service/game_commands.py:190);"
        "RedisRecorder.append (events/recorder.py:120) 7\n"
        "follow (api/streams.py:110);write_chunk (gunicorn/util.py:342) 3\n"
        "Hub.run (gevent/hub.py:647) 2\n"
        "something.else (x.py:1) 1\n"
    )
    parts = profile_move.tally([raw])
    assert parts == {
        "action: the append (encoding, Redis round trip)": 7,
        "streams: frames written to clients": 3,
        "the gevent hub (event loop)": 2,
        "other (heartbeats, timers, Redis client set-up)": 1,
    }


@pytest.mark.slow
@pytest.mark.process
def test_the_profile_of_played_games_adds_up_to_the_workers_cpu_per_move():
    done = subprocess.run(
        [sys.executable, "-m", "bench.moves.profile_move", "--clients", "2", "--games", "6"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    per_move = float(re.search(r"CPU (\d+) µs per move", done.stdout).group(1))
    rows = re.findall(r"^\| (.+?) \| ([\d.]+)% \| (\d+) \|$", done.stdout, re.M)
    names = {name for name, _, _ in rows}
    assert "action: the append (encoding, Redis round trip)" in names
    assert "streams: frames made (redaction, owes, legal actions)" in names
    assert sum(float(share) for _, share, _ in rows) == pytest.approx(100, abs=0.5)
    assert sum(int(us) for _, _, us in rows) == pytest.approx(per_move, rel=0.02)
