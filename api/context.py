"""The request's view of the process: the bootstrap object the app was built with."""

from __future__ import annotations

from flask import current_app

from service.bootstrap import Bootstrap


def boot() -> Bootstrap:
    """Return the app's bootstrap object (connections, scheduler, config)."""
    return current_app.extensions["marketfold"]
