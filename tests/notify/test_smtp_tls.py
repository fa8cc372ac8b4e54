"""The e-mail channel over TLS, as operators' relays ask for it: STARTTLS on `smtp://` with a
login, and `smtps://` (TLS from the first byte), each against a real aiosmtpd server with a
certificate of its own authority (`SMTP_CA_FILE`); a certificate nobody vouches for is not
trusted, and the message waits for a retry."""

from __future__ import annotations

import datetime
import ipaddress
import ssl
from email.message import EmailMessage
from types import SimpleNamespace

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from cli.embedded import free_port
from service.notify import email
from service.notify.message import Outcome
from tests.notify.smtp_sink import Sink

USER, PASSWORD = "club", "s3cret:/@"  # a password that needs quoting in the URL


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    """A self-signed certificate for 127.0.0.1; return (cert file, key file)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "club relay")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
        .sign(key, hashes.SHA256())
    )
    folder = tmp_path_factory.mktemp("tls")
    (folder / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "key.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return str(folder / "cert.pem"), str(folder / "key.pem")


def _server_tls(certificate) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*certificate)
    return context


def _login(server, session, envelope, mechanism, data) -> AuthResult:
    ok = isinstance(data, LoginPassword) and (data.login, data.password) == (
        USER.encode(),
        PASSWORD.encode(),
    )
    return AuthResult(success=ok)


@pytest.fixture
def starttls(certificate):
    """A relay that asks for STARTTLS and a login before any mail."""
    sink, port = Sink(), free_port()
    controller = Controller(
        sink,
        hostname="127.0.0.1",
        port=port,
        tls_context=_server_tls(certificate),
        require_starttls=True,
        auth_required=True,
        authenticator=_login,
    )
    controller.start()
    yield sink, port
    controller.stop()


@pytest.fixture
def smtps(certificate):
    """A relay that speaks TLS from the first byte."""
    sink, port = Sink(), free_port()
    controller = Controller(
        sink, hostname="127.0.0.1", port=port, ssl_context=_server_tls(certificate)
    )
    controller.start()
    yield sink, port
    controller.stop()


def _boot(url: str, ca_file: str | None, starttls: bool = False) -> SimpleNamespace:
    config = {
        "SMTP_URL": url,
        "SMTP_STARTTLS": starttls,
        "SMTP_CA_FILE": ca_file,
        "SMTP_TIMEOUT_S": 2,
    }
    return SimpleNamespace(config=config)


def _mail(subject: str) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = "games@club.example"
    mail["To"] = "ana@club.example"
    mail["Subject"] = subject
    mail.set_content("Your turn.")
    return mail


def test_starttls_with_a_login_delivers_and_the_relay_sees_it_encrypted(starttls, certificate):
    sink, port = starttls
    url = f"smtp://{USER}:s3cret%3A%2F%40@127.0.0.1:{port}?starttls=1"
    assert email.deliver(_boot(url, certificate[0]), _mail("over STARTTLS")) == (
        Outcome.SENT,
        "accepted",
    )
    assert [m["Subject"] for m in sink.wait(1)] == ["over STARTTLS"]


def test_the_starttls_setting_upgrades_a_plain_url_too(starttls, certificate):
    sink, port = starttls
    boot = _boot(f"smtp://{USER}:s3cret%3A%2F%40@127.0.0.1:{port}", certificate[0], True)
    assert email.deliver(boot, _mail("by the setting"))[0] is Outcome.SENT
    assert [m["Subject"] for m in sink.wait(1)] == ["by the setting"]


def test_without_starttls_the_relay_refuses_and_nothing_goes_out_in_clear(starttls, certificate):
    sink, port = starttls
    outcome, _ = email.deliver(_boot(f"smtp://127.0.0.1:{port}", certificate[0]), _mail("plain"))
    assert outcome is not Outcome.SENT and sink.messages == []


def test_a_wrong_password_is_kept_for_a_retry(starttls, certificate):
    sink, port = starttls
    url = f"smtp://{USER}:wrong@127.0.0.1:{port}?starttls=1"
    outcome, detail = email.deliver(_boot(url, certificate[0]), _mail("wrong"))
    # (aiosmtpd answers a refused login by going silent: either way, kept for later)
    assert outcome is Outcome.RETRY and sink.messages == [], detail


def test_smtps_delivers_from_the_first_byte(smtps, certificate):
    sink, port = smtps
    assert email.deliver(_boot(f"smtps://127.0.0.1:{port}", certificate[0]), _mail("smtps"))[0] is (
        Outcome.SENT
    )
    assert [m["Subject"] for m in sink.wait(1)] == ["smtps"]


@pytest.mark.parametrize("scheme", ["smtps", "starttls"])
def test_a_certificate_no_trusted_authority_signed_is_not_trusted(scheme, smtps, starttls):
    sink, port = smtps if scheme == "smtps" else starttls
    url = (
        f"smtps://127.0.0.1:{port}" if scheme == "smtps" else f"smtp://127.0.0.1:{port}?starttls=1"
    )
    outcome, detail = email.deliver(_boot(url, None), _mail("untrusted"))
    assert outcome is Outcome.RETRY and "CERTIFICATE_VERIFY_FAILED" in detail
    assert sink.messages == []
