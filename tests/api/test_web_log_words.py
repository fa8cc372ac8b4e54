"""The table's "What just happened" list in words, as the page's own module writes it (run
in headless Chromium): flags read as words a screen reader can say, not as ✓ and ✗."""

from __future__ import annotations

import re

from tests.api.web_page import WebPage

NAMES = "(k, v) => (k === 'seat' ? ['Ana', 'Bo', 'Cy'][v] : String(v))"
# Cy's roll of the goblin die: a King, one less from her cards, counted as Green
ROLL = {"seat": 2, "die": 6, "face": "king", "modifier": -1, "result": "green"}


def _sentences(page: WebPage, events: list[dict], lang: str = "en") -> list[str]:
    page.open(f"/?lang={lang}")
    return page.d.execute_async_script(
        "const [events, done] = arguments;"
        "import('/static/app/log.js').then((m) => {"
        f"  const name = {NAMES};"
        "  done(events.map((ev) => m.sentence(ev, name)));"
        "});",
        events,
    )


def test_flags_and_empty_lists_read_as_words(shared_browser, shared_server):
    said = _sentences(
        WebPage(shared_browser, shared_server),
        [
            {
                "type": "black-market.ProposalPassed",
                "actor": 1,
                "data": {"seat": 1, "forced": False},
            },
            {
                "type": "black-market.ProposalPassed",
                "actor": 1,
                "data": {"seat": 1, "forced": True},
            },
            {
                "type": "black-market.AnswersRevealed",
                "actor": None,
                "data": {
                    "answers": [{"seat": 0, "accept": False}, {"seat": 2, "accept": True}],
                    "acceptors": [],
                },
            },
        ],
    )
    assert said == [
        "Bo proposed no deal.",
        "Bo proposed no deal (out of time).",
        "Nobody took the deal.",
    ]


def test_goods_and_small_objects_read_as_words_not_ellipses(shared_browser, shared_server):
    said = _sentences(
        WebPage(shared_browser, shared_server),
        [
            {
                "type": "black-market.GoodsOffered",
                "actor": None,
                "data": {"offer": {"red": 2, "blue": 0, "green": 1}},
            },
            {
                "type": "gobcon.DieRolled",
                "actor": None,
                "data": {**ROLL, "gp": 3, "counters": 5, "notes": ["second_king_counts_as_green"]},
            },
        ],
    )
    assert said == [
        "On offer for production: 2 red and 1 green.",
        "Cy rolled 6: King, -1 from cards, counts as Green (a second King counts as Green);"
        " +3 Goblin Points on this game (5 in all).",
    ]
    assert not any("…" in s for s in said)


def test_values_read_in_spanish_and_the_score_says_whose_points(shared_browser, shared_server):
    """A Spanish table's log: an auction's format, a deal's mode and partner, why a card left,
    the die's faces in Spanish words; the final score names each player with their points."""
    said = _sentences(
        WebPage(shared_browser, shared_server),
        [
            {
                "type": "sorcerous-futures.AuctionStarted",
                "actor": 0,
                "data": {"seat": 0, "card": "The Castle", "format": "open"},
            },
            {
                "type": "black-market.DealMade",
                "actor": 1,
                "data": {
                    "proposer": 1,
                    "partner": 2,
                    "give": {"red": 1},
                    "take": {"blue": 2},
                    "mode": "wild",
                },
            },
            {
                "type": "black-market.CardRemoved",
                "actor": None,
                "data": {"card": "notary", "reason": "no_bids", "seats": [0, 2]},
            },
            {
                "type": "gobcon.DieRolled",
                "actor": 2,
                "data": {**ROLL, "gp": -1, "counters": 0},
            },
            {
                "type": "goblin-market.GameScored",
                "actor": None,
                "data": {
                    "scores": [
                        {"seat": 0, "score": 4, "positive": 4},
                        {"seat": 1, "score": 5, "positive": 7},
                        {"seat": 2, "score": 1, "positive": 2},
                    ],
                    "winners": [1],
                },
            },
        ],
        lang="es",
    )
    assert said == [
        "Ana subastó The Castle, por puja abierta.",
        "Bo y Cy cerraron un trato: Bo dio 1 rojo a cambio de 2 azules.",
        "Notary salió de la partida: nadie pujó (Ana y Cy).",
        "Cy sacó un 6: Rey, -1 por cartas, cuenta como Verde; -1 PG en esta partida (0 en total).",
        "Puntuación final: Ana 4 puntos, Bo 5 puntos y Cy 1 punto. Gana Bo.",
    ]


def test_the_tables_own_events_read_as_sentences_with_times_a_person_reads(
    shared_browser, shared_server
):
    """A deadline moved, a seat away: names, the reason in words, times as the page's language
    writes them (no ISO 8601, no decision key, no player id)."""
    said = _sentences(
        WebPage(shared_browser, shared_server),
        [
            {
                "type": "game.DeadlineExtended",
                "actor": None,
                "data": {
                    "key": "bid-7",
                    "seats": [0, 2],
                    "old_deadline": "2026-11-28T10:00:00Z",
                    "new_deadline": "2026-11-28T12:30:00Z",
                    "reason": "paused",
                },
            },
            {
                "type": "game.SeatAway",
                "actor": None,
                "data": {
                    "seat": 1,
                    "from": "2026-12-01T00:00:00Z",
                    "until": "2026-12-03T00:00:00Z",
                    "by": "p_abcdefgh",
                },
            },
        ],
        lang="es",
    )
    assert said[0].startswith("Plazo de Ana y Cy prorrogado hasta "), said
    assert said[0].endswith(" (la mesa estuvo en pausa)"), said
    assert said[1].startswith("Bo está ausente desde "), said
    for s in said:
        assert not re.search(r"\d{4}-\d\d-\d\dT|bid-7|p_abc", s), s
