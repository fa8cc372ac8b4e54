"""A league's log as the command loop writes it (service.loop.Log): `mf:{l:<id>}:events`
with its `:idem` key, appended by the same script as a game's. A league is folded from its
whole log on every load (leagues are short), in place: the append script is named a
`:snapshot` key too, as for a game, but nothing is ever stored there for a league.

An append stores under its idempotency key "<first> <last> <digest>" (the versions it
wrote, a digest of the request), as a game's does: a repeat is answered from the log as
it stood after `last`; the same key with another request is refused. An event whose
follow-up changes games (service.league_followups) puts that follow-up in the deadline
index with the append, claimed for `CLAIM_S`, so a worker finishes it if the caller dies.
A new league joins the index of leagues with its first append."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from events import keys
from events.recording import Append, Log, Writes
from games.base import Event
from leagues.record import League, fold_all
from service import inbox
from service.errors import Invalid, NotFound
from service.game_log import fingerprint, first_result
from service.league_followups import JOB, needs
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

    def __init__(self, boot: Bootstrap, league_id: str, body: Any = None):
        self.boot, self.league_id = boot, league_id
        self.log = Log.league(league_id)
        self.print = fingerprint(body)

    def load(self, idem: str) -> Head[League]:
        stored = self.boot.leagues.answered(self.league_id, idem) if idem else None
        league = fold_all(League(self.league_id), self.boot.store.read_stream(self.log.events))
        return Head(league, league.version, league.last_hash, stored=stored)

    def fold(self, state: League, envelopes: list[dict[str, Any]]) -> League:
        return fold_all(state, envelopes)

    def closing(self, new: League, head: Head[League]) -> list[Event]:
        return []

    def append(
        self, head: Head[League], new: League, envelopes: list[dict[str, Any]], idem: str
    ) -> None:
        then = Writes()  # the members' notes (and notifications), written with the append
        inbox.after_league_append(self.boot, new, envelopes, then)
        for env in envelopes:  # what it changes in games: done now, or by a worker
            if needs(env):
                self.boot.scheduler.later(JOB, self.league_id, str(env["seq"]), then)
        if head.version == 0:
            self.boot.leagues.index_new(then, self.league_id, time.time())
        first = f"{head.version + 1} {new.version} {self.print}"
        request = Append(
            self.log, envelopes, expected=head.version, idem=idem, result=first, then=then
        )
        self.boot.store.recorder.append(request)

    def after(self, old: League, new: League) -> None:
        return None

    def outcome(self, state: League, envelopes: list[dict[str, Any]], created: bool) -> Outcome:
        return Outcome(state, envelopes, created, state.version)

    def repeat(self, stored: str, head: Head[League] | None = None) -> Outcome:
        """Answer a command whose idempotency key was used: what it appended, and the
        league as it stood right after (a key stored before results were kept: the
        league now)."""
        if " " not in stored:
            return self.outcome(load(self.boot, self.league_id), [], False)
        first, last, digest, *_ = first_result(stored)
        if digest != self.print:
            raise Invalid(
                "idempotency_key_reused", "this Idempotency-Key was used with another body"
            )
        envelopes = self.boot.store.read_stream(self.log.events)[:last]
        then = fold_all(League(self.league_id), envelopes)
        return self.outcome(then, envelopes[first - 1 :], False)
