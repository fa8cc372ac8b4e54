"""Games stored before the lobby existed, indexed once when a worker starts
(service.backfill), on in-memory ports (the unit tier): they show in the lobby, in their
players' lists and in their profiles' counts (`played`, what GET /v1/players/<id> shows)
after one run, and a second run counts nothing twice."""

from __future__ import annotations

import dataclasses

from events import keys
from events.recording import Writes
from service import backfill, game_commands, lobby, lobby_commands
from tests.service.tables_setup import ANN, BOB, CY, started, table

LOBBY_KEYS = (keys.player_history("\0").split("\0"), keys.player_played("\0").split("\0"))


def before_the_lobby(boot, monkeypatch) -> dict[str, str]:
    """Games played on a server without the lobby: their appends wrote no summary, no
    player's history and no count of finished games. One of each: waiting, finished,
    cancelled."""
    append = boot.store.recorder.append

    def without_lobby_writes(request):
        if request.then is not None:
            then, commands = Writes(), request.then.commands
            then.commands = [c for c in commands if not any(_of(c[1], k) for k in LOBBY_KEYS)]
            request = dataclasses.replace(request, then=then)
        return append(request)

    with monkeypatch.context() as old:
        old.setattr(boot.store.recorder, "append", without_lobby_writes)
        old.setattr(lobby, "index", lambda boot, rec: False)
        waiting, _ = table(boot, creator=BOB)
        finished = started(boot).game_id
        for quitter in (BOB, CY):
            game_commands.resign(boot, finished, quitter["id"])
        cancelled, _ = table(boot)
        lobby_commands.cancel(boot, cancelled.game_id, ANN["id"])
    return {"waiting": waiting.game_id, "finished": finished, "cancelled": cancelled.game_id}


def _of(key, around) -> bool:
    head, tail = around
    return key.startswith(head) and key.endswith(tail)


def listed(boot, **query):
    return {g["id"] for g in lobby.page(boot, {"limit": 50, **query})["games"]}


def test_old_games_are_indexed_once_into_the_lobby_lists_and_profiles(boot, monkeypatch):
    old = before_the_lobby(boot, monkeypatch)
    assert backfill.missing(boot)
    assert listed(boot) == set() and listed(boot, player=BOB["id"]) == set()
    assert boot.players.played(BOB["id"]) == {}
    assert backfill.run(boot) == 2  # the cancelled one: summarized, shown nowhere
    assert not backfill.missing(boot)
    assert listed(boot) == {old["waiting"], old["finished"]}
    assert listed(boot, player=BOB["id"]) == {old["waiting"], old["finished"]}
    assert listed(boot, player=ANN["id"]) == {old["finished"]}
    for p in (ANN, BOB, CY):  # the finished game, counted for each of its players
        assert boot.players.played(p["id"]) == {"goblin-market": 1}
    assert backfill.run(boot) == 0  # a second worker starting: nothing twice
    assert boot.players.played(ANN["id"]) == {"goblin-market": 1}


def test_of_two_workers_starting_together_one_counts_each_game(boot, monkeypatch):
    before_the_lobby(boot, monkeypatch)
    assert backfill.run(boot) == 2  # the first worker
    # the second looked before the first wrote the summaries: games missing, none known
    monkeypatch.setattr(boot.lobby, "summarized", lambda: 0)
    monkeypatch.setattr(boot.lobby, "summaries", lambda game_ids: [None] * len(game_ids))
    assert backfill.run(boot) == 0  # the lobby refuses the versions it holds
    assert boot.players.played(ANN["id"]) == {"goblin-market": 1}
