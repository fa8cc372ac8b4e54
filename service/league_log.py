"""A league's log as the command loop writes it (service.loop.Log): `mf:{l:<id>}:events`
with its `:idem` key, appended by the same script as a game's. A league is folded from its
whole log on every load (leagues are short), in place: the append script is named a
`:snapshot` key too, as for a game, but nothing is ever stored there for a league."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from events import keys
from events.recorder import Append, Log, Writes
from games.base import Event
from leagues.record import League, fold_all
from service import inbox
from service.errors import NotFound
from service.loop import Head, Outcome

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def load(boot: Bootstrap, league_id: str) -> League:
    """Fold a league's log, or raise NotFound."""
    envelopes = boot.store.read_stream(keys.league_events(league_id))
    if not envelopes:
        raise NotFound("league_not_found", f"no league {league_id!r}")
    return fold_all(League(league_id), envelopes)


class LeagueLog:
    """One league's log."""

    kind = "league"

    @property
    def subject(self) -> str:
        return self.league_id

    def __init__(self, boot: Bootstrap, league_id: str):
        self.boot, self.league_id = boot, league_id
        self.log = Log.league(league_id)

    def load(self, idem: str) -> Head[League]:
        league = fold_all(League(self.league_id), self.boot.store.read_stream(self.log.events))
        return Head(league, league.version, league.last_hash)

    def fold(self, state: League, envelopes: list[dict[str, Any]]) -> League:
        return fold_all(state, envelopes)

    def closing(self, new: League, head: Head[League]) -> list[Event]:
        return []

    def append(
        self, head: Head[League], new: League, envelopes: list[dict[str, Any]], idem: str
    ) -> None:
        then = Writes()  # the members' notes (and notifications), written with the append
        inbox.after_league_append(self.boot, new, envelopes, then)
        request = Append(
            self.log, envelopes, expected=head.version, idem=idem, result="1", then=then
        )
        self.boot.store.recorder.append(request)

    def after(self, old: League, new: League) -> None:
        return None

    def outcome(self, state: League, envelopes: list[dict[str, Any]], created: bool) -> Outcome:
        return Outcome(state, envelopes, created, state.version)

    def repeat(self, stored: str, head: Head[League] | None = None) -> Outcome:
        """Answer a command whose idempotency key was used: the league as it is now."""
        return self.outcome(load(self.boot, self.league_id), [], False)
