"""RQ job functions. Each is idempotent: running one twice changes nothing the second time."""

from __future__ import annotations

import logging
from functools import cache

from service import config, usecases
from service.deps import Deps
from workers import schedule

logger = logging.getLogger(__name__)


@cache
def deps() -> Deps:
    """Return this process's connections, built once from the environment."""
    return Deps.from_config(config.load())


def expire(game_id: str, key: str) -> str:
    """Apply the default action of an overdue decision, once; a no-op if it was made."""
    status = usecases.expire(deps(), game_id, key)
    if status != "early":
        schedule.done(deps(), game_id, key)
    logger.info("expire %s %s: %s", game_id, key, status)
    return status
