"""THE schema of an exported bundle (`SCHEMA`): its format, the game, each event envelope
(with the data of `game.Created` and `game.Ended`), the signature and the transparency
receipt. `openapi.yaml` publishes the same one (tests/events/test_bundle.py checks they
match); events.bundle holds every bundle to it, with the bounds JSON Schema cannot say.
"""

from __future__ import annotations

from typing import Any

from events import catalog

FORMAT = "marketfold-bundle/1"
MAX_EVENTS = 20_000  # a 6-player GobCon game logs about 2,000

HEX64 = "^[0-9a-f]{64}$"
# a date-time of years 1000-2999 (a deadline can be added to it); the audit checks that it
# is the server's own form (UTC, milliseconds)
AT = r"^[12][0-9]{3}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9](\.[0-9]{1,6})?(Z|[+-][0-9]{2}:[0-9]{2})$"  # noqa: E501
SEAT_NUMBER = {"type": "integer", "minimum": 0}
SEAT = {
    "type": "object",
    "required": ["seat", "player", "name"],
    "properties": {
        "seat": SEAT_NUMBER,
        "player": {"type": "string"},
        "name": {"type": "string"},
        # a computer player's level (bundles exported before computer players have none)
        "computer": {
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["level"],
                    "properties": {"level": {"type": "string"}},
                    "additionalProperties": False,
                },
            ]
        },
    },
    "additionalProperties": False,
}
CREATED = {
    "type": "object",
    "required": [
        "ruleset",
        "rules_version",
        "players",
        "options",
        "decision_timeout_s",
        "seed_commitment",
    ],
    "properties": {
        "game_id": {"type": "string"},
        "ruleset": {"type": "string"},
        "rules_version": {"type": "integer", "minimum": 1},
        "players": {"type": "integer", "minimum": 1, "maximum": 64},
        "options": {"type": "object", "additionalProperties": True},
        "decision_timeout_s": {"type": ["integer", "null"], "minimum": 1, "maximum": 2592000},
        "time_model": {"type": "integer", "minimum": 1},  # absent: 1 (events.deadlines)
        "seed_commitment": {"type": "string", "pattern": HEX64},
        "creator": {"type": "string"},
        "league": {"type": "object", "additionalProperties": True},
        "seed_rule": {"type": "integer", "minimum": 1},
        "reveal_window_s": {"type": ["integer", "null"], "minimum": 0},
    },
}
ENDED = {
    "type": "object",
    "required": ["result", "seed"],
    "properties": {
        "result": {"type": "object", "additionalProperties": True},
        "seed": {"type": "string"},
    },
}


def _when(field: str, value: str, then: dict[str, Any]) -> dict[str, Any]:
    return {
        "if": {"required": [field], "properties": {field: {"const": value}}},
        "then": then,
    }


