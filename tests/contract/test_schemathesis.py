"""Schemathesis over the whole API: generated requests never get a 5xx, and every answer
fits openapi.yaml (status, content type, headers, body)."""

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from api import create_app
from tests.conftest import ROOT, TEST_CONFIG

# POST /v1/verify holds a bundle to more than JSON Schema can say (whole numbers written
# without a fraction, date-times of years 2-9998, the nesting and size bounds of
# events/bundle.py), so a schema-valid body may be refused there, with a named 422.
STRICTER = {("POST", "/v1/verify")}


@pytest.mark.slow
def test_the_api_answers_every_generated_request_as_the_spec_says(redis_url):
    app = create_app({**TEST_CONFIG, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url})
    schema = schemathesis.openapi.from_path(ROOT / "openapi.yaml")
    schema.app = app
    failures, operations = [], 0
    for result in schema.get_all_operations():
        operations += 1
        operation = result.ok()
        stricter = (operation.method.upper(), operation.path) in STRICTER
        excluded = [positive_data_acceptance] if stricter else []

        @given(case=operation.as_strategy())
        @settings(
            max_examples=20, deadline=None, database=None, suppress_health_check=list(HealthCheck)
        )
        def check(case):
            case.call_and_validate(excluded_checks=excluded)

        try:
            check()
        except Exception as e:  # noqa: BLE001  (collect every operation's first failure)
            failures.append(f"{operation.method.upper()} {operation.path}: {str(e)[:600]}")
    assert operations >= 20  # every documented operation was exercised
    assert failures == []
