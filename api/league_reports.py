"""A league's record read out, under /v1: its standings (JSON, and CSV for spreadsheets),
its events, the signed export `marketfold verify` checks, and one round's tables."""

from __future__ import annotations

import csv
import io

from flask import Blueprint, Response, request

from api.context import boot
from api.league_present import league_summary, round_json, standings_json
from api.league_request import find_league
from api.parse import number
from service import league_queries, proof
from service.errors import NotFound

bp = Blueprint("league_reports", __name__, url_prefix="/v1")
EXPORT_FORMAT = "marketfold-league/1"


@bp.get("/leagues/<league_id>/standings")
def league_standings(league_id: str):
    league = find_league(league_id)
    return {"league": league.league_id, "status": league.status, **standings_json(league)}


CSV_COLUMNS = [
    "rank",
    "player",
    "name",
    "points",
    "games",
    "wins",
    "byes",
    "bye_points",
    "buchholz",
    "mu",
    "sigma",
    "ordinal",
    "withdrawn",
]


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """Return a text cell that a spreadsheet would run as a formula (it starts with = + -
    @, a tab or a carriage return) behind a `'`, which spreadsheets show as text (OWASP's
    advice against CSV injection); numbers and other text pass unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


@bp.get("/leagues/<league_id>/standings.csv")
def league_standings_csv(league_id: str):
    league = find_league(league_id)
    out = io.StringIO()
    writer = csv.DictWriter(out, CSV_COLUMNS, extrasaction="ignore", lineterminator="\r\n")
    writer.writeheader()
    for row in league_queries.standings(league):
        row = {**row, "withdrawn": "yes" if row["withdrawn"] else "no"}
        writer.writerow({k: csv_cell(v) for k, v in row.items()})
    name = f'attachment; filename="{league.league_id}-standings.csv"'
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": name},
    )


@bp.get("/leagues/<league_id>/events")
def league_events(league_id: str):
    find_league(league_id)
    after = number("after", request.args.get("after", "0"))
    league, envelopes = league_queries.events(boot(), league_id, after)
    return {"version": league.version, "events": envelopes}


@bp.get("/leagues/<league_id>/export")
def export_league(league_id: str):
    find_league(league_id)
    league, envelopes, exported_at = league_queries.export(boot(), league_id)
    body_ = {
        "format": EXPORT_FORMAT,
        "league": league_summary(league),
        "exported_at": exported_at,
        "events": envelopes,
        "games": [
            g
            for r in sorted(league.rounds)
            for t in league.rounds[r].tables
            for g in league.chain(t.game)
        ],
        "standings": league_queries.standings(league),  # as recounted: `marketfold verify`
    }
    proof.sign(boot(), body_)  # format, league id, events and head (events.signature)
    name = f'attachment; filename="{league.league_id}.json"'
    return body_, 200, {"Content-Disposition": name}


@bp.get("/leagues/<league_id>/rounds/<int:n>")
def league_round(league_id: str, n: int):
    league = find_league(league_id)
    if not 1 <= n <= league.settings["rounds"]:
        raise NotFound("round_not_found", f"the league has rounds 1-{league.settings['rounds']}")
    statuses = league_queries.table_statuses(boot(), league, n) if n in league.rounds else {}
    return round_json(league, n, statuses)
