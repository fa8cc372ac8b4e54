"""The canonical JSON behind every hash (events.codec.canonical) is Python's encoder's text
(sorted keys, no spaces, UTF-8), byte for byte, whichever encoder writes it: a hash of a
stored event must come out the same forever."""

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events import codec


def python(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from([":1.5]", ",2e5}", "[null,", "T03:28:45.548Z", "-0.0", "é✓\x00\x1f\x7f"])
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=6), inner, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=600, deadline=None)
@given(values)
def test_the_text_is_pythons_whatever_the_value(value):
    assert codec.canonical(value) == python(value)
    assert codec.canonical_bytes(value) == python(value).encode()


@settings(max_examples=300, deadline=None)
@given(values)
def test_a_value_normalised_is_its_reload(value):
    again, expected = codec.normal(value), json.loads(python(value))
    assert python(again) == python(expected)  # NaN != NaN: compared as text
    assert list(_keys(again)) == list(_keys(expected))  # the same key order at every level


@pytest.mark.parametrize(
    "value",
    [
        {"a": 1e-05, "b": 1e16},  # floats Python and orjson write differently
        {"x": [math.nan, math.inf, -math.inf]},
        {2: "a", 10: "b"},  # integer keys: sorted as numbers, written as strings
        {"big": 2**64, "small": -(2**63) - 1},
        {"at": "2026-11-26T03:28:45.548Z", "seq": 3, "visible_to": [0, 2], "data": {"z": None}},
        [1, (2, 3), {"k": True}],
        1.5,
        "text",
    ],
)
def test_values_orjson_writes_otherwise_are_still_pythons_text(value):
    assert codec.canonical(value) == python(value)


def test_a_lone_surrogate_is_written_as_python_writes_it():
    assert codec.canonical({"s": "a\ud800"}) == python({"s": "a\ud800"})


def test_types_pythons_encoder_refuses_are_refused():
    import dataclasses
    import datetime

    @dataclasses.dataclass
    class Point:
        x: int

    for value in ({"p": Point(1)}, {"when": datetime.date(2026, 1, 1)}, {"s": {1, 2}}):
        with pytest.raises(TypeError):
            codec.canonical(value)


def _keys(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)
