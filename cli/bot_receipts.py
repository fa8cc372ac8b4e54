"""The game's receipt as `marketfold bot` keeps it (docs/audit.md): read again from the
game's event stream when the bot missed it (a dropped connection), completed with the
game's leaves in the public log of games if they were not merged yet, and saved as
`<dir>/<game>.receipt.json`, which `marketfold verify --seen` takes.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests

from cli.patient_http import PatientHttp, stream_lines

logger = logging.getLogger(__name__)
RECEIPTS = Path("marketfold-receipts")  # `marketfold bot`'s directory of kept receipts


def read_again(
    net: PatientHttp, base: str, game_id: str, version: int, have: Callable[[], bool]
) -> dict[str, Any] | None:
    """Resume the stream of the game at `base` just before its end (at `version`), which
    sends the end and the receipt again; a dropped connection (a restart) is tried again.
    None if `have()` says the receipt came meanwhile, or the bot was stopped."""
    for pause in (0.5, 2.0, 5.0):
        if have() or net.stopped:
            break
        try:
            return from_stream(net, base, version - 1)
        except requests.RequestException as e:
            logger.info("receipt of %s not read yet (%s)", game_id, e)
            time.sleep(pause)
    return None


def from_stream(net: PatientHttp, base: str, after: int) -> dict[str, Any] | None:
    with net.stream(f"{base}/events/stream", after, 30) as res:
        if res.status_code != 200:
            return None
        for kind, data in stream_lines(res):
            if data is not None and kind == "receipt":
                return json.loads(data)
    return None


def with_leaves(net: PatientHttp, base: str, receipt: dict[str, Any]) -> dict[str, Any]:
    """The receipt with the game's leaves and their proofs, if the server has them now;
    else the promise alone, which is enough for verify --seen."""
    try:
        return {**receipt, **net.get(f"{base}/transparency")}
    except (requests.RequestException, RuntimeError):
        return receipt


def save(folder: Path, game_id: str, receipt: dict[str, Any]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{game_id}.receipt.json"
    path.write_text(json.dumps(receipt, indent=1, ensure_ascii=False) + "\n")
    logger.info("receipt kept in %s", path)
