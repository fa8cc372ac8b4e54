"""Who is told what, when, on which channel: the worker jobs behind each notification.

Every step is a member of a due set, `mf:notify:turns` (decisions owed, taken first) or
`mf:notify:due` (events.keys.notify_due), that a worker's notifier threads claim and run
(workers.notifier), removed only once it has run: a worker killed mid-step leaves its
member, whose claim lapses, and another worker runs it again. So every step is written
to be run twice:

- `plan` (`notify|<player>|<id>`, written with the note, in the same writes; a turn's is
  due when its deliveries would be, so that a decision made before then, the common case
  at a table, costs one look at the game and nothing more):
  for each channel (service.notify.channels) the player wants the type on, for each
  target, a `deliver|<id>|<channel>-<target>-<player>` member at the time it should go out; and,
  for a `your_turn` with a deadline, a `remind|<player>|<id>` at the player's reminder
  point.
- `deliver`: sends once per (notification, channel, target). A lease (`notify:sending`)
  keeps two workers from sending the same delivery at once; a mark (`notify:done`)
  written after the send keeps a rerun from sending again. Only a worker that dies
  between the other side's acceptance and that mark sends twice, with the same id (the
  e-mail's Message-ID, the webhook's id). A passing failure is tried again after
  NOTIFY_RETRY_S[attempt] seconds; after the last, the delivery is given up (logged).
- Turn notifications (`your_turn`, `deadline_reminder`): sent by e-mail, push or webhook
  only if, when due, the decision is still owed with the same deadline (answered: never),
  the notification is unread, and the player holds no open event stream (a game's or
  their feed: they see it live). They are due `NOTIFY_LIVE_DELAY_S` after the note (at
  most half the time left), or when the player's quiet hours end.
- `remind`: writes a `deadline_reminder` note (its own notification) if the decision is
  still owed then; a decision made stops it.
- `digest` (`digest|<player>|daily`): the unread notifications since the last digest,
  by e-mail, at the player's digest hour; `mail` (`mail|<player>|verify`) sends the
  verification link of a new address.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from typing import TYPE_CHECKING, Any

from events import codec
from events.record import ACTIVE
from service import metrics, players
from service.errors import NotFound
from service.notify import email, prefs, recipient, types
from service.notify import inbox as notes
from service.notify.channels import CHANNELS
from service.notify.message import Message, Outcome
from service.ports import Status, due_member
from stores.notify_outbox import Due

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

logger = logging.getLogger(__name__)
EARLY_S = 0.25  # a turn's plan claimed this much before its time is run (the notifier's poll)


def _later(job: str, subject: str, key: str, when: float, nx: bool, turn: bool = False) -> Due:
    """A step to run at `when` (`turn`: a step of a decision owed, taken before others;
    `nx`: one planned already keeps its time), for `boot.notify_outbox.plan`."""
    return Due(due_member(job, subject, key), when, turn, nx)


def _ts(iso: str | None) -> float | None:
    return codec.parse_time(iso).timestamp() if iso else None


def plan(boot: Bootstrap, player: str, note_id: str) -> Status:
    """Schedule a new notification's deliveries (and its reminder)."""
    who = recipient.look(boot, player, note_id)
    note = who.note
    if note is None or types.kind(note.get("type", "")) is None:
        return Status.NOOP  # gone from the feed, or a type sent nowhere but the inbox
    if note.get("from") == player:
        return Status.NOOP  # the player's own doing (a rematch they offered)
    now = time.time()
    when, turn = now, types.is_turn(note["type"])
    if turn:  # the delay runs from the note, not from this plan
        written = _ts(note.get("at")) or now  # (a plan late behind a queue adds no delay)
        when = max(now, written + _live_delay(boot, note, written))
        if when > now + EARLY_S:  # staged with a shorter delay than this worker's: then
            boot.notify_outbox.plan([_later("notify", player, note_id, when, False, True)])
            return Status.EARLY
        when = now
        # planned when its deliveries fall due (service.notify.inbox.stage): a decision
        # made meanwhile ends it here, before any delivery or reminder is scheduled
        if not still_owed(boot, player, note):
            return Status.NOOP
    settings, steps = who.settings, []
    deadline = _ts(note.get("deadline"))
    if note["type"] == "your_turn" and deadline and settings.get("reminder"):
        start = _ts(note.get("at")) or now
        at = deadline - float(settings["reminder"]) * (deadline - start)
        if at > now + 1:
            steps.append(_later("remind", player, note_id, at, nx=True, turn=True))
    if turn and (who.has_read(note) or who.live):
        boot.notify_outbox.plan(steps)
        return Status.DROPPED  # seen: no delivery (its reminder stays)
    if turn and (quiet := prefs.quiet_until(settings, dt.datetime.fromtimestamp(when, dt.UTC))):
        when = quiet.timestamp()
    for name in CHANNELS:
        if not prefs.wants(settings, note["type"], name):
            continue
        for target in who.targets(boot, name, note["type"]):
            member = f"{name}-{target.id}-{player}"
            steps.append(_later("deliver", note_id, member, when, nx=True, turn=turn))
    boot.notify_outbox.plan(steps)
    return Status.SENT


