"""Cheap abuse through the served API (gunicorn as `marketfold serve` runs it, a real
Redis): names that hide or reorder text, formulas in a spreadsheet download, an empty
Idempotency-Key, a Transfer-Encoding gunicorn does not know (issue #27.6)."""

from __future__ import annotations

import csv
import io
import json

import pytest
import requests

from tests.api.openapi_check import assert_matches
from tests.api.raw_http import exchange
from tests.api.raw_http import request as raw_request
from tests.conftest import api_server
from tests.leagues.helpers import league_body

pytestmark = pytest.mark.slow

REFUSED_NAMES = {
    "control character": "ana\x07",
    "line break": "ana\nbob",
    "right-to-left override": "ana\u202egnp.exe",
    "left-to-right embedding": "\u202aana",
    "first-strong isolate": "ana\u2068",
    "blank": "   ",
    "no-break spaces": "\u00a0\u3000",
    "zero-width only": "\u200b\u200c\u200d\ufeff",
    "Hangul filler": "\u3164\u3164",
    "a lone combining mark": "\u0301",
}
ACCEPTED_NAMES = ["Ana", "José Ñandú", "李小龙", "ana 🎲", "=ana", "👨‍👩‍👧"]


def post_player(base: str, name: str) -> requests.Response:
    return requests.post(f"{base}/v1/players", json={"name": name}, timeout=10)


def test_player_names_follow_the_chat_rules(redis_url, r):
    with api_server(redis_url) as (base, _):
        for why, name in REFUSED_NAMES.items():
            res = post_player(base, name)
            assert res.status_code == 422, (why, res.status_code, res.text)
            problem = res.json()
            assert problem["code"] == "invalid_body" and "name" in problem["errors"], why
            assert_matches("Problem", problem)
        assert not r.keys("mf:player:*")  # nothing stored for a refused name
        for name in ACCEPTED_NAMES:
            res = post_player(base, name)
            assert res.status_code == 201, (name, res.text)
            assert res.json()["name"] == name


def test_standings_csv_cells_that_start_a_formula_are_text(redis_url, tmp_path):
    # an operator registered first, then the service started with it
    with api_server(redis_url) as (base, _):
        op = post_player(base, "operator").json()
    env = {"MARKETFOLD_OPERATORS": op["id"]}
    names = ['=HYPERLINK("http://x","win")', "+1+2", "-3+4", "@SUM(A1)", "plain"]
    with api_server(redis_url, **env) as (base, _):
        auth = {"Authorization": f"Bearer {op['token']}"}
        res = requests.post(f"{base}/v1/leagues", json=league_body(), headers=auth, timeout=10)
        assert res.status_code == 201, res.text
        lid = res.json()["id"]
        for name in names:
            player = post_player(base, name).json()
            added = requests.post(
                f"{base}/v1/leagues/{lid}/members",
                json={"player": player["id"]},
                headers=auth,
                timeout=10,
            )
            assert added.status_code == 201, added.text
        res = requests.get(f"{base}/v1/leagues/{lid}/standings.csv", timeout=10)
        assert res.status_code == 200
        rows = list(csv.DictReader(io.StringIO(res.text)))
        shown = sorted(row["name"] for row in rows)
        assert shown == sorted(
            ['\'=HYPERLINK("http://x","win")', "'+1+2", "'-3+4", "'@SUM(A1)", "plain"]
        )
        # numbers stay numbers: a cell of digits (a rank, points) is not touched
        assert all(row["rank"].isdigit() for row in rows)
        # the JSON standings keep the names as they are
        standings = requests.get(f"{base}/v1/leagues/{lid}/standings", timeout=10).json()
        assert sorted(row["name"] for row in standings["standings"]) == sorted(names)


def test_an_empty_idempotency_key_is_refused_and_writes_nothing(redis_url, r):
    with api_server(redis_url) as (base, _):
        players = [post_player(base, f"p{i}").json() for i in range(3)]
        auth = [{"Authorization": f"Bearer {p['token']}"} for p in players]
        game = requests.post(
            f"{base}/v1/games",
            json={"ruleset": "goblin-market", "players": 3},
            headers=auth[0],
            timeout=10,
        ).json()["id"]
        for a in auth:
            requests.post(f"{base}/v1/games/{game}/join", headers=a, timeout=10)
        version = requests.get(f"{base}/v1/games/{game}", timeout=10).json()["version"]
        tried = 0
        for a in auth:  # whoever owes: every seat tries
            legal = requests.get(f"{base}/v1/games/{game}/legal", headers=a, timeout=10).json()
            for spec in legal.get("actions", []):
                res = requests.post(
                    f"{base}/v1/games/{game}/actions",
                    json={"type": spec["type"]},
                    headers={**a, "Idempotency-Key": ""},
                    timeout=10,
                )
                assert res.status_code == 422, res.text
                problem = res.json()
                assert problem["code"] == "invalid_header"
                assert "Idempotency-Key" in problem["errors"]
                tried += 1
        assert tried
        now = requests.get(f"{base}/v1/games/{game}", timeout=10).json()["version"]
        assert now == version


def test_an_unknown_transfer_encoding_is_400_invalid_header(redis_url):
    with api_server(redis_url) as (_, port):
        for coding in (b"xchunked", b"chunked, xchunked", b"foo"):
            raw = raw_request(
                b"/v1/players",
                b"Transfer-Encoding: " + coding + b"\r\nContent-Type: application/json\r\n",
                b"POST",
                b"\r\n2\r\n{}\r\n0\r\n\r\n",
            )
            status, headers, body = exchange(port, raw)
            assert (status, headers.get("content-type")) == (400, "application/problem+json")
            assert json.loads(body)["code"] == "invalid_header", coding
