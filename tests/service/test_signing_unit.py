"""The links a player opens without signing in (service/notify/signing.py): an e-mail's
one-click unsubscribe and an address's verification, signed with the link key port's key,
on the in-memory ports (the unit tier: tests/support/memory_boot.py)."""

from __future__ import annotations

import time

from service.notify import signing
from tests.support.memory_boot import memory_boot

NOTE = {"p": "p_ana", "t": "your_turn", "c": "email"}


def test_a_link_signed_for_a_purpose_opens_for_it_only():
    boot = memory_boot()
    token = signing.sign(boot, "unsubscribe", NOTE)
    assert signing.unsign(boot, "unsubscribe", token) == NOTE
    assert signing.unsign(boot, "verify", token) is None
    verify = signing.sign(boot, "verify", {"p": "p_ana", "a": "ana@example.org"})
    assert signing.unsign(boot, "verify", verify) == {"p": "p_ana", "a": "ana@example.org"}
    assert signing.unsign(boot, "unsubscribe", verify) is None


def test_an_altered_or_foreign_link_opens_nothing():
    boot = memory_boot()
    token = signing.sign(boot, "unsubscribe", NOTE)
    assert signing.unsign(boot, "unsubscribe", token[:-2] + "xx") is None
    assert signing.unsign(boot, "unsubscribe", "") is None
    assert signing.unsign(memory_boot(), "unsubscribe", token) is None  # another service's key


def test_a_verification_link_opens_for_a_week_and_not_after(monkeypatch):
    boot = memory_boot()
    token = signing.sign(boot, "verify", {"p": "p_ana", "a": "ana@example.org"})
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + signing.VERIFY_MAX_AGE_S - 60)
    assert signing.unsign(boot, "verify", token) == {"p": "p_ana", "a": "ana@example.org"}
    monkeypatch.setattr(time, "time", lambda: now + signing.VERIFY_MAX_AGE_S + 60)
    assert signing.unsign(boot, "verify", token) is None
    assert signing.unsign(boot, "unsubscribe", signing.sign(boot, "unsubscribe", NOTE)) == NOTE
