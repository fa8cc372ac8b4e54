"""The fuzz suites' Hypothesis settings: fixed seeds (the same examples on every run, so
the suite never fails by chance), no example database, no deadline."""

from hypothesis import HealthCheck, settings

FUZZ = settings(
    derandomize=True,
    max_examples=50,  # per ruleset (verify fuzz), per route (write fuzz)
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
