"""Domain errors: what went wrong, as a stable `code` and a human `detail`; no HTTP here.

The use cases raise these; `api.errors` maps each kind to its status and problem+json,
and a worker reads them as outcomes (a league that is gone, a contended game).
"""

from __future__ import annotations

from typing import Any

# Refusals raised below service/ that the use cases let through as they are: a caller
# names them from here and so needs to know service/ alone (api/errors.py maps each).
from events.bundle import BundleError  # POST /verify: the file is not a bundle
from events.refusals import StaleVersion  # If-Match named another version of the game
from events.replication import NotReplicated  # written, but too few replicas confirmed it
from events.seating import NotSeated  # the caller holds no seat in the game

__all__ = [
    "BundleError",
    "Conflict",
    "Contention",
    "DomainError",
    "Forbidden",
    "Invalid",
    "NotFound",
    "NotReplicated",
    "NotSeated",
    "StaleVersion",
    "TooFast",
    "Unauthorized",
]


class DomainError(Exception):
    """A refusal with a stable code; `errors` names the offending fields, if any."""

    def __init__(self, code: str, detail: str, errors: dict[str, list[str]] | None = None):
        super().__init__(detail)
        self.code, self.detail, self.errors = code, detail, errors

    @property
    def extra(self) -> dict[str, Any]:
        """Return the optional members of the error (only `errors`, when given)."""
        return {} if self.errors is None else {"errors": self.errors}


class NotFound(DomainError):
    """No such game, league, round or player."""


class Invalid(DomainError):
    """The request is well-formed but asks for something impossible (a bad value)."""


class Conflict(DomainError):
    """The request clashes with the current state (a league already started)."""


class Forbidden(DomainError):
    """The caller is known but may not do this."""


class Unauthorized(DomainError):
    """The caller is not known, or must be."""


class Contention(DomainError):
    """Too many concurrent writes to one log; retrying later succeeds."""


class TooFast(DomainError):
    """The caller did this too often; `retry_after` seconds until it may again."""

    def __init__(self, code: str, detail: str, retry_after: float):
        super().__init__(code, detail)
        self.retry_after = retry_after