COMMAND = {
    "type": "object",
    "required": ["type"],
    "properties": {
        "type": {
            "enum": [
                "create",
                "join",
                "leave",
                "cancel",
                "lapse",
                "act",
                "expire",
                "resolve",
                "resign",
                "abort",
                "extend",
                "abort_early",
                "claim",
                "decline",
                "release",
                "substitute",
                "pause",
                "resume",
                "away",
                "reveal",
                "close_reveals",
            ]
        },
        "player": {"type": "string"},
        "name": {"type": "string"},
        "action": {
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"type": "string"}},
        },
        "key": {"type": "string"},
        "at": {"type": "string"},
        "rule": {"type": "integer", "minimum": 1},
    },
    "allOf": [
        _when("type", "join", {"required": ["player"]}),
        _when("type", "leave", {"required": ["player"]}),
        _when("type", "cancel", {"required": ["player"]}),
        _when("type", "act", {"required": ["player", "action"]}),
        _when("type", "expire", {"required": ["key"]}),
        _when("type", "resolve", {"required": ["key"]}),
        _when("type", "abort_early", {"required": ["player"]}),
        _when("type", "claim", {"required": ["player", "at"]}),
        _when("type", "decline", {"required": ["player"]}),
        _when("type", "substitute", {"required": ["player", "name", "seat", "by"]}),
        _when("type", "pause", {"required": ["by"]}),
        _when("type", "resume", {"required": ["by", "at"]}),
        _when("type", "away", {"required": ["seat", "from", "until", "by"]}),
        _when("type", "reveal", {"required": ["player", "secret"]}),
    ],
}
EVENT = {
    "type": "object",
    "required": ["seq", "type", "data", "actor", "at", "cause", "visible_to", "prev", "hash"],
    "properties": {
        "seq": {"type": "integer", "minimum": 1},
        "type": {"type": "string"},
        "data": {"type": "object", "additionalProperties": True},
        "actor": {
            "oneOf": [
                SEAT_NUMBER,
                {"type": "string", "enum": ["system"]},
                {"type": "string", "enum": ["hidden"]},  # a private event's placeholder
            ]
        },
        "at": {"type": "string", "pattern": AT},
        "cause": {"type": "string"},
        "visible_to": {
            "oneOf": [
                {"type": "string", "enum": ["all"]},
                {"type": "array", "items": SEAT_NUMBER, "maxItems": 64},
            ]
        },
        "prev": {"type": "string", "pattern": HEX64},
        "hash": {"type": "string", "pattern": HEX64},
        "command": COMMAND,
        "draws": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0},
            "minItems": 2,
            "maxItems": 2,
        },
        "salt": {"type": "string"},
        "private": {"type": "integer", "minimum": 1},
        "redacted": {"type": "boolean"},
        # an event stream's turn signal, published with the Event schema; never exported
        "owes": {"type": "array", "items": {"type": "object", "additionalProperties": True}},
    },
    "additionalProperties": False,
    "allOf": [
        _when("type", catalog.CREATED, {"properties": {"data": CREATED}}),
        _when("type", catalog.ENDED, {"properties": {"data": ENDED}}),
    ],
}
SIGNATURE = {
    "type": "object",
    "required": ["alg", "kid", "statement", "value"],
    "properties": {
        "alg": {"type": "string"},
        "kid": {"type": "string"},
        "statement": {"type": "string"},
        "value": {"type": "string"},
    },
    "additionalProperties": False,
}
TREE_HEAD = {
    "type": "object",
    "required": ["size", "root", "at", "signature"],
    "properties": {
        "size": {"type": "integer", "minimum": 0},
        "root": {"type": "string", "pattern": HEX64},
        "at": {"type": "string", "pattern": AT},
        "signature": SIGNATURE,
    },
    "additionalProperties": False,
}
RECEIPT = {
    "type": "object",
    "required": ["tree_head", "leaves"],
    "properties": {
        "tree_head": TREE_HEAD,
        "leaves": {
            "type": "array",
            "maxItems": 3,
            "items": {
                "type": "object",
                "required": ["index", "leaf", "path"],
                "properties": {
                    "index": {"type": "integer", "minimum": 0},
                    "leaf": {"type": "string"},
                    "path": {
                        "type": "array",
                        "maxItems": 64,
                        "items": {"type": "string", "pattern": HEX64},
                    },
                },
                "additionalProperties": False,
            },
        },
    },
    "additionalProperties": False,
}
SCHEMA = {
    "type": "object",
    "required": ["format", "game", "events"],
    "properties": {
        "format": {"const": FORMAT},
        "game": {
            "type": "object",
            "required": ["id"],
            "properties": {
                "id": {"type": "string"},
                "ruleset": {"type": "string"},
                "rules_version": {"type": ["integer", "null"]},
                "status": {"enum": ["waiting", "active", "finished", "cancelled"]},
                "players": {"type": "integer"},
                "options": {"type": "object", "additionalProperties": True},
                "seats": {"type": "array", "items": SEAT},
                "version": {"type": "integer"},
                "decision_timeout_s": {"type": ["integer", "null"]},
                "league": {"type": ["object", "null"], "additionalProperties": True},
            },
        },
        "events": {"type": "array", "minItems": 1, "maxItems": MAX_EVENTS, "items": EVENT},
        "private": {"type": "array", "maxItems": MAX_EVENTS, "items": EVENT},
        "seed": {"type": ["string", "null"]},
        "chat": {"type": "array", "items": {"type": "object", "additionalProperties": True}},
        "signature": SIGNATURE,
        "transparency": RECEIPT,
    },
}
