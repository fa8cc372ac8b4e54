"""The service's log says what happened, in ISO times, as text or JSON lines: an access
line per request with its id (echoed in X-Request-Id) and never a token or a query string,
a line for each organizer's and operator's action and each game's end."""

from __future__ import annotations

import json
import logging
import re

import pytest

from cli import logs
from tests.api.helpers import bearer, new_game, new_players
from tests.leagues.helpers import new_league


@pytest.fixture(autouse=True)
def root_logger():
    """Put the root logger back as the test found it."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:], root.level = handlers, level


def lines(capsys) -> list[str]:
    return [line for line in capsys.readouterr().err.splitlines() if line.strip()]


def test_json_lines_name_the_request_and_leave_out_tokens_and_query(client, capsys):
    logs.setup("json")
    players = new_players(client, 3)
    gid = new_game(client, players)
    res = client.get(
        f"/v1/games/{gid}?secret=hush", headers={**bearer(players[0]), "X-Request-Id": "req-42"}
    )
    assert res.headers["X-Request-Id"] == "req-42"
    mine = client.get("/v1/games", headers={"X-Request-Id": "not ok!"}).headers["X-Request-Id"]
    assert re.fullmatch(r"[0-9a-f]{16}", mine)  # a bad id is replaced, not echoed
    client.delete(f"/v1/games/{gid}", headers=bearer(players[0]))  # refused: it started
    records = [json.loads(line) for line in lines(capsys)]
    access = [r for r in records if r["logger"] == "marketfold.access"]
    read = next(r for r in access if r["request_id"] == "req-42")
    assert read["message"] == f"GET /v1/games/{gid} 200" and read["route"] == "/v1/games/<game_id>"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", read["time"])
    assert any(r["request_id"] == mine for r in access)
    text = json.dumps(records)
    assert "hush" not in text and all(p["token"] not in text for p in players)


def test_text_lines_say_league_actions_and_a_games_end(client, app, capsys):
    logs.setup("text")
    op = new_players(client, 1, "op")[0]
    app.config["OPERATORS"] = [op["id"]]
    lid = new_league(client, op, [])
    players = new_players(client, 3)
    gid = new_game(client, players)
    assert client.post(f"/v1/games/{gid}/abort", headers=bearer(op)).status_code == 200
    said = lines(capsys)
    created = next(line for line in said if "league.Created" in line)
    assert re.match(r"\d{4}-\d\d-\d\dT[\d:.]+Z INFO marketfold.events ", created)
    assert f"league {lid}: league.Created by" in created and f"league={lid}" in created
    ended = next(line for line in said if "game.Ended" in line and gid in line)
    assert "'reason': 'aborted'" in ended


def test_a_refused_move_of_a_seated_player_is_a_line(client, capsys):
    logs.setup("text")
    players = new_players(client, 3)
    gid = new_game(client, players)
    game = client.get(f"/v1/games/{gid}").get_json()
    owing = {o["seat"] for o in game["owed"]}
    idle = next(
        p
        for p in players
        if client.get(f"/v1/games/{gid}", headers=bearer(p)).get_json()["you"] not in owing
    )
    res = client.post(f"/v1/games/{gid}/actions", json={"type": "pass"}, headers=bearer(idle))
    assert res.status_code == 409
    code = res.get_json()["code"]
    line = next(x for x in lines(capsys) if "refused" in x and gid in x)
    assert f"refused {code}" in line and f"game={gid}" in line
