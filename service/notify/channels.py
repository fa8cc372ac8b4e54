"""The channels a notification is delivered on besides the inbox, by name: the
dispatcher (service.notify.dispatch) asks each for the player's targets and sends one
delivery per target. A channel implements service.notify.message.Channel; add it here."""

from __future__ import annotations

from service.notify import push, webhook_delivery
from service.notify.email import EmailChannel
from service.notify.message import Channel

CHANNELS: dict[str, Channel] = {
    "email": EmailChannel(),
    "push": push.CHANNEL,
    "webhook": webhook_delivery.CHANNEL,
}
# A target's id is part of an RQ job id: letters, digits and `_` only (no `-`, which
# separates it from the channel's name in `deliver|<note>|<channel>-<target>-<player>`).
