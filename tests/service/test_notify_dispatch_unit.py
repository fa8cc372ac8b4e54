"""The notifications' settings and steps (service.notify.prefs, dispatch, email) on
in-memory ports (the unit tier): settings refused naming the field, an address to
verify, the digest's time, a turn's deliveries and reminder planned, deliveries that
must not go out, reminders written once, mails the relay did not take, and the link that
verifies an address."""

from __future__ import annotations

import time

import pytest

from events import codec
from service import config
from service.errors import Invalid
from service.notify import dispatch, email, prefs, signing
from service.notify import inbox as notes
from service.ports import Status
from stores.memory.recipients import MemoryRecipients
from tests.service.test_use_cases_unit import seated
from tests.support.memory_boot import memory_boot

PLAYERS = ["ann", "bob", "cy"]
ADDRESS = "cy@example.org"
RELAY_DOWN = "smtp://127.0.0.1:1"  # nothing listens there: every send is a passing failure


@pytest.fixture
def boot():
    cfg = {**config.DEFAULTS, "SMTP_URL": RELAY_DOWN, "NOTIFY_LIVE_DELAY_S": 0}
    boot = memory_boot(config=cfg)
    seated(boot, PLAYERS, timeout=3600)
    return boot


def owing(boot):
    """The player who owes the game's first decision, and its your_turn notification."""
    for p in PLAYERS:
        for n in notes.page(boot, p)["notifications"]:
            if n["type"] == "your_turn":
                return p, {**n["note"], "id": n["id"]}
    raise AssertionError("no turn owed")


def verified(boot, player, **more):
    settings = prefs.update(boot, player, more)
    settings["email"] = {"address": ADDRESS, "verified": True}
    prefs.save(boot, player, settings)


def test_settings_refused_name_the_field_and_keep_nothing(boot):
    for bad, field in (
        ({"time_zone": "Mars/Olympus"}, "time_zone"),
        ({"types": {"no_such": {"email": False}}}, "types.no_such"),
        ({"types": {"your_turn": {"pigeon": False}}}, "types.your_turn.pigeon"),
    ):
        with pytest.raises(Invalid) as refused:
            prefs.update(boot, "ann", {"lang": "es", **bad})
        assert list(refused.value.errors) == [field]
    assert prefs.load(boot, "ann") == prefs.DEFAULTS


def test_settings_merge_and_one_click_turns_off_one_type_on_one_channel(boot):
    prefs.update(boot, "ann", {"lang": "es", "types": {"your_turn": {"push": False}}})
    prefs.unsubscribe(boot, "ann", "invitation", "email")
    shown = prefs.shown(prefs.load(boot, "ann"))
    assert shown["lang"] == "es"
    assert shown["types"]["your_turn"] == {"email": True, "push": False, "webhook": True}
    assert shown["types"]["invitation"]["email"] is False
    assert shown["types"]["invitation"]["push"] is True


def test_a_new_address_waits_for_its_link_which_a_worker_mails(boot):
    settings = dispatch.set_address(boot, "ann", "ann@example.org")
    assert settings["email"] == {"address": "ann@example.org", "verified": False}
    assert prefs.load(boot, "ann")["email"]["verified"] is False
    assert boot.notify_outbox.planned("mail|ann|verify") is not None
    assert email.EmailChannel().targets(boot, "ann", "invitation") == []  # not verified
    assert dispatch.set_address(boot, "ann", None)["email"] is None


def test_the_digest_is_planned_at_the_players_hour_or_never(boot):
    settings = prefs.update(boot, "ann", {"digest_hour": 7, "time_zone": "Europe/Madrid"})
    dispatch.schedule_digest(boot, "ann", settings)
    at = boot.notify_outbox.planned("digest|ann|daily")
    assert 0 < at - time.time() <= 24 * 3600
    assert time.strftime("%M:%S", time.gmtime(at)) == "00:00"
    dispatch.schedule_digest(boot, "ann", prefs.update(boot, "ann", {"digest_hour": None}))
    assert boot.notify_outbox.planned("digest|ann|daily") is None


def test_a_turn_plans_its_e_mail_and_its_reminder(boot):
    player, note = owing(boot)
    verified(boot, player)
    assert dispatch.plan(boot, player, note["id"]) == Status.SENT
    target = email.target_id(ADDRESS)
    assert boot.notify_outbox.planned(f"deliver|{note['id']}|email-{target}-{player}")
    reminder = boot.notify_outbox.planned(f"remind|{player}|{note['id']}")
    deadline = codec.parse_time(note["deadline"]).timestamp()
    assert reminder == pytest.approx(deadline - 0.25 * 3600, abs=5)  # a quarter of the time left


