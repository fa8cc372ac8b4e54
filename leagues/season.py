"""A league's whole season as its members would see it now. Pure: no I/O, no clock."""

from __future__ import annotations

from leagues import pairing
from leagues.record import League


def schedule(league: League) -> list[tuple[int, pairing.Round, bool]]:
    """Return every round: (number, tables, started); rounds not started yet are projected
    from the active members and the rounds played (what the workers will pair, unless
    someone withdraws)."""
    s = league.settings
    history = pairing.History.of(league.played())
    out = [(n, rnd, True) for n, rnd in zip(sorted(league.rounds), league.played())]
    for n in range(len(league.rounds) + 1, s["rounds"] + 1):
        rnd = pairing.pair_round(
            league.active(), history, s["seed"], n, s["table_min"], s["table_max"]
        )
        history.add(rnd)
        out.append((n, rnd, False))
    return out
