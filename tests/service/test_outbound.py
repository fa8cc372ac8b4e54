"""The outbound guard (service/notify/outbound.py): which addresses a webhook or push
endpoint may name, and what one request may cost."""

import ipaddress
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from service.notify import outbound
from service.notify.outbound import Policy, Refused, why_forbidden

LOOPBACK = Policy(allow=outbound.networks("127.0.0.0/8"), timeout_s=1.0, max_bytes=1024)


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "127.8.9.10",
        "::1",
        "0.0.0.0",
        "::",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.1.1",
        "169.254.169.254",
        "100.64.0.1",  # CGNAT
        "100.100.100.200",  # Alibaba metadata
        "224.0.0.1",
        "239.255.255.250",
        "255.255.255.255",
        "240.0.0.1",
        "192.0.2.1",
        "198.18.0.1",
        "fe80::1",
        "fc00::1",
        "fd00:ec2::254",
        "ff02::1",
        "::ffff:127.0.0.1",  # IPv4-mapped loopback
        "::ffff:10.0.0.1",
        "::ffff:169.254.169.254",
        "::127.0.0.1",  # IPv4-compatible
        "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
        "2002:7f00:1::",  # 6to4 of 127.0.0.1
        "2001:db8::1",
    ],
)
def test_non_public_addresses_are_refused(address):
    assert why_forbidden(ipaddress.ip_address(address)) is not None


@pytest.mark.parametrize("address", ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "1.1.1.1"])
def test_public_addresses_pass(address):
    assert why_forbidden(ipaddress.ip_address(address)) is None


def test_an_allowed_range_lets_its_addresses_through_and_no_others():
    allow = outbound.networks("127.0.0.0/8,10.0.0.0/8")
    assert why_forbidden(ipaddress.ip_address("127.0.0.1"), allow) is None
    assert why_forbidden(ipaddress.ip_address("10.9.9.9"), allow) is None
    assert why_forbidden(ipaddress.ip_address("192.168.0.1"), allow) is not None
    assert why_forbidden(ipaddress.ip_address("::1"), allow) is not None


def test_metadata_stays_refused_inside_a_broad_allowed_range():
    metadata = ipaddress.ip_address("169.254.169.254")
    assert why_forbidden(metadata, outbound.networks("169.254.0.0/16")) == (
        "a cloud metadata address"
    )
    assert why_forbidden(metadata, outbound.networks("169.254.169.254/32")) is None


@pytest.mark.parametrize(
    "url, reason",
    [
        ("ftp://example.com/x", "only http and https"),
        ("file:///etc/passwd", "only http and https"),
        ("gopher://127.0.0.1:6379/_PING", "only http and https"),
        ("https://", "names no host"),
        ("https://user:pw@example.com/", "user:password"),
        ("https://exa mple.com/", "spaces"),
        ("http://[::1", "not a URL"),
        ("https://example.com:99999/", "not a URL"),
        ("https://example.com/" + "a" * 3000, "at most"),
    ],
)
def test_malformed_urls_are_refused(url, reason):
    with pytest.raises(Refused, match=reason):
        outbound.check_url(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://localhost:6379/",  # the store itself
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://169.254.169.254/latest/meta-data/",
        "http://2130706433/",  # 127.0.0.1 as one number, which getaddrinfo reads
        "http://0x7f.1/",
        "http://10.0.0.1/",
    ],
)
def test_a_request_to_a_forbidden_address_is_refused_before_connecting(url):
    with pytest.raises(Refused):
        outbound.post(url, b"{}", {}, Policy())


def test_a_name_resolving_to_several_addresses_is_refused_if_one_is_forbidden(monkeypatch):
    def two(host, port, *args, **kwargs):
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", port)),
        ]

    monkeypatch.setattr(socket, "getaddrinfo", two)
    with pytest.raises(Refused, match="resolves to a private address"):
        outbound.resolve("https://mixed.example/hook", Policy())


class _Receiver(BaseHTTPRequestHandler):
    mode = "ok"
    seen: list = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).seen.append((self.headers["Host"], body))
        if self.mode == "redirect":
            self.send_response(307)
            self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.mode == "big":
            self.send_response(200)
            self.send_header("Content-Length", str(10_000_000))
            self.end_headers()
            try:
                for _ in range(10_000):
                    self.wfile.write(b"x" * 1000)
            except OSError:
                pass
        elif self.mode == "trickle":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            try:
                for _ in range(100):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.2)
            except OSError:
                pass
        else:
            self.send_response(204)
            self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Receiver.seen = []
    yield server
    server.shutdown()
    server.server_close()


def test_an_allowed_loopback_receiver_gets_the_body(receiver):
    _Receiver.mode = "ok"
    port = receiver.server_address[1]
    answer = outbound.post(f"http://127.0.0.1:{port}/hook?x=1", b'{"a":1}', {}, LOOPBACK)
    assert answer.status == 204
    assert _Receiver.seen == [(f"127.0.0.1:{port}", b'{"a":1}')]


def test_a_loopback_receiver_is_refused_without_the_operator_setting(receiver):
    port = receiver.server_address[1]
    with pytest.raises(Refused, match="loopback"):
        outbound.post(f"http://127.0.0.1:{port}/hook", b"{}", {}, Policy())
    assert _Receiver.seen == []


def test_the_connection_goes_to_the_checked_address_whatever_the_name_says_later(
    receiver, monkeypatch
):
    """DNS rebinding: the name is resolved once, checked, and that address is dialled;
    a second lookup (which would now answer 10.0.0.1) never happens."""
    _Receiver.mode = "ok"
    port = receiver.server_address[1]
    answers = iter(["127.0.0.1", "10.0.0.1"])

    def rebinding(host, p, *args, **kwargs):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (next(answers), p))]

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    answer = outbound.post(f"http://hooks.example:{port}/", b"{}", {}, LOOPBACK)
    assert answer.status == 204
    assert _Receiver.seen == [(f"hooks.example:{port}", b"{}")]


def test_a_redirect_is_an_answer_not_followed(receiver):
    _Receiver.mode = "redirect"
    port = receiver.server_address[1]
    answer = outbound.post(f"http://127.0.0.1:{port}/", b"{}", {}, LOOPBACK)
    assert answer.status == 307
    assert len(_Receiver.seen) == 1


def test_an_answer_is_read_up_to_the_bound(receiver):
    _Receiver.mode = "big"
    port = receiver.server_address[1]
    answer = outbound.post(f"http://127.0.0.1:{port}/", b"{}", {}, LOOPBACK)
    assert answer.status == 200 and len(answer.body) == 1024


def test_a_receiver_that_trickles_is_cut_off_at_the_deadline(receiver):
    _Receiver.mode = "trickle"
    port = receiver.server_address[1]
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        outbound.post(f"http://127.0.0.1:{port}/", b"{}", {}, LOOPBACK)
    assert time.monotonic() - started < 3  # 1 s deadline; the receiver would take 20 s


def test_the_setting_refuses_a_range_that_is_not_one():
    from service import config

    with pytest.raises(ValueError, match="OUTBOUND_ALLOW"):
        config.resolve({"OUTBOUND_ALLOW": "127.0.0.0/8,localhost"})
    assert config.resolve({"OUTBOUND_ALLOW": "127.0.0.0/8, ::1/128"})["OUTBOUND_ALLOW"] == [
        "127.0.0.0/8",
        "::1/128",
    ]
