"""Computer players: pure decisions over the rules in games/ (no Redis, HTTP or RQ).

`decide` is what a computer seat does when it owes a decision: the quick level
(computer.policies.quick) at once, the strong level (computer.search) within a time
budget. A strong search that raises, or that is still running when its budget and a
short grace are spent, gives way to the quick level's action: a computer seat always
answers in time. The worker that calls it (service.computer_turns) keeps the budget
inside the table's deadline.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from typing import Any

from computer.policies import quick
from computer.samplers import SAMPLERS, sample
from computer.search import search
from games.base import ActionSpec, Game

logger = logging.getLogger(__name__)
LEVELS = ("quick", "strong")
GRACE_S = 0.25  # how long past its budget a search may run before the quick level answers

__all__ = ["LEVELS", "SAMPLERS", "decide", "quick", "sample", "search"]


def decide(
    level: str,
    game: Game,
    seat: int,
    specs: list[ActionSpec],
    draw: Callable[[random.Random], Any],
    budget_s: float,
    rng: random.Random,
    searcher: Callable[..., Any] = search,
) -> tuple[dict[str, Any], str]:
    """Return the action of a computer seat of `level` and the level that chose it
    ("strong", or "quick" when the search failed or ran late). `draw(rng)` samples a
    state the seat cannot tell from the real one; `searcher` is the search (tests pass
    one that fails)."""
    if level != "strong":
        return quick(specs, rng), "quick"
    answer: list[Any] = []
    seed = rng.getrandbits(64)

    def run() -> None:
        try:
            answer.append(searcher(game, seat, specs, draw, budget_s, random.Random(seed)))
        except Exception:
            logger.exception(
                "the %s search of seat %s failed; the quick level answers", game.id, seat
            )

    worker = threading.Thread(target=run, name="computer-search", daemon=True)
    worker.start()
    worker.join(budget_s + GRACE_S)
    if answer:
        return answer[0].action, "strong"
    if worker.is_alive():
        logger.warning(
            "the %s search of seat %s overran %.2f s; the quick level answers",
            game.id,
            seat,
            budget_s,
        )
    return quick(specs, rng), "quick"
