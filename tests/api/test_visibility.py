"""Hidden facts stay hidden until the end; the seed commitment lets anyone check the draws."""

import hashlib
import json
import random

import games
from games.rng import Rng
from tests.api.helpers import bearer, by_seat, new_game, new_players, random_action


def play_out(client, gid, seats, rnd):
    while (game := client.get(f"/v1/games/{gid}").get_json())["status"] == "active":
        seat = game["owed"][0]["seat"]
        legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[seat])).get_json()
        res = client.post(
            f"/v1/games/{gid}/actions",
            json=random_action(rnd, legal["actions"]),
            headers=bearer(seats[seat]),
        )
        assert res.status_code == 201
    return game


def test_deck_order_is_hidden_from_seats_and_spectators_until_the_game_ends(client, app):
    players = new_players(client, 3)
    gid = new_game(client, players)
    seats = by_seat(client, gid, players)
    raw = app.extensions["marketfold"].store.read(gid)
    secret = next(e for e in raw if e["visible_to"] != "all")
    assert "salt" in secret
    hidden_order = json.dumps(secret["data"])
    for headers in [{}] + [bearer(p) for p in players]:
        feed = client.get(f"/v1/games/{gid}/events", headers=headers).get_json()["events"]
        shown = next(e for e in feed if e["seq"] == secret["seq"])
        assert shown["redacted"] is True and "salt" not in shown
        assert hidden_order not in json.dumps(feed)
        view = client.get(f"/v1/games/{gid}", headers=headers).get_json()["view"]
        upcoming = secret["data"]["auction_deck"][-1]  # a card deep in the deck, not yet seen
        assert upcoming not in json.dumps(view)
    play_out(client, gid, seats, random.Random(7))
    feed = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    opened = next(e for e in feed if e["seq"] == secret["seq"])
    assert opened["data"] == secret["data"] and "redacted" not in opened


def test_the_revealed_seed_matches_its_commitment_and_re_derives_every_shuffle(client):
    players = new_players(client, 4)
    gid = new_game(client, players)
    play_out(client, gid, by_seat(client, gid, players), random.Random(3))
    log = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    created, ended = log[0], log[-1]
    seed = bytes.fromhex(ended["data"]["seed"])
    assert hashlib.sha256(gid.encode() + seed).hexdigest() == created["data"]["seed_commitment"]
    started = next(e for e in log if e["type"] == "game.Started")
    command = next(e for e in log if e["cause"] == started["cause"])  # its first envelope
    draws = command["draws"]
    rng = Rng(seed, draws[0])
    order = rng.shuffle(range(4))
    assert order == started["data"]["order"]
    game = games.get("goblin-market")
    setup = game.setup(created["data"]["options"], tuple(order), rng)
    assert rng.counter == draws[1]
    logged = [e for e in log if e["seq"] > started["seq"]][: len(setup)]
    assert [(e.type, e.data) for e in setup] == [(e["type"], e["data"]) for e in logged]


def test_names_follow_accept_language(client):
    players = new_players(client, 3)
    gid = new_game(client, players)
    es = client.get(f"/v1/games/{gid}", headers={"Accept-Language": "es-ES,es;q=0.9"}).get_json()
    en = client.get(f"/v1/games/{gid}", headers={"Accept-Language": "fr, en;q=0.5"}).get_json()
    assert es["name"] == "El Mercado de los Duendes" and en["name"] == "Goblin Market"
    rulesets = client.get("/v1/rulesets", headers={"Accept-Language": "es"}).get_json()
    assert rulesets["rulesets"][0]["name"] == "El Mercado de los Duendes"
    assert json.dumps(es["view"]) != json.dumps(en["view"])


def test_ruleset_options_are_described_in_the_callers_language(client):
    es = client.get("/v1/rulesets", headers={"Accept-Language": "es"}).get_json()["rulesets"]
    en = client.get("/v1/rulesets").get_json()["rulesets"]
    assert [r["id"] for r in es] == [r["id"] for r in en]
    for ours, theirs in zip(es, en, strict=True):
        mine, english = ours["options"]["properties"], theirs["options"]["properties"]
        assert mine.keys() == english.keys() and mine  # the same options, same schema
        for name, prop in mine.items():
            assert prop["description"] != english[name]["description"], (ours["id"], name)
            rest = {k: v for k, v in prop.items() if k != "description"}
            assert rest == {k: v for k, v in english[name].items() if k != "description"}
    sly = next(r for r in es if r["id"] == "sorcerous-futures")["options"]["properties"]
    assert sly["sly_excuse"]["description"].startswith("solo con cuatro jugadores")


def test_get_game_carries_its_version_as_etag(client):
    players = new_players(client, 3)
    gid = new_game(client, players)
    res = client.get(f"/v1/games/{gid}")
    assert res.headers["ETag"] == f'"{res.get_json()["version"]}"'
