"""Answers that are easy to forget in a spec: each is documented where the server gives it."""

import random

from tests.api.helpers import by_seat, new_game, new_players, play_to_end
from tests.api.openapi_check import check


def test_a_finished_games_stream_resumed_at_its_end_is_a_documented_204(client, app):
    people = new_players(client, 3)
    gid = new_game(client, people)
    play_to_end(client, app, gid, by_seat(client, gid, people), random.Random(3))
    version = client.get(f"/v1/games/{gid}").get_json()["version"]
    url = f"/v1/games/{gid}/events/stream"
    done = check(
        client.get(url, headers={"Last-Event-ID": str(version)}), "GET", url.replace(gid, "{id}")
    )
    assert done.status_code == 204 and done.data == b""
    resumed = check(client.get(f"{url}?after={version - 1}"), "GET", "/v1/games/{id}/events/stream")
    assert resumed.status_code == 200 and f"id: {version}\n" in resumed.get_data(as_text=True)


def test_a_revalidated_replay_page_is_a_documented_304(client):
    people = new_players(client, 3)
    gid = new_game(client, people)
    page = check(client.get(f"/games/{gid}/replay"), "GET", "/games/{id}/replay")
    again = client.get(f"/games/{gid}/replay", headers={"If-None-Match": page.headers["ETag"]})
    assert check(again, "GET", "/games/{id}/replay").status_code == 304
