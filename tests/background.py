"""Reference bots (cli/bot.py) playing in background threads for one test: the autouse
fixture in tests/conftest.py stops them when the test ends, before the next test flushes
the store under them (a bot left playing would fail in a later test's time)."""

from __future__ import annotations

import threading

from cli.bot import Bot

_RUNNING: list[tuple[Bot, threading.Event, threading.Thread]] = []

# The base URL of every API server the session started (tests/conftest.py `api_server`): a
# shared browser forgets what each of these origins left in it (tests/api/browser.py
# `fresh_tab`). Kept here, not in a conftest, which pytest and `from tests.conftest import`
# load as two modules.
SERVED: set[str] = set()


def play(bot: Bot) -> threading.Thread:
    """Start `bot` playing in a daemon thread; return the thread."""
    stopped = threading.Event()

    def run() -> None:
        try:
            bot.play()
        except Exception:
            if not stopped.is_set():  # a failure while its test runs is the test's
                raise

    thread = threading.Thread(target=run, daemon=True, name=f"bot {bot.base}")
    _RUNNING.append((bot, stopped, thread))
    thread.start()
    return thread


def stop_all() -> None:
    """Stop every bot still playing, and wait for its thread."""
    while _RUNNING:
        bot, stopped, thread = _RUNNING.pop()
        stopped.set()
        bot.stop()
        thread.join(15)
