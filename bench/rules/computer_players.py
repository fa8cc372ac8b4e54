"""The computer players' strength and cost, on the pure rules (no Redis, no HTTP).

    python -m bench.rules.computer_players [--games 200] [--budget 0.05] [--players N]
        [--ruleset goblin-market ...] [--matchups strong-quick strong-random quick-random]
        [--jobs N]

For each ruleset, `--games` whole games per matchup are played in this process with the
rules in games/ (setup, legal, decide, evolve, resolve), one seat of the first level
against the others all of the second: `strong-quick` (the search against the quick
level), `strong-random` (against uniformly random legal moves) and `quick-random`. The
first level's seat moves round the table from game to game (every seat position, the
first player's included). A game won by several seats counts as a share of a win.
Printed per matchup: its win rate with a 95% interval, its share at that table (1 in
the number of players: what a player no better than the others wins), and, for the
strong level, the CPU seconds per decision (mean, 95th percentile) and the searched
samples per decision. `--budget` is the search's budget per decision in CPU seconds of
its thread (so a busy machine does not weaken it; the server's COMPUTER_BUDGET_S is 1 s
of wall-clock time: a smaller budget here keeps the bench short and measures a weaker
player than the server's). `--jobs N` plays the same games in N processes side by side:
each game has its own seed, so the figures do not depend on N.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time

import games
from computer import sample
from computer.policies import quick, uniform
from computer.search import search
from computer.selfplay import new_game, play
from games.base import Game
from games.rng import Rng

MATCHUPS = ("strong-quick", "strong-random", "quick-random")


def play_one(
    game: Game, players: int, seed: int, levels: list[str], budget: float, cost: list
) -> float:
    """Play one game with `levels[seat]` at each seat; return seat 0's share of the win.
    Each strong decision's CPU time and samples are added to `cost`."""
    rng = random.Random(seed)
    draws = Rng(b"bench-%d" % seed)

    def choose(state, seat: int, specs) -> dict:
        level = levels[seat]
        if level == "quick":
            return quick(specs, rng)
        if level != "strong":
            return uniform(specs, rng)
        cpu = time.process_time()
        found = search(
            game,
            seat,
            specs,
            lambda r: sample(game.id, state, seat, r),
            budget,
            rng,
            clock=time.thread_time,
        )
        cost.append((time.process_time() - cpu, found.iterations))
        return found.action

    state = play(game, new_game(game, players, rng, draws), choose, rng, draws)
    winners = game.result(state).winners
    return 1.0 / len(winners) if 0 in winners else 0.0


def play_game(job: tuple[str, int, str, int, float]) -> tuple[float, list]:
    """Play game number `g` of a matchup (a process pool's unit of work); return seat 0's
    share of the win and the strong level's costs."""
    ruleset, players, matchup, g, budget = job
    first, rest = matchup.split("-")
    levels = [rest] * players
    levels[0] = first
    cost: list = []
    # seat 0 sits at every place of the seating order in turn (setup shuffles it)
    share = play_one(games.REGISTRY[ruleset], players, g, levels, budget, cost)
    return share, cost


def run(game: Game, players: int, matchup: str, n: int, budget: float, seed: int, pool=None) -> str:
    started = time.monotonic()
    jobs = [(game.id, players, matchup, seed * 100_003 + g, budget) for g in range(n)]
    played = pool.imap(play_game, jobs) if pool is not None else map(play_game, jobs)
    wins, cost = 0.0, []
    for g, (share, spent) in enumerate(played, 1):
        wins += share
        cost += spent
        if g % 25 == 0 and g < n:  # a long run shows its progress on stderr
            print(f"{game.id} {matchup}: {wins:g} of {g} games", file=sys.stderr, flush=True)
    rate = wins / n
    half = 1.96 * math.sqrt(max(rate * (1 - rate), 1e-9) / n)
    line = (
        f"{game.id:18} {players}p {matchup:14} games {n:4}  win rate {rate:6.1%} "
        f"(95% {max(rate - half, 0):.1%}-{min(rate + half, 1):.1%})  share {1 / players:5.1%}"
    )
    if cost:
        cpus = sorted(c for c, _ in cost)
        p95 = cpus[min(len(cpus) - 1, int(0.95 * len(cpus)))]
        line += (
            f"  CPU/decision mean {statistics.mean(cpus) * 1000:.0f} ms p95 {p95 * 1000:.0f} ms"
            f"  samples/decision {statistics.mean(i for _, i in cost):.0f}"
        )
    return line + f"  ({time.monotonic() - started:.0f} s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per ruleset and matchup")
    parser.add_argument("--budget", type=float, default=0.05, help="search seconds per decision")
    parser.add_argument("--ruleset", nargs="*", default=list(games.REGISTRY))
    parser.add_argument("--players", type=int, help="seats (default: each ruleset's fewest)")
    parser.add_argument("--matchups", nargs="*", default=list(MATCHUPS), choices=MATCHUPS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--jobs", type=int, default=1, help="processes playing games side by side (same games)"
    )
    args = parser.parse_args()
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    for ruleset in args.ruleset:
        game = games.REGISTRY[ruleset]
        players = args.players or game.min_players
        for matchup in args.matchups:
            line = run(game, players, matchup, args.games, args.budget, args.seed, pool)
            print(line, flush=True)


if __name__ == "__main__":
    main()
