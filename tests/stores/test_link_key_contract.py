"""The link key port's contract (stores/link_key.py), on Redis and in memory alike: one
random key, made by the first to ask and the same ever after (service/notify/signing.py
signs unsubscribe and verification links with it)."""

import pytest

from stores.link_key import RedisLinkKey
from stores.memory.link_key import MemoryLinkKey


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def link_key(request):
    if request.param == "memory":
        return MemoryLinkKey()
    return RedisLinkKey(request.getfixturevalue("r"))


def test_the_key_is_long_and_the_same_at_every_ask(link_key):
    first = link_key.key()
    assert isinstance(first, bytes) and len(first) >= 32
    assert link_key.key() == first


def test_two_services_make_two_keys():
    assert MemoryLinkKey().key() != MemoryLinkKey().key()


@pytest.mark.process
def test_every_process_of_one_service_reads_the_key_the_first_made(r):
    first, second = RedisLinkKey(r), RedisLinkKey(r)
    assert second.key() == first.key()
    r.flushall()  # another service (another Redis) makes its own
    assert RedisLinkKey(r).key() != first.key()
