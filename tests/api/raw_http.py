"""HTTP/1.1 by hand on a socket, for requests no client library would send."""

from __future__ import annotations

import socket


def exchange(port: int, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send raw bytes, read the answer until the server closes or 3 s pass."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(raw)
        sock.settimeout(3)
        data = b""
        try:
            while chunk := sock.recv(65536):
                data += chunk
                head, _, rest = data.partition(b"\r\n\r\n")
                length = [
                    ln for ln in head.split(b"\r\n") if ln.lower().startswith(b"content-length:")
                ]
                if length and len(rest) >= int(length[0].split(b":")[1]):
                    break
        except TimeoutError:
            pass
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (ln.split(":", 1) for ln in lines)}
    return int(status_line.split()[1]), headers, body


def request(target: bytes, headers: bytes = b"", method: bytes = b"GET", tail: bytes = b"\r\n"):
    return method + b" " + target + b" HTTP/1.1\r\nHost: x\r\n" + headers + tail
