"""What an organizer reads on a league game's review page (headless Chromium), in English and
in Spanish: the page's headings and verdicts in the page's language, the moves as sentences
naming players by name and cards by their names, never a player id, a card id or an ISO time."""

from __future__ import annotations

import re

from tests.api.league_web import (
    organizer,
    played_league_game,
    sign_in_with_token,
)
from tests.api.web_page import WIDTHS, WebPage, new_player, no_script_errors
from tests.conftest import api_server

__all__ = ["organizer"]  # the fixture, shared

SAID = {
    "en": {
        "h1": "Review: round 1, table 1",
        "#review-disputes": ["Disputes and rulings", "No disputes.", "Rule on a game"],
        "#review-result": ["League points now"],
        "#review-checks": ["Every check passes"],
        "#review-refused": ["No move of this table was refused."],
        "#review-moves": ["The moves", " play in that order; ", "'s turn (round 1)."],
    },
    "es": {
        "h1": "Revisión: ronda 1, mesa 1",
        "#review-disputes": [
            "Reclamaciones y resoluciones",
            "No hay reclamaciones.",
            "Resolver sobre una partida",
        ],
        "#review-result": ["Puntos de liga ahora"],
        "#review-checks": ["Todas las comprobaciones pasan"],
        "#review-refused": ["No se rechazó ninguna jugada de esta mesa."],
        "#review-moves": ["Las jugadas", "Juegan ", ", en ese orden; ", "Turno de "],
    },
}
# English that must not show on the Spanish page (the same places' words)
NOT_IN_SPANISH = [
    "Every check",
    "League points",
    "The moves",
    "turn (round",
    "No disputes",
    " played ",
]


def test_an_organizer_reads_a_games_review_in_english_and_in_spanish(
    browser, redis_url, organizer, worker_process
):
    with api_server(redis_url, MARKETFOLD_OPERATORS=organizer["id"]) as (base, _):
        worker_process()
        page = WebPage(browser, base)
        players = [new_player(base, n) for n in ("Ana", "Bo", "Cy")]
        lid, gid = played_league_game(base, organizer, players, "Review league")
        ids = [p["id"] for p in players] + [organizer["id"]]

        sign_in_with_token(page, organizer["token"])
        for lang, said in SAID.items():
            page.open(f"/?lang={lang}#/l/{lid}/review/{gid}")
            page.wait_for("#review-moves li")
            page.wait(lambda said=said: said["h1"] in page.text("h1"))
            for css, words in said.items():
                if css == "h1":
                    continue
                text = page.text(css)
                for w in words:
                    assert w.lower() in text.lower(), (
                        lang,
                        css,
                        w,
                        text[:600],
                    )  # CSS may upper-case
            moves = page.texts("#review-moves li")
            assert any(re.search(r"\b(Ana|Bo|Cy)\b", m) for m in moves), moves[:10]
            whole = page.text(".review-page")
            for leak in [*ids, "#1", "#2"]:  # a player id, a card id ("dice-bag#3")
                assert leak not in whole, (lang, leak)
            assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", whole), lang
            assert not [m for m in moves if " — " in m and "·" in m], [
                m for m in moves if "·" in m
            ][:5]
            if lang == "es":
                assert not [w for w in NOT_IN_SPANISH if w in whole], [
                    w for w in NOT_IN_SPANISH if w in whole
                ]
            for name, width in WIDTHS.items():
                page.shot(f"league-review-{lang}-{name}", width)
        no_script_errors(page.d)
