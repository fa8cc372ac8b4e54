"""The "How to play" pages (`GET /rules/<ruleset>`): one per game, in English and Spanish,
under the web client's strict Content-Security-Policy; an unknown game is a problem."""

from __future__ import annotations

import pytest

RULESETS = ["goblin-market", "sorcerous-futures", "gobcon", "black-market"]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(("lang", "words"), [("en", "how to play"), ("es", "cómo se juega")])
def test_each_game_has_a_how_to_play_page_in_both_languages(client, ruleset, lang, words):
    res = client.get(f"/rules/{ruleset}?lang={lang}")
    assert res.status_code == 200
    page = res.get_data(as_text=True)
    assert f'<html lang="{lang}">' in page and words in page.lower()
    assert "default-src 'none'" in res.headers["Content-Security-Policy"]
    assert "<script" not in page  # nothing to run: words only
    # the other language is one link away
    other = "es" if lang == "en" else "en"
    assert f'href="/rules/{ruleset}?lang={other}"' in page


def test_the_browser_language_picks_the_page(client):
    res = client.get("/rules/gobcon", headers={"Accept-Language": "es-ES,es;q=0.9"})
    assert res.headers["Content-Language"] == "es" and "Tu turno" in res.get_data(as_text=True)


def test_an_unknown_game_has_no_rules_page(client):
    res = client.get("/rules/chess")
    assert res.status_code == 404
    assert res.headers["Content-Type"].startswith("application/problem+json")


def test_an_unknown_language_is_refused_by_name(client):
    res = client.get("/rules/gobcon?lang=fr")
    assert res.status_code == 422 and res.get_json()["errors"] == {"lang": ["one of en, es"]}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_how_to_play_page_reads_well_on_a_phone_and_a_desktop(
    shared_browser, shared_server, lang
):
    from tests.api.web_page import WIDTHS, WebPage

    page = WebPage(shared_browser, shared_server)
    shared_browser.get(f"{shared_server}/rules/black-market?lang={lang}")
    page.wait_for("main h1")
    for name, width in WIDTHS.items():
        page.shot(f"rules-black-market-{lang}-{name}", width)
        shared_browser.set_window_size(width, 900)
        wide = shared_browser.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert wide <= 0
        found = page.axe(every=True)
        assert not found, [(v["id"], v["nodes"]) for v in found]
