"""Pair a league's members into tables, round after round. Pure: no I/O, no clock.

Each round splits the active members into tables of `lo`..`hi` players (as many seated
as the limits allow, then as few tables as possible, sizes as even as possible); members
who cannot be seated sit the round out (a bye), those with the fewest byes first. Tables
are filled by a local search that keeps pairs who met before apart: the cost of a table
is the sum, over its pairs, of WEIGHT ** (times they met before), so a third meeting is
avoided before any second one. Seats rotate: each table's seat 0, 1, ... goes to the
member who held that seat least often. Everything is deterministic given the seed, the
round number and the history; the input order of members does not matter.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

WEIGHT = 8  # how much worse each further meeting of the same pair is
RESTARTS = 12  # random starting assignments per round; the cheapest result wins

Pair = tuple[str, str]


@dataclass(frozen=True)
class Round:
    """One round: tables of member ids in seat order, and the members sitting out."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()


@dataclass
class History:
    """What earlier rounds did, as the pairing needs it."""

    met: Counter[Pair] = field(default_factory=Counter)
    byes: Counter[str] = field(default_factory=Counter)
    seats: Counter[tuple[str, int]] = field(default_factory=Counter)

    @classmethod
    def of(cls, rounds: Iterable[Round]) -> History:
        """Return the history of `rounds`."""
        history = cls()
        for r in rounds:
            history.add(r)
        return history

    def add(self, r: Round) -> None:
        """Count one more round."""
        for table in r.tables:
            self.met.update(pair(a, b) for a, b in combinations(table, 2))
            self.seats.update((m, i) for i, m in enumerate(table))
        self.byes.update(r.byes)


def pair(a: str, b: str) -> Pair:
    """Return the pair of two members in a fixed order."""
    return (a, b) if a < b else (b, a)


def table_sizes(n: int, lo: int, hi: int) -> list[int]:
    """Split `n` players into tables of `lo`..`hi`: seat as many as possible, then use
    as few tables as possible, sizes differing by at most one, larger tables first."""
    for seated in range(n, lo - 1, -1):
        fewest, most = -(-seated // hi), seated // lo
        if fewest <= most:
            base, extra = divmod(seated, fewest)
            return [base + 1] * extra + [base] * (fewest - extra)
    return []


def pair_round(
    members: Iterable[str], history: History, seed: str, number: int, lo: int, hi: int
) -> Round:
    """Return round `number`'s tables for `members` given what earlier rounds did."""
    rng = random.Random(f"{seed}:{number}")
    people = sorted(set(members))
    rng.shuffle(people)  # ties are broken by this seeded order
    sizes = table_sizes(len(people), lo, hi)
    sit_out = len(people) - sum(sizes)
    byes = sorted(history.byes[m] for m in people)
    level = byes[sit_out - 1] if sit_out else -1  # the fewest byes sit out
    must = [m for m in people if history.byes[m] < level]
    flexible = [m for m in people if history.byes[m] == level]
    tables = _search(people, sizes, sit_out, must, flexible, history.met, rng)
    seated = tuple(_seat(t, history.seats) for t in tables[:-1])
    return Round(seated, tuple(sorted(tables[-1])))


def season(
    members: Iterable[str], rounds: int, seed: str, lo: int, hi: int, start: int = 1
) -> list[Round]:
    """Return `rounds` rounds for the same members, each paired after the ones before."""
    history, out = History(), []
    for number in range(start, start + rounds):
        r = pair_round(members, history, seed, number, lo, hi)
        history.add(r)
        out.append(r)
    return out


def meetings(rounds: Iterable[Round], members: Iterable[str]) -> tuple[int, int]:
    """Return (most meetings of any pair, most minus fewest) over every pair of members."""
    met = History.of(rounds).met
    counts = [met[pair(a, b)] for a, b in combinations(sorted(set(members)), 2)]
    return (max(counts), max(counts) - min(counts)) if counts else (0, 0)


def _search(
    people: Sequence[str],
    sizes: Sequence[int],
    sit_out: int,
    must: Sequence[str],
    flexible: Sequence[str],
    met: Counter[Pair],
    rng: random.Random,
) -> list[list[str]]:
    """Return the cheapest tables (and, last, who sits out) found from RESTARTS random
    deals, each improved by swaps. Only `flexible` members may swap with a bye."""
    n, bye = len(people), len(sizes)
    index = {m: i for i, m in enumerate(people)}
    cost = [[WEIGHT ** met[pair(a, b)] if a != b else 0 for b in people] for a in people]
    movable = [m in flexible for m in people]
    floor = sum(s * (s - 1) // 2 for s in sizes)  # every pair new
    best, best_total = None, 0
    for _ in range(RESTARTS if len(sizes) > 1 or (sit_out and len(flexible) > sit_out) else 1):
        where = _deal(people, sizes, sit_out, must, flexible, index, rng)
        _swap_until_stuck(where, cost, bye, movable)
        total = sum(cost[a][b] for a in range(n) for b in range(a) if where[a] == where[b] != bye)
        if best is None or total < best_total:
            best, best_total = where, total
        if best_total == floor:
            break
    assert best is not None
    return [[people[i] for i in range(n) if best[i] == t] for t in range(bye + 1)]


def _deal(people, sizes, sit_out, must, flexible, index, rng: random.Random) -> list[int]:
    """Return a random start: table index per member (len(sizes) for a bye)."""
    spare = list(flexible)
    rng.shuffle(spare)
    out = set(must) | set(spare[: sit_out - len(must)])
    order = [m for m in people if m not in out]
    rng.shuffle(order)
    where = [len(sizes)] * len(people)
    start = 0
    for t, size in enumerate(sizes):
        for m in order[start : start + size]:
            where[index[m]] = t
        start += size
    return where


def _swap_until_stuck(
    where: list[int], cost: list[list[int]], bye: int, movable: list[bool]
) -> None:
    """Swap members of different tables while some swap lowers the total cost; a swap
    with the byes (table `bye`, which costs nothing) needs two `movable` members.

    `near[a][t]` is member a's cost to everyone at table t, so a swap's gain is O(1)."""
    n = len(where)
    near = [[0] * (bye + 1) for _ in range(n)]
    for a in range(n):
        for b in range(n):
            near[a][where[b]] += cost[a][b]
    improved = True
    while improved:
        improved = False
        for a in range(n):
            for b in range(a + 1, n):
                t, u = where[a], where[b]
                if t == u or ((t == bye or u == bye) and not (movable[a] and movable[b])):
                    continue
                stay = (near[a][t] if t != bye else 0) + (near[b][u] if u != bye else 0)
                move = (near[b][t] - cost[b][a] if t != bye else 0) + (
                    near[a][u] - cost[a][b] if u != bye else 0
                )
                if stay <= move:
                    continue
                where[a], where[b] = u, t
                for x in range(n):
                    near[x][t] += cost[x][b] - cost[x][a]
                    near[x][u] += cost[x][a] - cost[x][b]
                improved = True


def _seat(table: Sequence[str], seats: Counter[tuple[str, int]]) -> tuple[str, ...]:
    """Give each seat in turn to the member who held it least often."""
    left, out = list(table), []
    for position in range(len(table)):
        chosen = min(left, key=lambda m: seats[(m, position)])
        left.remove(chosen)
        out.append(chosen)
    return tuple(out)
