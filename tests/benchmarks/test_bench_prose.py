"""bench/run_all.py writes docs/performance.md's prose from bench/prose/: a paragraph edited
only in the document is lost at the next run, so the two must say the same."""

from __future__ import annotations

import pytest

from bench.prose import section_intros
from bench.prose.where_time_goes import PROFILE
from tests.conftest import ROOT

DOC = (ROOT / "docs" / "performance.md").read_text()
INTROS = {k: v for k, v in vars(section_intros).items() if k.endswith("_INTRO")}


def test_where_the_time_goes_is_the_documents_text():
    assert PROFILE.strip() in DOC


@pytest.mark.parametrize("name", sorted(INTROS))
def test_each_sections_intro_is_the_documents_text(name):
    assert INTROS[name].strip() in DOC, name
