"""Table chat and moderation on in-memory ports, no Redis (the unit tier): who reads
which channel, the post limit, reports filed and closed, mutes, bans and hidden messages
(tests/support/memory_boot.py; the ports' contracts are in tests/stores/)."""

from __future__ import annotations

import pytest

from events.record import ACTIVE, FINISHED, Record, Seat
from service import chat, moderation, players, tokens
from service.bootstrap import Bootstrap
from service.errors import Conflict, Forbidden, Invalid, NotFound, TooFast, Unauthorized
from tests.support.memory_boot import memory_boot


@pytest.fixture
def boot() -> Bootstrap:
    boot = memory_boot()
    boot.config["OPERATORS"] = "p_op"
    return boot


@pytest.fixture
def table(boot):
    ann, bob = players.create_player(boot, "Ann"), players.create_player(boot, "Bob")
    seats = (Seat(0, ann["id"], "Ann"), Seat(1, bob["id"], "Bob"))
    return Record("g_unit", seats=seats, status=ACTIVE), ann, bob


def test_players_read_their_channel_and_spectators_both_until_the_end(boot, table):
    rec, ann, _ = table
    eve = players.create_player(boot, "Eve")
    said = chat.post(boot, rec, ann, "hello")
    assert (said["channel"], said["seat"], said["text"]) == ("players", 0, "hello")
    watched = chat.post(boot, rec, eve, "psst, bob has the moon")
    assert watched["channel"] == "spectators" and watched["seat"] is None
    assert [m["text"] for m in chat.read(boot, rec, 1, "0-0")] == ["hello"]
    assert [m["id"] for m in chat.read(boot, rec, None, "0-0")] == [said["id"], watched["id"]]
    assert [m["id"] for m in chat.read(boot, rec, None, said["id"])] == [watched["id"]]
    ended = Record("g_unit", seats=rec.seats, status=FINISHED)
    assert len(chat.every(boot, ended, 0)) == 2
    assert chat.last_id(boot, rec.game_id) == watched["id"]
    assert chat.last_id(boot, "g_other") == "0-0"


def test_a_player_posting_too_fast_is_told_when_to_retry(boot, table):
    rec, ann, bob = table
    for i in range(chat.RATE_COUNT):
        chat.post(boot, rec, ann, f"m{i}")
    with pytest.raises(TooFast) as fast:
        chat.post(boot, rec, ann, "one more")
    assert fast.value.code == "chat_rate_limited"
    assert 0 < fast.value.retry_after <= chat.RATE_WINDOW_S
    chat.post(boot, rec, bob, "my turn")  # counted per player
    assert len(chat.read(boot, rec, 0, "0-0")) == chat.RATE_COUNT + 1


def test_a_hidden_message_loses_its_text_but_for_operators(boot, table):
    rec, ann, _ = table
    said = chat.post(boot, rec, ann, "rude words")
    hidden = moderation.hide(boot, "p_op", rec.game_id, said["id"], "abuse")
    assert hidden["hidden"]["by"] == "p_op"
    shown = chat.read(boot, rec, 1, "0-0")[0]
    assert shown["text"] == "" and shown["hidden"] == {"reason": "abuse"}
    assert chat.every(boot, rec, None)[0]["text"] == ""
    seen = chat.read(boot, rec, None, "0-0", operator=True)[0]
    assert seen["text"] == "rude words" and seen["hidden"]["by"] == "p_op"
    with pytest.raises(NotFound):
        moderation.hide(boot, "p_op", rec.game_id, "1-0", "abuse")


def test_reports_name_the_author_of_a_message_and_close_once(boot, table):
    rec, ann, bob = table
    said = chat.post(boot, rec, ann, "rude words")
    filed = moderation.report(
        boot, bob, {"game": rec.game_id, "message": said["id"], "reason": " rude "}
    )
    assert (filed["player"], filed["reason"], filed["status"]) == (ann["id"], "rude", "open")
    other = moderation.report(boot, ann, {"player": bob["id"], "reason": "spam"})
    assert [r["id"] for r in moderation.reports(boot)] == [other["id"], filed["id"]]
    closed = moderation.close_report(boot, "p_op", filed["id"], "talked to them")
    assert closed["status"] == "closed" and closed["closed"]["note"] == "talked to them"
    assert [r["id"] for r in moderation.reports(boot, "open")] == [other["id"]]
    with pytest.raises(Conflict) as again:
        moderation.close_report(boot, "p_op", filed["id"], "again")
    assert again.value.code == "report_closed"
    with pytest.raises(NotFound):
        moderation.close_report(boot, "p_op", "1-0", "no such")


@pytest.mark.parametrize(
    "body, field",
    [
        ({"player": "p_x"}, "reason"),
        ({"reason": "why"}, "player"),
        ({"message": "1-0", "reason": "why"}, "game"),
        ({"player": "p_x", "reason": "x" * (moderation.REASON_MAX + 1)}, "reason"),
    ],
)
def test_a_report_without_its_subject_or_reason_names_the_field(boot, table, body, field):
    with pytest.raises(Invalid) as bad:
        moderation.report(boot, table[1], body)
    assert field in bad.value.errors
    assert moderation.reports(boot) == []


def test_a_report_of_nobody_or_of_no_message_is_not_found(boot, table):
    with pytest.raises(NotFound) as nobody:
        moderation.report(boot, table[1], {"player": "p_nobody", "reason": "why"})
    assert nobody.value.code == "player_not_found"
    with pytest.raises(NotFound) as nothing:
        moderation.report(boot, table[1], {"game": "g_unit", "message": "1-0", "reason": "why"})
    assert nothing.value.code == "message_not_found"


def test_a_muted_player_may_not_chat_until_unmuted(boot, table):
    _, ann, _ = table
    assert (
        moderation.mute(boot, "p_op", ann["id"], "shouting", True)["muted"]["reason"] == "shouting"
    )
    with pytest.raises(Forbidden) as muted:
        moderation.check_may_chat(boot, ann["id"])
    assert muted.value.code == "muted" and "shouting" in muted.value.detail
    assert moderation.mute(boot, "p_op", ann["id"], None, False) == {"muted": None, "banned": None}
    moderation.check_may_chat(boot, ann["id"])


def test_a_ban_stops_every_token_at_once_and_an_unban_brings_them_back(boot):
    ann = players.create_player(boot, "Ann")
    other = players.authenticate(boot, ann["token"])
    second = tokens.create(boot, other)
    banned = moderation.ban(boot, "p_op", ann["id"], "cheating")
    assert banned["banned"]["reason"] == "cheating" and banned["games"] == []
    for token in (ann["token"], second["token"]):
        with pytest.raises(Unauthorized) as refused:
            players.authenticate(boot, token)
        assert refused.value.code == "banned"
    assert moderation.unban(boot, "p_op", ann["id"]) == {"muted": None, "banned": None}
    assert players.authenticate(boot, second["token"])["id"] == ann["id"]
    with pytest.raises(Conflict) as self_ban:
        moderation.ban(boot, ann["id"], ann["id"], "oops")
    assert self_ban.value.code == "cannot_ban_self"
    assert moderation.standing(boot, ann["id"])["banned"] is None
    with pytest.raises(NotFound):
        moderation.ban(boot, "p_op", "p_nobody", "who")
