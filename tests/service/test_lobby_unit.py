"""The lobby on in-memory ports (the unit tier): every append that changes what the lobby
shows re-indexes the game, pages read newest first behind sealed cursors, unlisted games
show in their players' own lists only, and a game that waited too long is listed nowhere
(service.lobby, service.waiting)."""

from __future__ import annotations

import pytest

from service import game_commands, lobby, waiting
from service.errors import Conflict, Invalid
from tests.service.tables_setup import ANN, BOB, CY, table


def ids(page):
    return [g["id"] for g in page["games"]]


def test_the_lobby_lists_games_newest_first_by_status_and_ruleset(boot):
    first, _ = table(boot)
    second, _ = table(boot, creator=BOB)
    listed = lobby.page(boot, {"limit": 10})["games"]
    assert {g["id"] for g in listed} == {first.game_id, second.game_id}
    assert [g["created_at"] for g in listed] == sorted(
        (g["created_at"] for g in listed), reverse=True
    )
    for p in (BOB, CY):
        game_commands.join(boot, first.game_id, p)
    assert ids(lobby.page(boot, {"limit": 10, "status": "waiting"})) == [second.game_id]
    active = lobby.page(boot, {"limit": 10, "status": "active"})["games"]
    assert [(g["id"], g["seats_taken"]) for g in active] == [(first.game_id, 3)]
    assert ids(lobby.page(boot, {"limit": 10, "ruleset": "gobcon"})) == []
    assert ids(lobby.page(boot, {"limit": 10, "player": CY["id"]})) == [first.game_id]


def test_a_page_ends_with_a_cursor_to_the_next_one(boot):
    made = [table(boot, creator={"id": f"p_{n}", "name": f"P{n}"})[0].game_id for n in range(5)]
    seen, cursor = [], None
    while True:
        page = lobby.page(boot, {"limit": 2, "cursor": cursor})
        seen += ids(page)
        if (cursor := page["next"]) is None:
            break
    assert sorted(seen) == sorted(made) and len(seen) == 5
    with pytest.raises(Invalid) as refused:
        lobby.page(boot, {"limit": 2, "cursor": "not-one-of-ours"})
    assert refused.value.code == "invalid_query" and "cursor" in refused.value.errors


def test_an_unlisted_game_shows_in_its_players_own_list_only(boot):
    rec, _ = table(boot, unlisted=True)
    assert ids(lobby.page(boot, {"limit": 10})) == []
    assert ids(lobby.page(boot, {"limit": 10, "player": ANN["id"]})) == []
    mine = lobby.page(boot, {"limit": 10, "player": ANN["id"], "unlisted": True})
    assert ids(mine) == [rec.game_id] and mine["games"][0]["unlisted"]


def test_the_index_keeps_the_newest_summary_of_a_game(boot):
    rec, _ = table(boot)
    newer = game_commands.join(boot, rec.game_id, BOB).record
    assert not lobby.index(boot, rec)  # an older append finishing late changes nothing
    assert lobby.page(boot, {"limit": 10})["games"][0]["seats_taken"] == 2 == len(newer.seats)


def test_a_player_keeps_at_most_its_share_of_waiting_games(boot):
    boot.config["WAITING_GAMES_PER_PLAYER"] = 2
    first, _ = table(boot)
    table(boot)
    with pytest.raises(Conflict) as refused:
        table(boot)
    assert refused.value.code == "too_many_waiting_games"
    other, _ = table(boot, creator=BOB)
    with pytest.raises(Conflict):  # sitting in a game counts too
        game_commands.join(boot, other.game_id, ANN)
    game_commands.join(boot, first.game_id, BOB)
    game_commands.join(boot, first.game_id, CY)  # started: it waits no more
    assert waiting.count(boot, ANN["id"]) == 1
    table(boot)


def test_a_game_that_waited_too_long_is_listed_nowhere_and_then_cancelled(boot):
    rec, _ = table(boot)
    lapse = ("lapse", rec.game_id, waiting.KEY, waiting.expires_at(boot, rec.created_at))
    assert lapse in boot.scheduler.asked
    boot.config["WAITING_EXPIRE_S"] = 0
    assert ids(lobby.page(boot, {"limit": 10})) == []
    assert waiting.count(boot, ANN["id"]) == 0
    assert waiting.lapse(boot, rec.game_id).record.status == "cancelled"
    assert not waiting.lapse(boot, rec.game_id).created  # a no-op once done
