"""The replay viewer: a page per game that draws the table after each event, from the public API
(what the page is served with and what it may fetch)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urljoin

from tests.api.replay_helpers import (
    ASSET,
    OTHER_HOST,
    PAGE_TYPES,
    assert_nothing_hidden,
    finished_game,
    game_in_play,
)


def test_the_page_and_its_assets_are_served_with_their_types_and_name_no_other_host(client, app):
    gid, _ = finished_game(client, app)
    page_url = f"http://localhost/games/{gid}/replay"
    page = client.get(page_url)
    assert page.status_code == 200
    assert page.headers["Content-Type"] == "text/html; charset=utf-8"
    policy = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "connect-src 'self'" in policy
    html = page.get_data(as_text=True)
    assets = [a for a in ASSET.findall(html) if not a.startswith("data:")]  # data: is the icon
    assert {Path(a).suffix for a in assets} == {".css", ".js"}
    assert not OTHER_HOST.findall(html)
    for asset in assets:
        url = urljoin(page_url, asset)
        assert url.startswith("http://localhost/static/replay/")
        res = client.get(url)
        assert res.status_code == 200, url
        assert res.mimetype == PAGE_TYPES[Path(asset).suffix]
        assert not OTHER_HOST.findall(res.get_data(as_text=True)), asset


def test_the_page_is_a_404_problem_for_an_unknown_or_malformed_game(client):
    for gid in ["g_nope", "bad.id", "x" * 65]:
        res = client.get(f"/games/{gid}/replay")
        assert res.status_code == 404
        assert res.mimetype == "application/problem+json"
        assert res.get_json()["code"] in {"game_not_found", "not_found"}


# --- (c) a spectator's data during play -----------------------------------------------------


def test_during_play_what_the_page_fetches_without_a_token_shows_only_public_facts(client, app):
    gid, _ = game_in_play(client)
    raw = app.extensions["marketfold"].store.read(gid)
    log = client.get(f"/v1/games/{gid}/events")
    bodies = [log.get_data(as_text=True)]
    for at in range(1, log.get_json()["version"] + 1):
        state = client.get(f"/v1/games/{gid}/state?at={at}")
        assert "views" not in state.get_json()  # every seat's view opens only at the end
        bodies.append(state.get_data(as_text=True))
    assert_nothing_hidden(raw, bodies)


# --- (b) the page in a real browser ---------------------------------------------------------
