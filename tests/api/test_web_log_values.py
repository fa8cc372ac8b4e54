"""Every value the table's log shows is a word of the page in both languages: each of the four
games is played to its end (random legal moves, tests/games/playout.py), every event goes
through the page's own log module (api/static/app/log.js, run by Node: tests/web/
log_render.mjs), and

- every string an event carries that is not a card (named by the card list) nor a colour of
  goods has words in English and in Spanish (words_values.js: "format open" is "puja abierta",
  not "formato open");
- the final score names every player with their points, in both languages;
- no Spanish sentence keeps an English value or a bare seat number."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from typing import Any

import pytest

from games import REGISTRY
from tests.conftest import ROOT
from tests.games.playout import playout

SEATS = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]
GOODS = {"red", "yellow", "green", "blue", "purple", "orange"}
SKIPPED = {"id", "key", "legs"}  # fields the log leaves out (internal ids, a deal's legs)
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d")


def _games() -> list[tuple[str, int, dict[str, Any]]]:
    return [
        ("goblin-market", 3, {"edition": "en"}),
        ("goblin-market", 4, {"edition": "es", "courts": False}),
        ("sorcerous-futures", 3, {}),
        ("sorcerous-futures", 4, {"sly_excuse": True}),
        ("black-market", 3, {"trade": "regulated"}),
        ("black-market", 4, {"trade": "wild"}),
        ("gobcon", 3, {}),
        ("gobcon", 4, {"end_on_empty_deck": True, "time_limit": 3}),
    ]


def _strings(field: str, value: Any, out: set[tuple[str, str]]) -> None:
    """The (field, string) pairs the log would show of one value."""
    if isinstance(value, str):
        out.add((field, value))
    elif isinstance(value, list):
        for x in value:
            _strings(field, x, out)
    elif isinstance(value, dict) and "name" not in value:  # an object with a name shows it
        for f, x in value.items():
            if f not in SKIPPED:
                _strings(f, x, out)


def _render(
    events: list[dict], glossary: dict, values: list[tuple[str, str]], seats: list[str] = SEATS
) -> dict:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    run = subprocess.run(
        [
            node,
            "--experimental-detect-module",
            "--no-warnings",
            str(ROOT / "tests/web/log_render.mjs"),
        ],
        input=json.dumps(
            {"seats": seats, "glossary": glossary, "events": events, "values": values}
        ),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


@pytest.mark.parametrize(("ruleset", "players", "options"), _games())
def test_every_value_of_every_event_is_said_in_both_languages(ruleset, players, options):
    game = REGISTRY[ruleset]
    events, pairs = [], set()
    for seed in range(3):
        run = playout(game, players, seed, options)
        for ev in run.events:
            events.append({"type": ev.type, "actor": None, "data": ev.data})
            for field, value in ev.data.items():
                if field not in SKIPPED:
                    _strings(field, value, pairs)
    full = game.normalize_options(options, players)
    cards = {c["id"] for c in game.card_catalogue(full, "en")}
    glossary = {
        lang: {c["id"]: {"name": c["name"]} for c in game.card_catalogue(full, lang)}
        for lang in ("en", "es")
    }
    values = sorted(
        (f, v)
        for f, v in pairs
        if v not in GOODS and not TIME.match(v) and re.sub(r"#\d+$", "", v) not in cards
    )
    said = _render(events, glossary, values)
    unsaid = [
        (lang, f, v)
        for lang in ("en", "es")
        for (f, v), words in zip(values, said[lang]["values"], strict=True)
        if not words
    ]
    assert not unsaid, f"values with no words: {unsaid}"
    spanish = said["es"]["sentences"]
    for (f, v), words in zip(values, said["es"]["values"], strict=True):
        if words != v and len(v) > 2:  # a value whose Spanish differs must not show as its id
            leaked = [s for s in spanish if re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", s)]
            assert not leaked, (f, v, leaked[:3])
    # seats are names: no "seat 2", no bare small number after a seat field's name (a number
    # followed by what it counts, "a cambio de 2 rojos", is not a seat)
    seatish = re.compile(
        r"\b(asientos?|de|para|socio|empieza|abre|objetivo|responden|pueden) [0-5]\b(?! \w)"
    )
    assert not [s for s in spanish if seatish.search(s)], [s for s in spanish if seatish.search(s)][
        :5
    ]


def test_the_final_score_names_each_player_with_their_points():
    scored = {
        "type": "black-market.GameScored",
        "actor": None,
        "data": {
            "scores": [
                {"seat": 0, "total": 15, "cubes": 3, "cards": 3, "card_points": 6},
                {"seat": 1, "total": 21, "cubes": 5, "cards": 2, "card_points": 3},
                {"seat": 2, "total": 1, "cubes": 0, "cards": 0, "card_points": 0},
            ],
            "winners": [1],
            "reason": "supply",
        },
    }
    finished = {
        "type": "gobcon.GameFinished",
        "actor": None,
        "data": {
            "reason": "goal",
            "scores": [
                {"seat": 0, "score": 20, "counters": 2},
                {"seat": 1, "score": 20, "counters": 13},
            ],
            "winners": [0, 1],
        },
    }
    said = _render([scored, finished], {"en": {}, "es": {}}, [])
    assert said["en"]["sentences"] == [
        "Final score (a colour's supply ran out): Ana 15 points, Bo 21 points"
        " and Cy 1 point. Winner: Bo.",
        "Final score (someone reached the goal): Ana 20 points and Bo 20 points."
        " Winners: Ana and Bo.",
    ]
    assert said["es"]["sentences"] == [
        "Puntuación final (se agotó la reserva de un color): Ana 15 puntos, Bo 21 puntos"
        " y Cy 1 punto. Gana Bo.",
        "Puntuación final (alguien alcanzó la meta): Ana 20 puntos y Bo 20 puntos. Ganan Ana y Bo.",
    ]


def test_a_sentence_that_opens_with_a_name_keeps_the_name_as_the_player_wrote_it():
    passed = {"type": "goblin-market.BidPassed", "actor": None, "data": {"seat": 0}}
    bid = {"type": "goblin-market.BidPlaced", "actor": None, "data": {"seat": 1, "amount": 2}}
    said = _render([passed, bid], {"en": {}, "es": {}}, [], seats=["zoe", "Bo"])
    assert said["en"]["sentences"][0].startswith("zoe passed")
    assert said["en"]["sentences"][1].startswith("Bo bid 2")
    assert said["es"]["sentences"][0].startswith("zoe ")


def test_the_tables_own_events_are_sentences_that_name_the_players():
    """game.* lines read as sentences with names, not as event names ("Seed revealed")."""
    events = [
        {"type": "game.Created", "actor": None, "data": {"creator": "p_x"}},
        {
            "type": "game.Terms",
            "actor": None,
            "data": {"unlisted": True, "reserved_until": "2026-11-28T10:00:00Z"},
        },
        {"type": "game.InvitationDeclined", "actor": None, "data": {"player": "p_y"}},
        {"type": "game.ReservationsLapsed", "actor": None, "data": {"listed": True}},
        {"type": "game.SeedRevealed", "actor": 1, "data": {"seat": 1, "secret": "ab"}},
        {
            "type": "game.SeedsCombined",
            "actor": None,
            "data": {"rule": 2, "revealed": [1], "withheld": [0, 2], "none": []},
        },
        {"type": "game.RevealsOpened", "actor": None, "data": {"seats": [0, 1, 2], "window_s": 60}},
        {"type": "game.Started", "actor": None, "data": {"order": [2, 0, 1]}},
        {"type": "game.Ended", "actor": None, "data": {"result": {"winners": [1]}, "seed": "ab"}},
    ]
    said = _render(events, {"en": {}, "es": {}}, [])
    en, es = said["en"]["sentences"], said["es"]["sentences"]
    assert en[0] == "The game was created"
    assert en[1].startswith("The table's terms were set; the table is private; seats are kept")
    assert en[3] == (
        "The seats kept for the invited were freed; the table is now listed in the lobby"
    )
    assert en[4] == "Bo revealed their random secret"
    assert en[5] == (
        "The players' secrets were mixed into the shuffles; Ana and Cy never revealed theirs"
    )
    assert es[4] == "Bo reveló su secreto aleatorio"
    assert es[5].endswith("Ana y Cy no revelaron el suyo")
    assert en[6] == "Every seat is taken: Ana, Bo and Cy reveal their random secrets"
    assert en[7] == "The game started: Cy, Ana and Bo play in that order"
    assert en[8] == "The game ended. Winner: Bo."
    assert es[7] == "Empezó la partida: juegan Cy, Ana y Bo, en ese orden"
    assert es[8] == "Terminó la partida. Gana Bo."
    for line in en + es:
        assert "p_" not in line and "game." not in line and "T10:00" not in line, line
