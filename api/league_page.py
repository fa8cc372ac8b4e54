"""A league's standings as a page a person reads: `GET /leagues/{id}` (HTML, no script).

The table (rank, points, games won, Buchholz, rating), the organizer's rulings (what each
did and why), then every round with its tables,
their players and places, and a link to each game's replay. Everything shown is public
(the league's log and its games' statuses); names are escaped.
"""

from __future__ import annotations

from html import escape

from flask import Blueprint, Response

from api.context import boot
from api.league_present import places, round_status, table_status
from api.league_request import find_league
from api.replay import POLICY
from service import league_queries
from service.league_queries import League

bp = Blueprint("league_page", __name__)


@bp.get("/leagues/<league_id>")
def league_page(league_id: str) -> Response:
    """Serve a league's standings page."""
    league = find_league(league_id)
    html = "\n".join(_page(league))
    response = Response(html, mimetype="text/html")
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def _page(league: League):
    s, lid = league.settings, escape(league.league_id)
    title = escape(s["name"] or league.league_id)
    yield "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
    yield f"<title>{title} · standings</title>"
    yield "<link rel='stylesheet' href='/static/league/league.css'></head><body>"
    yield f"<h1>{title}</h1>"
    yield (
        f"<p class='meta'>{escape(s['ruleset'])} · <span class='status'>"
        f"{escape(league.status)}</span> · round {len(league.rounds)} of {s['rounds']} · "
        f"{len(league.results)} game{'' if len(league.results) == 1 else 's'} recorded · "
        f"<a href='/v1/leagues/{lid}/standings.csv'>standings as CSV</a></p>"
    )
    yield "<h2>Standings</h2><table id='standings'><thead><tr>"
    heads = ["#", "player", "points", "games", "won", "byes", "Buchholz", "rating"]
    yield "".join(f"<th{_num(h)}>{h}</th>" for h in heads) + "</tr></thead><tbody>"
    for r in league_queries.standings(league):
        cls = " class='withdrawn'" if r["withdrawn"] else ""
        name = escape(r["name"]) + (" (withdrawn)" if r["withdrawn"] else "")
        cells = [
            r["rank"],
            name,
            _n(r["points"]),
            r["games"],
            r["wins"],
            r["byes"],
            _n(r["buchholz"]),
            f"{r['ordinal']:.2f}",
        ]
        yield (
            f"<tr{cls}>" + "".join(f"<td{_num(h)}>{c}</td>" for h, c in zip(heads, cells)) + "</tr>"
        )
    yield "</tbody></table>"
    yield from _rulings(league)
    yield "<h2>Rounds</h2>"
    for number, rnd, started in league_queries.schedule(league):
        yield from _round(league, number, rnd, started)
    yield "</body></html>"


RULED = {
    "stands": "the result stands",
    "adjusted": "points adjusted",
    "annulled": "game annulled",
    "forfeit": "forfeit",
    "replay": "to be replayed",
}


def _rulings(league: League):
    """The organizer's rulings, newest last, each with its game, what it did and why."""
    if not league.ruling_log:
        return
    yield "<h2>Rulings</h2><ol id='rulings'>"
    for r in league.ruling_log:
        who = lambda ps: ", ".join(escape(league.members.get(p, p)) for p in ps)  # noqa: E731
        what = RULED[r["kind"]]
        if r.get("players"):
            what += f": {who(r['players'])}"
        if r.get("points"):
            what += ": " + ", ".join(f"{who([p])} {_n(v)}" for p, v in r["points"].items())
        if r.get("replay"):
            what += f" as <a href='/games/{escape(r['replay'])}/replay'>{escape(r['replay'])}</a>"
        about = f" (dispute {r['dispute']})" if r.get("dispute") else ""
        yield (
            f"<li>Round {r['round']}, table {r['table']}, "
            f"<a href='/games/{escape(r['game'])}/replay'>{escape(r['game'])}</a>{about}: "
            f"{what}. <q>{escape(r['reason'])}</q> ({escape(r['at'])})</li>"
        )
    yield "</ol>"


HEADINGS = {
    "started": "started",
    "scheduled": "to come, as paired now",
    "paused": "on hold while the league is paused",
    "cancelled": "cancelled: it will not be played",
}


def _round(league: League, number: int, rnd, started: bool):
    status, start_at = round_status(league, number)
    yield f"<section class='round'><h3>Round {number} ({HEADINGS[status]})</h3>"
    if start_at and not started:
        yield f"<p class='when'>starts {escape(start_at)}</p>"
    statuses = league_queries.table_statuses(boot(), league, number) if started else {}
    heads = "<th>table</th><th>players (by seat), with their place once played</th><th>game</th>"
    yield f"<table><thead><tr>{heads}</tr></thead><tbody>"
    for i, players in enumerate(rnd.tables, start=1):
        game = league.rounds[number].tables[i - 1].game if started else None
        placed = {
            p["player"]: "forfeit" if p.get("forfeit") else f"place {p['place']}"
            for p in places(league, game) or []
        }
        taken = league.taken.get(game or "", {})  # seats a substitute took over
        names = ", ".join(
            escape(league.members.get(p, p))
            + (f" → {escape(league.members.get(taken[p], taken[p]))}" if p in taken else "")
            + (f" ({placed[taken.get(p, p)]})" if taken.get(p, p) in placed else "")
            for p in players
        )
        link = "—"
        if game:
            shown = table_status(league, game, statuses.get(game, ("", None))[0])
            link = f"<a href='/games/{escape(game)}/replay'>replay</a> {escape(shown)}"
        yield f"<tr><td>{i}</td><td>{names}</td><td>{link}</td></tr>"
    yield "</tbody></table>"
    if rnd.byes:
        byes = ", ".join(escape(league.members.get(p, p)) for p in rnd.byes)
        yield f"<p class='byes'>sitting out: {byes}</p>"
    yield "</section>"


def _num(head: str) -> str:
    return "" if head == "player" else " class='num'"


def _n(value: float) -> str:
    return f"{value:g}"
