"""Snapshots as data: a game's `Record` as JSON, read back without running any code.

A snapshot is only a cache of the fold, but it is read from Redis by every API and worker
process, so it is plain JSON and never pickle: whoever can write to Redis can spoil a
snapshot (the log is then refolded), not run code. The encoding is exact for what a
record holds: JSON scalars, lists, tuples (`{"__tuple": [...]}`), frozensets
(`{"__frozenset": [...]}`, sorted), dicts (a JSON object
when every key is a string and none is reserved, else `{"__pairs": [[k, v], ...]}`) and
frozen dataclasses (`{"__t": "<module>.<Class>", field: value, ...}`, or `{"__ref": n}`
for an instance already written) of the classes in `KNOWN` only: the record's own and
those reachable from each game's `state` module. A tag names a class of that table,
never a module to import; no constructor runs; anything else fails to decode, and the
caller refolds.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import json
import typing
from typing import Any

import orjson

import games
from events.record import Record, Seat

FORMAT = 2  # 1 was a pickle; a snapshot of any other format is ignored
TAG, TUPLE, PAIRS, REF, FROZEN = "__t", "__tuple", "__pairs", "__ref", "__frozenset"
RESERVED = frozenset((TAG, TUPLE, PAIRS, REF, FROZEN))


def _tag(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _reachable(cls: type, found: dict[str, type]) -> None:
    """Add dataclass `cls` and every dataclass named in its fields' types to `found`."""
    if _tag(cls) in found:
        return
    found[_tag(cls)] = cls
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # a hint that does not resolve: the module scan still lists its types
        hints = {}
    stack = list(hints.values())
    while stack:
        hint = stack.pop()
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            _reachable(hint, found)
        stack.extend(typing.get_args(hint))


def _state_module(game: Any) -> Any:
    """Return the module holding a game's state classes: `<package>.state` for a game
    package (games/README.md), else the module of its rules (a one-file game)."""
    rules = game.setup.__module__
    package = rules.rsplit(".", 1)[0]
    if importlib.util.find_spec(f"{package}.state") is not None:
        return importlib.import_module(f"{package}.state")
    return importlib.import_module(rules)


def _known(rulesets: list[Any]) -> dict[str, type]:
    """Return every class a snapshot may hold, by tag: built from code, never from data."""
    found: dict[str, type] = {}
    _reachable(Record, found)
    _reachable(Seat, found)
    for module in sorted({_state_module(g) for g in rulesets}, key=lambda m: m.__name__):
        for value in vars(module).values():
            if isinstance(value, type) and dataclasses.is_dataclass(value):
                _reachable(value, found)
    return found


KNOWN: dict[str, type] = {}
_FIELDS: dict[type, tuple[str, ...]] = {}
_TAGS: dict[type, str] = {}
_KEYSETS: dict[str, frozenset[str]] = {}
_BUILT_FOR: set[int] = set()


def _tables() -> bool:
    """(Re)build the tables above for the games registered now (a game registered after
    this module was imported, as tests register one, is met at its first snapshot);
    return whether anything changed."""
    rulesets = [*games.REGISTRY.values(), *games.ARCHIVE.values()]
    if {id(g) for g in rulesets} <= _BUILT_FOR:
        return False
    KNOWN.update(_known(rulesets))
    _FIELDS.update({cls: tuple(f.name for f in dataclasses.fields(cls)) for cls in KNOWN.values()})
    _TAGS.update({cls: tag for tag, cls in KNOWN.items()})
    _KEYSETS.update({tag: frozenset((TAG, *_FIELDS[cls])) for tag, cls in KNOWN.items()})
    _BUILT_FOR.update(id(g) for g in rulesets)
    return True


_tables()


