"""`marketfold demo`: a whole game played by bots, on a server given or started for it."""

from __future__ import annotations

import shutil
import tempfile
import threading
from typing import Any

import requests

from cli.bot import Bot
from cli.embedded import free_port
from cli.serve import Stack
from cli.strategies import Strategy


def play(
    server: str,
    ruleset: str,
    players: int,
    options: dict[str, Any] | None = None,
    strategy: Strategy | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """Register `players` bots, create and fill a game, play it out; return the final game."""
    http = requests.Session()
    people = [
        http.post(f"{server}/v1/players", json={"name": f"bot-{i + 1}"}).json()
        for i in range(players)
    ]
    created = http.post(
        f"{server}/v1/games",
        json={"ruleset": ruleset, "players": players, "options": options or {}},
        headers={"Authorization": f"Bearer {people[0]['token']}"},
    )
    if created.status_code != 201:
        raise SystemExit(f"could not create the game: {created.json().get('detail')}")
    game_id = created.json()["id"]
    bots = [Bot(server, game_id, p["token"], strategy, seed=seed + i) for i, p in enumerate(people)]
    for bot in bots:  # each commits to a secret of its own (docs/fairness.md)
        bot.join()
    finals: list[dict[str, Any]] = []
    errors: list[BaseException] = []

    def run(bot: Bot) -> None:
        try:
            finals.append(bot.play())
        except BaseException as e:  # reported by the caller
            errors.append(e)

    threads = [threading.Thread(target=run, args=(b,), daemon=True) for b in bots]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return http.get(f"{server}/v1/games/{game_id}").json()


def standings(game: dict[str, Any]) -> str:
    """Return the final standings as a small table."""
    names = {s["seat"]: s["name"] for s in game["seats"]}
    lines = [f"{game['name']} ({game['ruleset']}), game {game['id']}: finished"]
    for row in sorted(game["result"]["standings"], key=lambda r: (r["place"], r["seat"])):
        won = "  winner" if row["seat"] in game["result"]["winners"] else ""
        lines.append(
            f"  {row['place']}. {names[row['seat']]:<8} seat {row['seat']}  "
            f"score {row['score']}{won}"
        )
    return "\n".join(lines)


def run(
    ruleset: str,
    players: int,
    server: str | None,
    options: dict[str, Any] | None,
    strategy: Strategy | None,
    seed: int,
) -> str:
    """Play a demo game, starting a throwaway service when no server is given."""
    stack, data_dir = None, None
    try:
        if not server:
            data_dir = tempfile.mkdtemp(prefix="marketfold-demo-")
            stack = Stack(
                port=free_port(),
                data_dir=data_dir,
                http_workers=1,
                appendfsync="everysec",
                env=_no_redis_env(),
            )
            stack.start()
            stack.wait_ready()
            server = stack.url
        game = play(server, ruleset, players, options, strategy, seed)
        return f"{standings(game)}\nreplay: {server}/games/{game['id']}/replay"
    finally:
        if stack:
            stack.stop()
        if data_dir:
            shutil.rmtree(data_dir, ignore_errors=True)


def _no_redis_env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
