"""The e-mail channel keeps one connection to the relay per sending thread
(service.notify.smtp), and a relay that dropped it still gets the next mail."""

from __future__ import annotations

from types import SimpleNamespace
from urllib.parse import urlsplit

from service.notify import email, smtp
from tests.notify import smtp_sink


def _boot(url: str) -> SimpleNamespace:
    config = {
        "SMTP_URL": url,
        "SMTP_STARTTLS": False,
        "SMTP_TIMEOUT_S": 5,
        "SMTP_FROM": "marketfold <noreply@play.example>",
    }
    return SimpleNamespace(config=config)


def _mail(boot, n: int):
    return email._mail(boot, f"ana{n}@example.org", f"mail {n}", "text", "<p>text</p>", f"m{n}")


def _back_up_and_mailed(boot, url: str, n: int):
    """Start the relay again on its port; mail `n` reaches it. Return the relay."""
    controller, sink, _ = smtp_sink.start(port=urlsplit(url).port)
    assert email.deliver(boot, _mail(boot, n))[0] == email.Outcome.SENT
    assert [m["Subject"] for m in sink.wait(1)] == [f"mail {n}"]
    return controller


def test_mails_of_one_thread_share_a_connection_and_a_dropped_one_is_replaced():
    controller, sink, url = smtp_sink.start()
    boot = _boot(url)
    try:
        for n in range(3):
            assert email.deliver(boot, _mail(boot, n)) == (email.Outcome.SENT, "accepted")
        sink.wait(3)
        assert len(set(sink.peers)) == 1  # one connection, one greeting, three mails
        controller.stop()  # the relay restarts: the connection held is gone
        controller = _back_up_and_mailed(boot, url, 3)
    finally:
        smtp.close()
        controller.stop()


def test_a_relay_that_is_down_is_a_retry_and_the_next_mail_connects_again():
    controller, sink, url = smtp_sink.start()
    boot = _boot(url)
    try:
        assert email.deliver(boot, _mail(boot, 0))[0] == email.Outcome.SENT
        controller.stop()
        outcome, detail = email.deliver(boot, _mail(boot, 1))
        assert outcome == email.Outcome.RETRY, detail
        controller = _back_up_and_mailed(boot, url, 2)
    finally:
        smtp.close()
        controller.stop()
