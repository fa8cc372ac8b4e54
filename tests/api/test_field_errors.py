"""Every 422 names its fields one way: a flat map from a path (`points[0]`,
`options.goal`, `_body`) to what is wrong there, as the Problem schema says."""

from tests.api.helpers import bearer, new_players
from tests.api.openapi_check import check_response
from tests.leagues.helpers import league_body, operator


def test_errors_inside_a_list_are_named_by_index(client, app):
    op = operator(client, app)
    res = client.post("/v1/leagues", json=league_body(points=["x", 1, -3]), headers=bearer(op))
    assert res.status_code == 422
    problem = res.get_json()
    assert problem["errors"] == {
        "points[0]": ["Not a valid number."],
        "points[2]": ["Must be greater than or equal to 0 and less than or equal to 1000."],
    }
    check_response("post", "/v1/leagues", 422, problem)


def test_a_body_of_the_wrong_kind_is_named_body(client):
    for body in ([{"name": "ana"}], "ana", 7):
        res = client.post("/v1/players", json=body)
        assert res.status_code == 422
        assert res.get_json()["errors"] == {"_body": ["Invalid input type."]}
        check_response("post", "/v1/players", 422, res.get_json())


def test_an_option_and_a_field_are_named_by_their_path(client):
    (ana,) = new_players(client, 1)
    res = client.post(
        "/v1/games",
        json={"ruleset": "gobcon", "players": 2, "options": {"goal": 3}},
        headers=bearer(ana),
    )
    assert res.status_code == 422
    assert list(res.get_json()["errors"]) == ["options.goal"]
    res = client.post("/v1/games", json={"ruleset": 5, "players": "2"}, headers=bearer(ana))
    assert res.get_json()["errors"] == {
        "players": ["Not a valid integer."],
        "ruleset": ["Not a valid string."],
    }
