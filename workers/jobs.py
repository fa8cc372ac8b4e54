"""RQ job functions. Each is idempotent: running one twice changes nothing the second time."""

from __future__ import annotations

import logging
import os
import time
from functools import cache
from pathlib import Path

from service import config, leagues, usecases
from service.deps import Deps
from workers import schedule

logger = logging.getLogger(__name__)
PAUSE_FILE = "MARKETFOLD_TEST_PAUSE_FILE"


@cache
def deps() -> Deps:
    """Return this process's connections, built once from the environment."""
    return Deps.from_config(config.load())


def pause_for_tests() -> None:
    """Block while the file named by MARKETFOLD_TEST_PAUSE_FILE exists (crash tests only)."""
    path = os.environ.get(PAUSE_FILE)
    while path and Path(path).exists():
        time.sleep(0.05)


def expire(game_id: str, key: str) -> str:
    """Apply the default action of an overdue decision, once; a no-op if it was made."""
    status = usecases.expire(deps(), game_id, key, before_append=pause_for_tests)
    if status != "early":
        schedule.done(deps(), "expire", game_id, key)
    logger.info("expire %s %s: %s", game_id, key, status)
    return status


def resolve(game_id: str, key: str) -> str:
    """Resolve a simultaneous phase whose submissions are all in, once."""
    status = usecases.resolve(deps(), game_id, key, before_append=pause_for_tests)
    schedule.done(deps(), "resolve", game_id, key)
    logger.info("resolve %s %s: %s", game_id, key, status)
    return status


def start_round(league_id: str, number: str) -> str:
    """Start round `number` of a league: tables, games, seats; once, however often run."""
    status = leagues.start_round(deps(), league_id, int(number), before_append=pause_for_tests)
    if status != "early":
        schedule.done(deps(), "round", league_id, number)
    logger.info("round %s of league %s: %s", number, league_id, status)
    return status


def record_result(league_id: str, game_id: str) -> str:
    """Record a finished league game's places, points and ratings, once."""
    status = leagues.record_result(deps(), league_id, game_id, before_append=pause_for_tests)
    schedule.done(deps(), "league_result", league_id, game_id)
    logger.info("result of %s in league %s: %s", game_id, league_id, status)
    return status
