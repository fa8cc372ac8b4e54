"""Declared event types: each game lists its events once (`games/<game>/events.py`), and
builds, applies and redacts them through that list.

A stored event's type is `<game id>.<Name>` and its data holds the declared fields;
once written, neither changes (a new shape needs a new name or an upcaster).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.base import ALL, Event, Seat

Data = dict[str, Any]
Handler = Callable[[Any, Data], Any]


@dataclass(frozen=True)
class EventType:
    """One kind of event: its data fields; for a secret one, who sees it in full (`secret`,
    a note for readers) and what every other seat learns: the `public` fields and, for
    each (key, field) of `sizes`, the length of a hidden list."""

    fields: tuple[str, ...]
    secret: str | None = None
    public: tuple[str, ...] = ()
    sizes: tuple[tuple[str, str], ...] = ()


def unchanged(state: Any, data: Data) -> Any:
    """Apply an event that only records a fact: the state stays as it is."""
    return state


class EventCatalog:
    """The events of one game, by name (without the game's prefix)."""

    def __init__(self, game_id: str, types: Mapping[str, EventType]):
        self.game_id = game_id
        self.prefix = game_id + "."
        self.types = dict(types)

    def event(self, name: str, visible_to: str | tuple[Seat, ...] = ALL, **data: Any) -> Event:
        """Build the event `name` (past tense) with JSON-safe `data`; it must be declared."""
        if name not in self.types:
            raise KeyError(f"{self.game_id} declares no event {name!r}")
        return Event(type=self.prefix + name, data=data, visible_to=visible_to)

    def evolver(
        self, apply: Mapping[str, Handler], after: Callable[[Any], Any] | None = None
    ) -> Callable[[Any, Event], Any]:
        """Return the game's `evolve`: each declared event goes to its handler in `apply`
        (then through `after`, when given); any other type leaves the state unchanged.
        Fail at import unless `apply` handles exactly the declared events."""
        missing, extra = set(self.types) - set(apply), set(apply) - set(self.types)
        if missing or extra:
            raise TypeError(
                f"{self.game_id}: no handler for {sorted(missing)}, undeclared {sorted(extra)}"
            )
        handlers, prefix = dict(apply), self.prefix

        def evolve(state: Any, ev: Event) -> Any:
            """Apply one event; types this game does not declare leave the state unchanged."""
            name = ev.type[len(prefix) :] if ev.type.startswith(prefix) else ""
            handler = handlers.get(name)
            if handler is None:
                return state
            new = handler(state, ev.data)
            return new if after is None else after(new)

        evolve.handlers = handlers  # type: ignore[attr-defined]
        return evolve

    def redact(self, ev: Event, seat: Seat | None) -> dict[str, Any]:
        """Return what `seat` may know of `ev`: all of it when visible to it, else the
        public part its declaration names."""
        if ev.visible_to == ALL or (seat is not None and seat in ev.visible_to):
            return dict(ev.data)
        declared = self.types.get(ev.type.rsplit(".", 1)[-1])
        if declared is None:
            return {}
        out = {k: ev.data[k] for k in declared.public if k in ev.data}
        out.update({key: len(ev.data[field]) for key, field in declared.sizes})
        return out
