"""The notification settings port's contract, on Redis and in memory (stores/
notify_prefs.py): nothing until set, replaced whole, and read in a shared round trip."""

import pytest

from stores.memory.notify_prefs import MemoryNotifyPrefs
from stores.notify_prefs import RedisNotifyPrefs, read_settings, settings_from


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def prefs(request):
    if request.param == "memory":
        return MemoryNotifyPrefs()
    return RedisNotifyPrefs(request.getfixturevalue("r"))


def test_settings_are_none_until_set_then_replaced_whole(prefs):
    assert prefs.settings("p1") is None
    prefs.keep("p1", {"lang": "es", "email": {"address": "a@example.org", "verified": False}})
    prefs.keep("p1", {"lang": "es", "email": {"address": "a@example.org", "verified": True}})
    assert prefs.settings("p1") == {
        "lang": "es",
        "email": {"address": "a@example.org", "verified": True},
    }
    assert prefs.settings("p2") is None


def test_what_a_caller_changes_in_what_it_read_is_not_kept(prefs):
    prefs.keep("p1", {"types": {"your_turn": {"email": False}}})
    prefs.settings("p1")["types"]["your_turn"]["email"] = True
    assert prefs.settings("p1") == {"types": {"your_turn": {"email": False}}}


@pytest.mark.process
def test_the_settings_read_on_a_shared_pipeline(r):
    RedisNotifyPrefs(r).keep("p1", {"lang": "es"})
    pipe = r.pipeline(transaction=False)
    read_settings(pipe, "p1")
    read_settings(pipe, "p2")
    assert [settings_from(raw) for raw in pipe.execute()] == [{"lang": "es"}, None]