def test_a_turn_read_already_plans_no_delivery(boot):
    player, note = owing(boot)
    verified(boot, player)
    notes.mark_read(boot, player, note["id"])
    assert dispatch.plan(boot, player, note["id"]) == Status.DROPPED
    target = email.target_id(ADDRESS)
    assert boot.notify_outbox.planned(f"deliver|{note['id']}|email-{target}-{player}") is None
    assert boot.notify_outbox.planned(f"remind|{player}|{note['id']}") is not None


def test_deliveries_that_must_not_go_out(boot):
    player, note = owing(boot)
    verified(boot, player)
    target = email.target_id(ADDRESS)
    key = f"email-{target}-{player}"
    boot.notify_outbox.attempted((note["id"], "email", target, key), 60, "sent", None)
    assert dispatch.deliver(boot, note["id"], key) == Status.NOOP  # sent before
    other = notes.emit(boot, player, {"type": "invitation", "from": "ann"})
    assert boot.notify_outbox.lease((other, "email", target, key), 30)  # a worker sends it now
    assert dispatch.deliver(boot, other, key) == Status.POSTPONED  # another worker sends it
    assert boot.notify_outbox.planned(f"deliver|{other}|{key}") > time.time() + 20
    prefs.unsubscribe(boot, player, "invitation", "email")
    assert dispatch.deliver(boot, other, key) == Status.DROPPED  # unsubscribed meanwhile
    assert dispatch.deliver(boot, "n_gone", key) == Status.NOOP


def test_a_reminder_is_written_once_while_the_decision_is_owed(boot):
    player, note = owing(boot)
    assert dispatch.remind(boot, player, note["id"]) == Status.SENT
    assert dispatch.remind(boot, player, note["id"]) == Status.SENT
    listed = notes.page(boot, player)["notifications"]
    reminders = [n for n in listed if n["type"] == "deadline_reminder"]
    assert [n["id"] for n in reminders] == [note["id"] + "r"]
    assert 0 < reminders[0]["note"]["left_s"] <= 3600
    assert dispatch.remind(boot, player, "n_gone") == Status.NOOP


def test_a_digest_the_relay_did_not_take_is_tried_again_in_a_minute(boot):
    verified(boot, "ann", digest_hour=7)
    assert dispatch.digest(boot, "ann") == Status.POSTPONED
    again = boot.notify_outbox.planned("digest|ann|daily")
    assert 50 < again - time.time() <= 60
    assert boot.notify_outbox.digest_mark("ann") is None  # the same notes go next time
    assert dispatch.digest(boot, "bob") == Status.NOOP  # no digest hour


def test_a_turn_planned_before_the_live_delay_waits_for_it(boot):
    boot.config["NOTIFY_LIVE_DELAY_S"] = 60
    player, note = owing(boot)
    verified(boot, player)
    assert dispatch.plan(boot, player, note["id"]) == Status.EARLY
    written = codec.parse_time(note["at"]).timestamp()
    assert boot.notify_outbox.planned(f"notify|{player}|{note['id']}") == pytest.approx(
        written + 60
    )
    assert boot.notify_outbox.planned(f"remind|{player}|{note['id']}") is None  # not yet


def test_a_player_watching_live_gets_no_e_mail_of_their_turn(boot):
    watching = MemoryRecipients(
        boot.inbox, boot.notify_prefs, boot.notify_outbox, live=lambda *_: 1
    )
    boot.recipients = watching  # an event stream open with their token now
    player, note = owing(boot)
    verified(boot, player)
    assert dispatch.plan(boot, player, note["id"]) == Status.DROPPED
    target = email.target_id(ADDRESS)
    assert boot.notify_outbox.planned(f"deliver|{note['id']}|email-{target}-{player}") is None
    assert dispatch.deliver(boot, note["id"], f"email-{target}-{player}") == Status.DROPPED


def test_a_verification_mail_the_relay_did_not_take_is_logged_and_tried_again(boot):
    dispatch.set_address(boot, "ann", "ann@example.org")
    assert dispatch.mail_verification(boot, "ann") == Status.POSTPONED
    (logged,) = boot.notify_outbox.logged("ann")
    assert (logged["notification"], logged["outcome"]) == ("verify", "retry")
    assert 20 < boot.notify_outbox.planned("mail|ann|verify") - time.time() <= 30


def test_the_verification_link_verifies_the_address_it_was_sent_to_only(boot):
    dispatch.set_address(boot, "ann", "ann@example.org")
    token = signing.sign(boot, "verify", {"p": "ann", "a": "ann@example.org"})
    stale = signing.sign(boot, "verify", {"p": "ann", "a": "old@example.org"})
    assert email.verify(boot, stale) is None  # an address the player no longer has
    assert email.verify(boot, "forged") is None
    assert email.verify(boot, token) == ("ann", "ann@example.org")
    assert prefs.load(boot, "ann")["email"] == {"address": "ann@example.org", "verified": True}
    (target,) = email.EmailChannel().targets(boot, "ann", "invitation")
    assert target.spec == {"address": "ann@example.org"}
