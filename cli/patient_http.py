"""A client's HTTP to the server that rides out a restart or an outage (the reference
bot's): a refused or dropped connection is tried again after a pause that doubles up to
5 s, a refusal (429, 503, or a gateway's 502 or 504) after the wait it asks for, until
`patience_s` pass without an answer. It counts the calls made and the 429s met."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import requests

RETRIED = (429, 502, 503, 504)  # the server (or its gateway) asks the caller to come back


def retry_after(res: requests.Response) -> float:
    """How long the server asks a refused caller to wait (`Retry-After` seconds; 1 if it
    does not say, at most 30)."""
    try:
        return min(max(float(res.headers.get("Retry-After", "1")), 0.1), 30.0)
    except ValueError:
        return 1.0


class PatientHttp:
    """One token's session; `calls` counts its requests, `refused` the 429s met, and
    `stopped` (set from another thread) makes a waiting call give up."""

    def __init__(self, token: str, patience_s: float = 600.0):
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {token}"
        self.patience_s = patience_s
        self.calls = 0
        self.refused = 0
        self.stopped = False

    def get(self, url: str) -> dict[str, Any]:
        """Return the JSON at `url` (raise on an error status)."""
        res = self.send("GET", url)
        res.raise_for_status()
        return res.json()

    def send(self, method: str, url: str, **kwargs: Any) -> requests.Response:
        """Send until the server answers (see the module); give up after `patience_s`
        without an answer, or once stopped."""
        deadline, pause = time.monotonic() + self.patience_s, 0.25
        while True:
            self.calls += 1
            try:
                res = self.session.request(method, url, timeout=30, **kwargs)
            except (requests.ConnectionError, requests.Timeout):
                wait, pause = pause, min(pause * 2, 5.0)
            else:
                if res.status_code not in RETRIED:
                    return res
                self.refused += res.status_code == 429
                wait = retry_after(res)
            left = deadline - time.monotonic()
            if self.stopped:
                raise RuntimeError(f"{method} {url}: stopped while waiting for an answer")
            if left <= 0:
                raise RuntimeError(f"{method} {url}: no answer in {self.patience_s:.0f} s")
            time.sleep(min(wait, left))  # the last try falls at the deadline

    def stream(self, url: str, after: int, read_s: float) -> requests.Response:
        """Open the event stream at `url` from after seq `after` (one try: the caller
        resumes)."""
        self.calls += 1
        headers = {"Last-Event-ID": str(after)}
        return self.session.get(url, stream=True, timeout=(5, read_s), headers=headers)


def stream_lines(res: requests.Response) -> Iterator[tuple[str | None, str | None]]:
    """Yield each line of an open event stream as (the frame's event name, its data, or
    None for a line that is not data), read as UTF-8 whatever the header says."""
    res.encoding = "utf-8"
    kind = None
    for line in res.iter_lines(decode_unicode=True):
        if line.startswith("event: "):
            kind = line[7:]
        yield kind, line[6:] if line.startswith("data: ") else None
