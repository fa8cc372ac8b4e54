"""Every notification type has a name in each language, the same in the web client's
settings (api/static/app/i18n.js) and on the pages an e-mail's links open."""

from __future__ import annotations

import re

from service.notify import types
from tests.conftest import ROOT


def test_every_type_is_named_in_both_languages_as_the_web_client_names_it():
    js = (ROOT / "api" / "static" / "app" / "i18n.js").read_text("utf-8")
    spanish = js.index('type_your_turn: "Tu turno"')
    web = [
        dict(re.findall(r'type_(\w+): "([^"]+)"', part)) for part in (js[:spanish], js[spanish:])
    ]
    for name in types.NAMES:
        assert types.LABELS[name] == (web[0][name], web[1][name]), name
    assert set(types.LABELS) == set(types.NAMES)
