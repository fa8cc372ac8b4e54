"""An action body is loaded as the `Action` schema loads it (api.schemas.action skips
marshmallow for a well-formed body): the same dict, the same key order, the same refusals."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from api.schemas import Action, action

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
bodies = st.dictionaries(st.text(max_size=8), json_values, max_size=6) | st.fixed_dictionaries(
    {"type": st.one_of(st.text(max_size=70), json_values)},
    optional={"card": st.text(max_size=10), "amount": st.integers(), "cards": st.lists(st.text())},
)


def schema_load(data):
    try:
        return Action().load(data)
    except ValidationError as e:
        return e.messages


@settings(max_examples=400, deadline=None)
@given(bodies | json_values)
def test_a_body_loads_or_is_refused_as_the_schema_says(data):
    expected = schema_load(data)
    try:
        got = action(data)
    except ValidationError as e:
        got = e.messages
    assert got == expected
    assert list(got) == list(expected)  # the same key order, unknown fields too


@pytest.mark.parametrize("data", [{}, {"type": ""}, {"type": "x" * 65}, {"type": 3}, [], "bid"])
def test_malformed_bodies_are_refused_in_marshmallows_words(data):
    with pytest.raises(ValidationError) as refused:
        action(data)
    assert refused.value.messages == schema_load(data)
