"""How every process of the service logs: one line per event on standard error, with ISO
times, as text (`2026-11-28T05:06:10.123Z INFO marketfold.access GET ... request_id=...`)
or as JSON objects (`marketfold serve --log-format json`, or `LOG_FORMAT=json`), for a
log shipper. JSON lines come from python-json-logger, a maintained formatter that keeps a
record's extra fields as keys; text lines show the same fields as `key=value` after the
message. `serve` passes the format on to its children in the environment."""

from __future__ import annotations

import logging
import sys
import time

from pythonjsonlogger.json import JsonFormatter

# what every LogRecord has: anything else on a record is an extra field to show
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "taskName"}


def _iso(record: logging.LogRecord) -> str:
    whole = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
    return f"{whole}.{int(record.msecs):03d}Z"


class Text(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = f"{_iso(record)} {record.levelname} {record.name} {record.getMessage()}"
        extras = {k: v for k, v in record.__dict__.items() if k not in _STANDARD}
        line += "".join(f" {k}={v}" for k, v in extras.items())
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class Json(JsonFormatter):
    def __init__(self) -> None:
        super().__init__(
            "%(levelname)s %(name)s %(message)s",
            rename_fields={"levelname": "level", "name": "logger"},
        )

    def add_fields(self, log_record: dict, record: logging.LogRecord, message_dict: dict) -> None:
        log_record["time"] = _iso(record)
        super().add_fields(log_record, record, message_dict)


def setup(fmt: str = "text", level: int = logging.INFO) -> None:
    """Send every logger's records to standard error in `fmt` ("text" or "json")."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(Json() if fmt == "json" else Text())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
