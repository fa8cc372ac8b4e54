"""Card names and rules texts over the API: the catalogue of every ruleset, and the cards
a seat sees in its view and its legal actions, in the language it asks for."""

from __future__ import annotations

import pytest

import games
from tests.api.helpers import bearer, by_seat, new_game, new_players
from tests.api.openapi_check import check

ES = {"Accept-Language": "es-ES,es;q=0.9"}


@pytest.mark.parametrize("ruleset", sorted(games.REGISTRY))
def test_the_card_catalogue_of_every_ruleset_names_each_card_and_says_what_it_does(client, ruleset):
    english = _catalogue(client, ruleset, {})
    spanish = _catalogue(client, ruleset, ES)
    assert english.status_code == spanish.status_code == 200
    en, es = english.get_json(), spanish.get_json()
    assert (en["lang"], es["lang"], en["ruleset"]) == ("en", "es", ruleset)
    assert [c["id"] for c in en["cards"]] == [c["id"] for c in es["cards"]]
    assert all(c["name"] and c["text"] for c in en["cards"] + es["cards"])
    assert all(a["text"] != b["text"] for a, b in zip(en["cards"], es["cards"], strict=True))


def _catalogue(client, ruleset: str, headers: dict[str, str]):
    res = client.get(f"/v1/rulesets/{ruleset}/cards", headers=headers)
    return check(res, "GET", "/v1/rulesets/{ruleset}/cards")


def test_the_catalogue_of_an_unknown_ruleset_is_a_404_problem(client):
    res = _catalogue(client, "chess", {})
    assert res.status_code == 404 and res.mimetype == "application/problem+json"
    assert res.get_json()["code"] == "ruleset_not_found"


def test_a_gobcon_seat_reads_its_own_cards_names_and_texts_but_no_other_hand(api):
    players = new_players(api.client, 3)
    gid = new_game(api.client, players, "gobcon")
    seats = by_seat(api.client, gid, players)
    game = api.get("/v1/games/{id}", gid, headers={**bearer(seats[0]), **ES}).get_json()
    hand = game["view"]["hand"]
    assert hand and all(card["name"] and card["text"] for card in hand)
    catalogue = {c["id"]: c for c in _catalogue(api.client, "gobcon", ES).get_json()["cards"]}
    for card in hand:
        assert card["text"] == catalogue[card["card"]]["text"]  # Spanish, from the deck data
        assert game["cards"][card["card"]] == {"name": card["name"], "text": card["text"]}
    # the glossary names exactly the cards this seat's view shows, so another hand's
    # cards stay unnamed
    assert set(game["cards"]) == _card_ids(game["view"])
    other = api.get("/v1/games/{id}", gid, headers=bearer(seats[1])).get_json()
    hidden = {c["card"] for c in other["view"]["hand"]} - _card_ids(game["view"])
    assert hidden and not hidden & set(game["cards"])
    spectator = api.get("/v1/games/{id}", gid).get_json()
    assert set(spectator["cards"]) == _card_ids(spectator["view"])


def _card_ids(value) -> set[str]:
    """The GobCon card ids a view shows (each drawn card carries its `card` id)."""
    if isinstance(value, dict):
        own = {value["card"]} if isinstance(value.get("card"), str) else set()
        return own.union(*(_card_ids(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_card_ids(v) for v in value))
    return set()


def test_legal_names_every_card_its_actions_offer_in_the_callers_language(api):
    players = new_players(api.client, 2)
    gid = new_game(api.client, players, "gobcon")
    seats = by_seat(api.client, gid, players)
    active = api.get("/v1/games/{id}", gid).get_json()["owed"][0]["seat"]
    legal = api.get("/v1/games/{id}/legal", gid, headers={**bearer(seats[active]), **ES})
    answer = legal.get_json()
    played = {
        inst.rsplit("#", 1)[0]
        for spec in answer["actions"]
        for choice in spec["choices"] or []
        for inst in [choice.get("card")]
        if inst
    }
    assert played and played <= set(answer["cards"])
    catalogue = {c["id"]: c for c in _catalogue(api.client, "gobcon", ES).get_json()["cards"]}
    for card in played:
        assert answer["cards"][card]["text"] == catalogue[card]["text"]


def test_a_goblin_market_view_names_the_offered_cards_and_says_what_they_do(api):
    players = new_players(api.client, 3)
    gid = new_game(api.client, players, "goblin-market")
    game = api.get("/v1/games/{id}", gid, headers=ES).get_json()
    offer = game["view"]["auction"]["offer"]
    assert offer
    for card in offer:
        assert game["cards"][card["id"]]["name"] == card["name"]
        assert "Como carta de tamaño" in game["cards"][card["id"]]["text"]
