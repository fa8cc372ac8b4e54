"""Flask's JSON answers, encoded by orjson.

Encoding the answer was the largest single cost of a request in the API process after
its Redis round trips (py-spy, 32 clients: 2% of the samples, Python's encoder with
`ensure_ascii`); orjson writes the same JSON values (UTF-8 instead of `\\u` escapes) in a
fraction of the time. Reading bodies stays with Python's decoder: api.parse relies on
its handling of lone surrogates and deep nesting to name what is wrong.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider

OPTIONS = orjson.OPT_NON_STR_KEYS  # {0: ...} becomes {"0": ...}, as Python's encoder does


class OrjsonProvider(DefaultJSONProvider):
    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs:  # a caller asking for indentation or other options: Python's encoder
            return super().dumps(obj, **kwargs)
        return self._encode(obj).decode()

    def response(self, *args: Any, **kwargs: Any) -> Response:
        if (self.compact is None and self._app.debug) or self.compact is False:
            return super().response(*args, **kwargs)  # indented, for people reading it
        body = self._encode(self._prepare_response_obj(args, kwargs))
        return self._app.response_class(body + b"\n", mimetype=self.mimetype)

    def _encode(self, obj: Any) -> bytes:
        try:
            return orjson.dumps(obj, default=self.default, option=OPTIONS)
        except orjson.JSONEncodeError:  # e.g. an integer past 64 bits, which Python writes
            return super().dumps(obj, separators=(",", ":")).encode()