def _live_delay(boot: Bootstrap, note: dict[str, Any], now: float) -> float:
    return notes.live_delay(note, float(boot.config["NOTIFY_LIVE_DELAY_S"]), now)


def still_owed(boot: Bootstrap, player: str, note: dict[str, Any]) -> bool:
    """Whether the decision a turn notification tells of is still the player's to make."""
    if not note.get("game"):
        return False
    rec = boot.store.load(note["game"]).record
    seat = rec.seat_of(player)
    if rec.status != ACTIVE or seat is None:
        return False
    return any(
        o.seat == seat
        and o.kind == note.get("kind")
        and (note.get("deadline") is None or rec.deadline(o.key) == note.get("deadline"))
        for o in rec.owed()
    )


def words(boot: Bootstrap, settings: dict[str, Any], note: dict[str, Any]) -> tuple[str, str]:
    """A notification's title and body as its player reads them: their language, their
    time zone, the names of the players it mentions."""
    names = {}
    if isinstance(sender := note.get("from"), str):
        try:
            names[sender] = players.player(boot, sender)["name"]
        except NotFound:
            pass
    when = prefs.local_time(settings, note["deadline"]) if note.get("deadline") else ""
    return types.render(note, settings["lang"], names, when)


def message(
    boot: Bootstrap, player: str, note: dict[str, Any], settings: dict[str, Any] | None = None
) -> Message:
    """The notification as every channel is handed it, in the player's language
    (`settings`: the player's, if read already)."""
    settings = prefs.load(boot, player) if settings is None else settings
    title, body = words(boot, settings, note)
    return Message(
        id=note["id"],
        player=player,
        type=note["type"],
        lang=settings["lang"],
        title=title,
        body=body,
        url=email.public_url(boot, notes.url_path(note)),
        at=note.get("at") or codec.now_iso(),
        data=types.public(note),
    )


def deliver(boot: Bootstrap, note_id: str, key: str) -> Status:
    """Send one notification on one channel to one target, once (see the module)."""
    name, target_id, player = (key.split("-", 2) + ["", ""])[:3]
    channel = CHANNELS.get(name)
    if channel is None:
        return Status.NOOP
    delivery = (note_id, name, target_id, key)
    who = recipient.look(boot, player, note_id, delivery)
    note, settings, outbox = who.note, who.settings, boot.notify_outbox
    if who.ended is not None or note is None:
        return Status.NOOP
    if not prefs.wants(settings, note["type"], name):
        return Status.DROPPED  # unsubscribed meanwhile
    turn = types.is_turn(note["type"])
    if turn:
        if who.has_read(note) or who.live or not still_owed(boot, player, note):
            return Status.DROPPED
        if quiet := prefs.quiet_until(settings, dt.datetime.now(dt.UTC)):
            outbox.plan([_later("deliver", note_id, key, quiet.timestamp(), False, True)])
            return Status.POSTPONED
    target = next((t for t in who.targets(boot, name, note["type"]) if t.id == target_id), None)
    if target is None:
        return Status.DROPPED  # the address or subscription is gone
    hold = max(30, int(float(boot.config["SMTP_TIMEOUT_S"]) * 3))
    if not outbox.lease(delivery, hold):
        outbox.plan([_later("deliver", note_id, key, time.time() + hold, False, turn)])
        return Status.POSTPONED  # another worker is sending it now
    msg = message(boot, player, note, settings)
    try:
        outcome, detail = channel.send(boot, target, msg)
    except Exception as e:  # a channel's bug must not lose the delivery: try again
        logger.exception("channel %s failed on notification %s", name, note_id)
        outcome, detail = Outcome.RETRY, f"{type(e).__name__}"
    attempt = who.tried + 1  # (the lease keeps anyone else from counting meanwhile)
    waits = list(boot.config["NOTIFY_RETRY_S"])
    final = outcome != Outcome.RETRY or attempt > len(waits)
    retry = None
    if not final:
        retry = _later(
            "deliver", note_id, key, time.time() + float(waits[attempt - 1]), False, turn
        )
    ended = str(outcome) if final else None
    outbox.attempted(delivery, notes.NOTE_KEEP_S, ended, retry)
    channel.record(boot, target, msg, outcome, detail, attempt, final)
    metrics.NOTIFICATIONS.labels(name, str(outcome)).inc()
    if not final:
        return Status.POSTPONED
    return Status.SENT if outcome == Outcome.SENT else Status.DROPPED


