"""Swagger UI at /docs/: "Try it out" works on every route. Its copy of the spec lists every
path parameter in every operation (Swagger UI leaves path-level `$ref`s unresolved and
sent `/v1/games/{id}` literally) and pre-fills no optional header; in a real browser a
call with a path parameter and the bearer token from the Authorize button succeeds."""

from __future__ import annotations

import re
import time

import pytest
import requests

from api.docs_ui import METHODS, for_ui
from tests.api.browser import By, WebDriverWait
from tests.api.helpers import bearer
from tests.api.openapi_check import spec


def test_every_operation_names_each_of_its_path_parameters():
    ui = for_ui(spec())  # a deep copy: the parsed spec is shared
    for path, item in ui["paths"].items():
        assert "parameters" not in item, path
        wanted = set(re.findall(r"{([^}]+)}", path))
        for method, op in item.items():
            if method not in METHODS:
                continue
            params = op.get("parameters", [])
            assert all("$ref" not in p for p in params), (path, method)
            assert {p["name"] for p in params if p["in"] == "path"} == wanted, (path, method)
            for p in params:
                if p["in"] == "header" and not p.get("required"):
                    assert "example" not in p and "examples" not in p, (path, method, p["name"])


def test_the_docs_page_reads_the_filled_in_copy(client):
    page = client.get("/docs/")
    assert page.status_code == 200
    init = client.get("/docs/swagger-initializer.js") if b"openapi.json" not in page.data else page
    assert b"/docs/openapi.json" in init.data
    ui = client.get("/docs/openapi.json").get_json()
    assert ui["paths"]["/v1/games/{id}"]["get"]["parameters"][0]["name"] == "id"


def _try(driver, op: str, values: dict[str, str]) -> tuple[str, str]:
    block = driver.find_element(By.ID, f"operations-{op.replace('/', '-')}")
    if not block.find_elements(By.CSS_SELECTOR, ".opblock-body"):
        block.find_element(By.CSS_SELECTOR, ".opblock-summary").click()
    WebDriverWait(driver, 10).until(lambda d: block.find_elements(By.CSS_SELECTOR, ".try-out__btn"))
    block.find_element(By.CSS_SELECTOR, ".try-out__btn").click()
    for name, value in values.items():
        block.find_element(By.CSS_SELECTOR, f"tr[data-param-name='{name}'] input").send_keys(value)
    block.find_element(By.CSS_SELECTOR, ".execute").click()
    WebDriverWait(driver, 15).until(
        lambda d: block.find_elements(By.CSS_SELECTOR, ".live-responses-table .response-col_status")
    )
    url = block.find_element(By.CSS_SELECTOR, ".request-url pre").text
    status = block.find_element(By.CSS_SELECTOR, ".live-responses-table tbody .response-col_status")
    return url, status.text.strip()


@pytest.mark.slow
def test_try_it_out_calls_a_route_with_its_path_parameter_and_the_bearer_token(
    browser, live_server
):
    ana, bo = (requests.post(f"{live_server}/v1/players", json={"name": n}).json() for n in "ab")
    game = requests.post(
        f"{live_server}/v1/games", json={"ruleset": "gobcon", "players": 2}, headers=bearer(ana)
    ).json()
    browser.get(f"{live_server}/docs/#/games/get_game")
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".btn.authorize"))
    browser.find_element(By.CSS_SELECTOR, ".btn.authorize").click()
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".modal-ux input"))
    browser.find_element(By.CSS_SELECTOR, ".modal-ux input").send_keys(bo["token"])
    browser.find_element(By.CSS_SELECTOR, ".modal-ux .auth-btn-wrapper .authorize").click()
    browser.find_element(By.CSS_SELECTOR, ".modal-ux .btn-done").click()
    time.sleep(0.3)
    url, status = _try(browser, "games/get_game", {"id": game["id"]})
    assert url.endswith(f"/v1/games/{game['id']}") and status == "200"
    url, status = _try(browser, "games/join_game", {"id": game["id"]})
    assert url.endswith(f"/v1/games/{game['id']}/join") and status == "200"
    seats = requests.get(f"{live_server}/v1/games/{game['id']}").json()["seats"]
    assert [s["player"] for s in seats] == [bo["id"]]  # joined with the token from Authorize
