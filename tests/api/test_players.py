"""Registering players: the token a client gets back."""

from tests.api.helpers import new_players


def test_a_token_can_be_passed_on_a_command_line_as_it_is(client):
    # `marketfold bot --token T` once failed whenever T began with "-" (1 in 64 tokens)
    tokens = [p["token"] for p in new_players(client, 100)]
    assert all(t.startswith("mf_") and not t.startswith("-") for t in tokens)
    assert len(set(tokens)) == 100
    me = client.get("/v1/players/me/turns", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert me.status_code == 200