def remind(boot: Bootstrap, player: str, note_id: str) -> Status:
    """Write the deadline reminder of a `your_turn`, if its decision is still owed."""
    note = notes.find(boot, player, note_id)
    if note is None or not still_owed(boot, player, note):
        return Status.NOOP  # made (or the game moved on): no reminder
    left = max(0, int((_ts(note["deadline"]) or 0) - time.time()))
    fields = {f: note.get(f) for f in ("game", "ruleset", "league", *types.TURN)}
    reminder = {**fields, "type": "deadline_reminder", "left_s": left}
    notes.emit(boot, player, reminder, note_id=note_id + "r")
    return Status.SENT


def schedule_digest(boot: Bootstrap, player: str, settings: dict[str, Any]) -> None:
    """Have the daily digest sent at the player's digest hour (or never, if none)."""
    member = due_member("digest", player, "daily")
    if settings.get("digest_hour") is None:
        boot.notify_outbox.unplan(member)
        return
    at = prefs.next_local_hour(settings, int(settings["digest_hour"]), dt.datetime.now(dt.UTC))
    boot.notify_outbox.plan([Due(member, at.timestamp())])


def digest(boot: Bootstrap, player: str) -> Status:
    """Mail the player the notifications still unread since the last digest, then have
    the next one sent a day later."""
    settings = prefs.load(boot, player)
    if settings.get("digest_hour") is None:
        return Status.NOOP
    since = boot.notify_outbox.digest_mark(player)
    listed = notes.page(boot, player, limit=50, unread_only=True)["notifications"]
    fresh = [n for n in listed if since is None or notes._after(n["feed_id"], since)]
    items = []
    for n in fresh:
        msg = message(boot, player, {**n["note"], "id": n["id"]})
        items.append({"id": n["id"], "title": msg.title, "body": msg.body, "url": msg.url})
    outcome, detail = email.send_digest(boot, player, items)
    if outcome == Outcome.RETRY:
        boot.notify_outbox.plan([_later("digest", player, "daily", time.time() + 60, False)])
        return Status.POSTPONED
    if fresh:
        boot.notify_outbox.mark_digest(player, fresh[0]["feed_id"])
    schedule_digest(boot, player, settings)
    return Status.POSTPONED  # the member stays, due again tomorrow


def mail_verification(boot: Bootstrap, player: str) -> Status:
    outcome, detail = email.send_verification(boot, player)
    email.log(boot, player, "email", "verify", outcome, detail, 1)
    if outcome == Outcome.RETRY:
        boot.notify_outbox.plan([_later("mail", player, "verify", time.time() + 30, False)])
        return Status.POSTPONED
    return Status.SENT if outcome == Outcome.SENT else Status.DROPPED


def set_address(boot: Bootstrap, player: str, address: str | None) -> dict[str, Any]:
    """Set (or clear) the player's e-mail address: unverified until its link is opened;
    the link is mailed by a worker."""
    settings = prefs.load(boot, player)
    old = settings.get("email") or {}
    if address is None:
        settings["email"] = None
    elif old.get("address") != address:
        settings["email"] = {"address": address, "verified": False}
        boot.notify_outbox.plan([_later("mail", player, "verify", time.time(), False)])
    prefs.save(boot, player, settings)
    return settings
