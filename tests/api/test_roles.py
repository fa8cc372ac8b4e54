"""Roles kept in the store: the first operator made with `marketfold admin grant` on the
configured Redis, then roles granted and revoked through the API, no restart; every 403
names the role missing and how to get it."""

from __future__ import annotations

import subprocess
import sys

from tests.api.helpers import bearer, new_players
from tests.conftest import ROOT, _env
from tests.leagues.helpers import in_seconds, league_body


def admin(redis_url: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", "admin", *args],
        env=_env(redis_url),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_first_operator_is_made_on_the_server_then_grants_organizer_through_the_api(
    client, redis_url
):
    boss, club, ana = new_players(client, 3)
    client.patch("/v1/players/me", json={"handle": "boss"}, headers=bearer(boss))
    res = client.get("/v1/roles", headers=bearer(boss))
    assert res.status_code == 403 and res.mimetype == "application/problem+json"
    assert res.get_json()["code"] == "not_operator"
    assert res.get_json()["missing_role"] == "operator"
    assert "marketfold admin grant" in res.get_json()["detail"]

    done = admin(redis_url, "grant", "Boss", "operator")  # a handle, any case
    assert done.returncode == 0, done.stderr
    assert boss["id"] in done.stdout and "operator" in done.stdout
    assert client.get("/v1/players/me", headers=bearer(boss)).get_json()["roles"] == ["operator"]
    listed = client.get("/v1/roles", headers=bearer(boss)).get_json()["roles"]
    assert listed == [
        {"player": boss["id"], "name": boss["name"], "role": "operator", "source": "store"}
    ]

    body = league_body(start_at=in_seconds(3600))
    refused = client.post("/v1/leagues", json=body, headers=bearer(club))
    assert refused.status_code == 403 and refused.get_json()["code"] == "not_organizer"
    assert refused.get_json()["missing_role"] == "organizer"
    assert "operator" in refused.get_json()["detail"]

    url = f"/v1/players/{club['id']}/roles/organizer"
    assert client.put(url, headers=bearer(ana)).get_json()["code"] == "not_operator"
    granted = client.put(url, headers=bearer(boss))
    assert granted.status_code == 200 and granted.get_json()["roles"] == ["organizer"]
    assert client.put(url, headers=bearer(boss)).get_json()["roles"] == ["organizer"]  # again
    created = client.post("/v1/leagues", json=body, headers=bearer(club))
    assert created.status_code == 201
    assert client.delete(url, headers=bearer(boss)).get_json()["roles"] == []
    again = client.post("/v1/leagues", json=body, headers=bearer(club))
    assert again.status_code == 403 and again.get_json()["code"] == "not_organizer"

    bad = client.put(f"/v1/players/{club['id']}/roles/king", headers=bearer(boss))
    assert bad.status_code == 422 and bad.get_json()["errors"] == {
        "role": ["must be one of ['operator', 'organizer']"]
    }
    missing = client.put("/v1/players/p_nobody/roles/organizer", headers=bearer(boss))
    assert missing.status_code == 404 and missing.get_json()["code"] == "player_not_found"

    out = admin(redis_url, "revoke", boss["id"], "operator")
    assert out.returncode == 0 and client.get("/v1/roles", headers=bearer(boss)).status_code == 403
    assert admin(redis_url, "grant", "nobody-here", "organizer").returncode == 1


def test_an_operator_from_the_setting_cannot_be_revoked_through_the_api(client, app):
    op, other = new_players(client, 2)
    app.config["OPERATORS"] = [op["id"]]
    listed = client.get("/v1/roles", headers=bearer(op)).get_json()["roles"]
    assert listed == [
        {"player": op["id"], "name": op["name"], "role": "operator", "source": "config"}
    ]
    res = client.delete(f"/v1/players/{op['id']}/roles/operator", headers=bearer(op))
    assert res.status_code == 409 and res.get_json()["code"] == "role_from_config"
    url = f"/v1/players/{other['id']}/roles/operator"
    assert client.put(url, headers=bearer(op)).get_json()["roles"] == ["operator"]
    assert client.get("/v1/roles", headers=bearer(other)).status_code == 200  # no restart
    assert client.get("/v1/reports", headers=bearer(other)).status_code == 200  # moderates too
    client.delete(url, headers=bearer(op))
    refused = client.get("/v1/reports", headers=bearer(other))
    assert refused.status_code == 403 and refused.get_json()["missing_role"] == "operator"


def test_a_league_has_organizers_and_co_organizers_run_it(client, app):
    op, club, co, ana = new_players(client, 4)
    app.config["OPERATORS"] = [op["id"]]
    client.put(f"/v1/players/{club['id']}/roles/organizer", headers=bearer(op))
    res = client.post("/v1/leagues", json=league_body(), headers=bearer(club))
    lid = res.get_json()["id"]
    assert res.get_json()["organizers"] == [{"player": club["id"], "name": club["name"]}]
    members = f"/v1/leagues/{lid}/members"
    refused = client.post(members, json={"player": ana["id"]}, headers=bearer(co))
    assert refused.status_code == 403 and refused.get_json()["code"] == "not_league_organizer"
    assert f"/v1/leagues/{lid}/organizers" in refused.get_json()["detail"]
    added = client.post(
        f"/v1/leagues/{lid}/organizers", json={"player": co["id"]}, headers=bearer(club)
    )
    assert added.status_code == 201
    assert [o["player"] for o in added.get_json()["organizers"]] == [club["id"], co["id"]]
    again = client.post(
        f"/v1/leagues/{lid}/organizers", json={"player": co["id"]}, headers=bearer(club)
    )
    assert again.status_code == 409 and again.get_json()["code"] == "already_organizer"
    assert client.post(members, json={"player": ana["id"]}, headers=bearer(co)).status_code == 201
    assert client.post(f"/v1/leagues/{lid}/pause", headers=bearer(op)).status_code == 200
    gone = client.delete(f"/v1/leagues/{lid}/organizers/{club['id']}", headers=bearer(co))
    assert [o["player"] for o in gone.get_json()["organizers"]] == [co["id"]]
    last = client.delete(f"/v1/leagues/{lid}/organizers/{co['id']}", headers=bearer(co))
    assert last.status_code == 409 and last.get_json()["code"] == "last_organizer"
    assert client.post(f"/v1/leagues/{lid}/resume", headers=bearer(club)).status_code == 403
    log = client.get(f"/v1/leagues/{lid}/events").get_json()["events"]
    assert [e["data"]["by"] for e in log if e["type"].startswith("league.Organizer")] == [
        club["id"],
        co["id"],
    ]
