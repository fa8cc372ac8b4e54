"""What the service needs from the outside, as protocols; `workers.scheduler` implements
the Scheduler on Redis and RQ, and the bootstrap object carries the instance in use."""

from __future__ import annotations

from typing import Any, Protocol


def job_id(job: str, subject: str, key: str) -> str:
    """Return the id of the work that does `job` for `key` of a game or league: the
    queue's job id, and the `cause` of what that work appends."""
    return f"{job}-{subject}-{key}"


class Scheduler(Protocol):
    """Work that must happen later, or now but outside the request."""

    def expiry(self, game_id: str, key: str, deadline: str, pipe: Any = None) -> None:
        """Have decision `key` of the game expire at `deadline` (ISO time); with `pipe` (a
        Redis pipeline the caller executes) the write joins it."""

    def resolution(self, game_id: str, key: str) -> None:
        """Have simultaneous phase `key` of the game resolved now."""

    def lapse(self, game_id: str, key: str, when: float) -> None:
        """Have the game cancelled at `when` (a Unix time) if it is still waiting."""

    def league_round(self, league_id: str, number: int, when: float) -> None:
        """Have round `number` of the league started at `when` (a Unix time)."""

    def league_result(self, league_id: str, game_id: str) -> None:
        """Have a finished league game recorded now."""

    def done(self, job: str, subject: str, key: str) -> None:
        """Forget work that was handled."""
