"""The systemd unit in deploy/ runs a command `marketfold` accepts, keeps its data where it
may write, restarts on failure and stops as Ctrl-C does."""

from __future__ import annotations

import configparser
import shlex

from cli.main import _parser
from tests.conftest import ROOT


def test_the_systemd_unit_runs_serve_on_its_data_directory():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read(ROOT / "deploy" / "marketfold.service")
    service = unit["Service"]
    argv = shlex.split(service["ExecStart"])
    assert argv[0].endswith("/marketfold") and argv[1] == "serve"
    args = _parser().parse_args(argv[1:])
    assert args.data_dir.startswith(service["ReadWritePaths"])
    assert service["Restart"] == "on-failure" and service["KillSignal"] == "SIGINT"
    assert service["EnvironmentFile"].lstrip("-").startswith("/etc/marketfold/")
    assert int(service["TimeoutStopSec"]) >= 10  # serve's own bound on a stop
