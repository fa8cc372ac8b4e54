"""The composition root: the one place where a process's dependencies are built (the
connections, the event store, the RQ scheduler; service.bootstrap.Bootstrap) and handed
to what runs on them: the Flask app (`create_app`, served by gunicorn as `cli.wsgi:app`)
and the worker (`run_worker`: its jobs and its deadline sweeper). Only here are the API
and the RQ adapter (workers.scheduler) put together: api/ never imports workers/."""

from __future__ import annotations

from typing import Any

from flask import Flask

import api
from service import bootstrap, config, data_format
from service.bootstrap import Bootstrap
from workers import runner
from workers.scheduler import RqScheduler


def connect(cfg: dict[str, Any]) -> Bootstrap:
    """Build one set of dependencies from the configuration `cfg`."""
    return bootstrap.connect(cfg, RqScheduler.connect)


def settings(overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The environment's configuration; with `overrides` (tests, benchmarks), the defaults
    plus `overrides` alone: the environment is not read."""
    return config.load() if overrides is None else config.resolve(overrides)


def create_app(overrides: dict[str, Any] | None = None) -> Flask:
    """The API on dependencies built from `settings(overrides)`."""
    deps = connect(settings(overrides))
    data_format.check(deps.redis)
    return api.create_app(deps)


def run_worker(burst: bool = False, deps: Bootstrap | None = None) -> None:
    """Run `marketfold worker`: its jobs on `deps` (built from the environment unless
    given), its deadline sweeper on connections of its own."""
    cfg = deps.config if deps is not None else settings()
    deps = deps or connect(cfg)
    data_format.check(deps.redis)
    runner.run(deps, connect(cfg), burst=burst)
