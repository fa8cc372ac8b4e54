"""RQ job functions. Each is idempotent: running one twice changes nothing the second time."""

from __future__ import annotations

import logging
from functools import cache

from service import bootstrap, config, game_commands, league_commands, league_rounds
from service.bootstrap import Bootstrap
from workers.scheduler import RqScheduler

logger = logging.getLogger(__name__)


@cache
def boot() -> Bootstrap:
    """Return this process's bootstrap object, built once from the environment."""
    return bootstrap.connect(config.load(), RqScheduler.connect)


def expire(game_id: str, key: str) -> str:
    """Apply the default action of an overdue decision, once; a no-op if it was made."""
    status = game_commands.expire(boot(), game_id, key)
    if status != "early":
        boot().scheduler.done("expire", game_id, key)
    logger.info("expire %s %s: %s", game_id, key, status)
    return status


def resolve(game_id: str, key: str) -> str:
    """Resolve a simultaneous phase whose submissions are all in, once."""
    status = game_commands.resolve(boot(), game_id, key)
    boot().scheduler.done("resolve", game_id, key)
    logger.info("resolve %s %s: %s", game_id, key, status)
    return status


def start_round(league_id: str, number: str) -> str:
    """Start round `number` of a league: tables, games, seats; once, however often run."""
    status = league_rounds.start_round(boot(), league_id, int(number))
    if status != "early":
        boot().scheduler.done("round", league_id, number)
    logger.info("round %s of league %s: %s", number, league_id, status)
    return status


def record_result(league_id: str, game_id: str) -> str:
    """Record a finished league game's places, points and ratings, once."""
    status = league_commands.record_result(boot(), league_id, game_id)
    boot().scheduler.done("league_result", league_id, game_id)
    logger.info("result of %s in league %s: %s", game_id, league_id, status)
    return status
