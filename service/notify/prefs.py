"""A player's notification settings: language, time zone, quiet hours, the reminder
point, the daily digest, the e-mail address (verified or not) and what each channel
tells of each type. Kept by the settings port (stores/notify_prefs.py, `boot.notify_prefs`)
as what the player set; a setting never stored reads as its default (DEFAULTS,
types.wanted_by_default). The API validates the shape (api.notify_schemas.NotifySettings);
`update` checks what needs the catalog or tzdata.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from service.errors import Invalid
from service.notify import types

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

DEFAULTS: dict[str, Any] = {
    "lang": "en",
    "time_zone": "UTC",
    "quiet_hours": None,  # {"start": "22:00", "end": "08:00"} in the player's time zone
    "reminder": 0.25,  # remind when this share of a decision's time is left (None: never)
    "digest_hour": None,  # the local hour of the daily e-mail digest (None: no digest)
    "email": None,  # {"address": ..., "verified": bool}
    "types": {},  # {type: {channel: bool}}: only what differs from the defaults
}


def load(boot: Bootstrap, player_id: str) -> dict[str, Any]:
    return parse(boot.notify_prefs.settings(player_id))


def parse(stored: dict[str, Any] | None) -> dict[str, Any]:
    """The settings, every one of them, from what the player set (None: nothing)."""
    return {**DEFAULTS, **(stored or {})}


def shown(settings: dict[str, Any]) -> dict[str, Any]:
    """The settings as the API answers them: every catalogued type with every channel."""
    channels = {t: {c: wants(settings, t, c) for c in types.CHANNELS} for t in types.NAMES}
    return {**settings, "types": channels}


def wants(settings: dict[str, Any], type_: str, channel: str) -> bool:
    said = (settings.get("types") or {}).get(type_, {}).get(channel)
    return types.wanted_by_default(type_, channel) if said is None else bool(said)


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise Invalid(
            "invalid_body",
            f"{name!r} is not a time zone",
            errors={"time_zone": ["an IANA time zone name, such as Europe/Madrid or UTC"]},
        ) from None


def update(boot: Bootstrap, player_id: str, changes: dict[str, Any]) -> dict[str, Any]:
    """Apply validated `changes` (the address is set by `set_address`); return the new
    settings. Unknown types or channels and bad time zones are refused naming the field."""
    settings = load(boot, player_id)
    if "time_zone" in changes:
        zone(changes["time_zone"])
    for type_, channels in (changes.get("types") or {}).items():
        if type_ not in types.CATALOG:
            raise Invalid(
                "invalid_body",
                f"{type_!r} is not a notification type",
                errors={f"types.{type_}": [f"one of: {', '.join(types.NAMES)}"]},
            )
        for channel in channels:
            if channel not in types.CHANNELS:
                raise Invalid(
                    "invalid_body",
                    f"{channel!r} is not a channel",
                    errors={f"types.{type_}.{channel}": [f"one of: {', '.join(types.CHANNELS)}"]},
                )
    merged = {**settings, **{k: v for k, v in changes.items() if k != "types"}}
    kinds = {t: dict(c) for t, c in (settings.get("types") or {}).items()}
    for type_, channels in (changes.get("types") or {}).items():
        kinds.setdefault(type_, {}).update(channels)
    merged["types"] = kinds
    save(boot, player_id, merged)
    return merged


def save(boot: Bootstrap, player_id: str, settings: dict[str, Any]) -> None:
    boot.notify_prefs.keep(player_id, {k: v for k, v in settings.items() if k in DEFAULTS})


def unsubscribe(boot: Bootstrap, player_id: str, type_: str, channel: str) -> None:
    """Turn one type off on one channel (a one-click unsubscribe)."""
    settings = load(boot, player_id)
    settings.setdefault("types", {}).setdefault(type_, {})[channel] = False
    save(boot, player_id, settings)


def _clock(text: str) -> dt.time:
    hour, minute = text.split(":")
    return dt.time(int(hour), int(minute))


def quiet_until(settings: dict[str, Any], now: dt.datetime) -> dt.datetime | None:
    """If `now` (aware) falls in the player's quiet hours, when they end (aware, UTC);
    else None. Quiet hours may span midnight (22:00-08:00)."""
    quiet = settings.get("quiet_hours")
    if not quiet:
        return None
    local = now.astimezone(zone(settings.get("time_zone") or "UTC"))
    start, end = _clock(quiet["start"]), _clock(quiet["end"])
    t = local.time().replace(second=0, microsecond=0, tzinfo=None)
    inside = start <= t < end if start <= end else (t >= start or t < end)
    if not inside:
        return None
    ends = local.replace(hour=end.hour, minute=end.minute, second=0, microsecond=0)
    if ends <= local:
        ends += dt.timedelta(days=1)
    return ends.astimezone(dt.UTC)


def next_local_hour(settings: dict[str, Any], hour: int, now: dt.datetime) -> dt.datetime:
    """The next time (UTC) the player's clock shows `hour`:00."""
    local = now.astimezone(zone(settings.get("time_zone") or "UTC"))
    at = local.replace(hour=hour, minute=0, second=0, microsecond=0)
    if at <= local:
        at += dt.timedelta(days=1)
    return at.astimezone(dt.UTC)


def local_time(settings: dict[str, Any], iso: str) -> str:
    """An ISO time as the player reads it: `2026-11-28 22:05 Europe/Madrid`."""
    name = settings.get("time_zone") or "UTC"
    when = dt.datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(zone(name))
    return f"{when:%Y-%m-%d %H:%M} {name}"
