"""One catalog of the table's events (events/catalog.py): what is derived from it misses no
type, and no server module names a `game.*` type by a string of its own. (The web client's
and the replay viewer's words for each: tests/web/errors_events.test.mjs.)"""

from __future__ import annotations

import re

import pytest

from events import catalog
from events.fold import TABLE_FOLDS, fold
from events.record import ACTIVE, CANCELLED, FINISHED, Record
from tests.api.openapi_check import spec as openapi_spec
from tests.conftest import ROOT

LITERAL = re.compile(r"""["']game\.[A-Z][A-Za-z]+["']""")
SERVER = ("events", "service", "api", "workers", "cli", "leagues", "computer", "games")


def test_the_fold_has_a_step_for_every_table_event_and_for_nothing_else():
    named = {v for k, v in vars(catalog).items() if k.isupper() and isinstance(v, str)}
    assert named == set(catalog.TYPES)  # each constant is listed, with its data
    assert set(TABLE_FOLDS) == set(catalog.TYPES)


@pytest.mark.parametrize(
    "kind, data, status",
    [
        (catalog.STARTED, {"order": [1, 0]}, ACTIVE),
        (catalog.ENDED, {"result": {"reason": "completed"}, "seed": "ab"}, FINISHED),
        (catalog.CANCELLED, {"by": "system", "reason": "expired"}, CANCELLED),
    ],
)
def test_the_status_a_stream_announces_is_the_one_the_fold_sets(kind, data, status):
    env = {"seq": 3, "hash": "0" * 64, "type": kind, "data": data, "at": "2026-01-01T00:00:00.000Z"}
    assert fold(Record("g_1", players=2), env).status == catalog.STATUS_AFTER[kind] == status
    assert set(catalog.STATUS_AFTER) == {catalog.STARTED, catalog.ENDED, catalog.CANCELLED}


def test_no_server_module_names_a_table_event_but_the_catalog():
    found = []
    for package in SERVER:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == ROOT / "events" / "catalog.py" or "archive" in path.parts:
                continue
            for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
                if LITERAL.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert found == [], "name table events by events.catalog's constants"


def test_openapi_lists_every_table_event_with_its_data():
    spec = openapi_spec()  # parsed once per process
    said = spec["components"]["schemas"]["Event"]["properties"]["type"]["description"]
    listed = set(re.findall(r"`(game\.[A-Z][A-Za-z]+)`", said))
    assert listed == set(catalog.TYPES)
    for kind, fields in catalog.TYPES.items():
        if kind == catalog.CREATED:  # its data has a schema of its own: GameCreatedData
            created = spec["components"]["schemas"]["GameCreatedData"]["properties"]
            assert set(fields.split(", ")) <= set(created)
            continue
        braces = re.search(re.escape(f"`{kind}`") + r" \{([^}]*)\}", " ".join(said.split()))
        assert braces, f"openapi.yaml does not say what {kind} holds"
        named = {re.split(r"[:\s]", f.strip())[0] for f in braces.group(1).split(",")}
        assert named == set(fields.split(", ")), kind