class _Encoder:
    """Turns a record into JSON data; a dataclass instance met again (the same object, e.g.
    a GobCon card in both the catalog and the cards in play) becomes `{"__ref": n}`, n
    counting dataclass instances in the order their encoding ends."""

    def __init__(self) -> None:
        self.seen: dict[int, int] = {}
        self.floats = False  # whether a float was met (orjson writes some otherwise)

    def plain(self, value: Any) -> Any:
        kind = type(value)
        if kind is str or kind is int or kind is bool or value is None:
            return value
        if kind is float:
            self.floats = True
            return value
        if kind is tuple:
            return {TUPLE: [self.plain(v) for v in value]}
        if kind is list:
            return [self.plain(v) for v in value]
        if kind is frozenset:
            return {FROZEN: [self.plain(v) for v in sorted(value)]}
        if kind is dict:
            if all(type(k) is str and k not in RESERVED for k in value):
                return {k: self.plain(v) for k, v in value.items()}
            return {PAIRS: [[self.plain(k), self.plain(v)] for k, v in value.items()]}
        if kind in _FIELDS or (_tables() and kind in _FIELDS):
            if (n := self.seen.get(id(value))) is not None:
                return {REF: n}
            attrs = value.__dict__
            out = {TAG: _TAGS[kind]}
            for name in _FIELDS[kind]:
                out[name] = self.plain(attrs[name])
            self.seen[id(value)] = len(self.seen)
            return out
        raise TypeError(f"a snapshot cannot hold a {kind.__qualname__}")


def _decoder() -> Any:
    """Return a json.loads object hook: it rebuilds each JSON object, innermost first."""
    made: list[Any] = []

    def hook(obj: dict[str, Any]) -> Any:
        if TAG in obj:
            tag = obj[TAG]
            cls = KNOWN.get(tag) or (_tables() and KNOWN.get(tag)) or KNOWN[tag]  # KeyError:
            # a class outside the table, the snapshot is refused
            if obj.keys() != _KEYSETS[tag]:
                raise ValueError(f"{tag} with other fields")
            value = object.__new__(cls)
            del obj[TAG]
            value.__dict__.update(obj)
            made.append(value)
            return value
        if len(obj) == 1:
            if REF in obj:
                n = obj[REF]
                if type(n) is not int or not 0 <= n < len(made):
                    raise ValueError("a reference to no instance written before")
                return made[n]
            if TUPLE in obj:
                return tuple(_list(obj[TUPLE]))
            if FROZEN in obj:
                return frozenset(_list(obj[FROZEN]))  # an unhashable member raises
            if PAIRS in obj:
                return {k: v for k, v in _list(obj[PAIRS])}  # an unhashable key raises
        if not RESERVED.isdisjoint(obj):
            raise ValueError("a reserved key in a plain object")
        return obj

    return hook


def _list(value: Any) -> list[Any]:
    if type(value) is not list:
        raise ValueError("a list was expected")
    return value


def encode(record: Record) -> bytes:
    """Return the snapshot of `record`: format, rules version and the record, as JSON
    (Python's encoder's compact ASCII text: orjson writes the same for a record without
    floats or text beyond ASCII, in a tenth of the time)."""
    doc = {"format": FORMAT, "rules_version": record.game.rules_version, "record": record}
    encoder = _Encoder()
    data = encoder.plain(doc)
    if not encoder.floats:
        try:
            text = orjson.dumps(data)
        except TypeError:  # an integer past 64 bits
            text = b"\x80"
        if text.isascii():
            return text
    return json.dumps(data, separators=(",", ":")).encode()


def decode(blob: bytes, version: int) -> Record | None:
    """Return the record of a snapshot stored at `version`, or None if it is not one of
    ours (any other bytes, another format, another rules version, another version)."""
    doc = json.loads(blob, object_hook=_decoder())
    if type(doc) is not dict or doc.get("format") != FORMAT:
        return None
    record = doc.get("record")
    if type(record) is not Record or record.version != version:
        return None
    if doc.get("rules_version") != record.game.rules_version:
        return None
    return record
