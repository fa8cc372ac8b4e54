"""The streams' per-process cache (service.frames.Shared): what many streams that woke
with the same entry compute alike is made once, even when making it waits on Redis."""

from __future__ import annotations

import threading

from service.frames import Shared


def test_a_value_missed_by_many_at_once_is_made_once():
    shared, started, release, made = Shared(), threading.Event(), threading.Event(), []

    def make():
        made.append(1)
        started.set()
        release.wait(5)  # as a receipt's make waits on Redis
        return "receipt"

    got: list[str] = []
    first = threading.Thread(target=lambda: got.append(shared.get("k", make)))
    first.start()
    started.wait(5)
    others = [threading.Thread(target=lambda: got.append(shared.get("k", make))) for _ in range(4)]
    for t in others:
        t.start()
    release.set()
    for t in (first, *others):
        t.join(5)
    assert got == ["receipt"] * 5
    assert len(made) == 1


def test_those_who_waited_make_it_themselves_when_its_make_failed():
    shared, started, release = Shared(), threading.Event(), threading.Event()

    def failing():
        started.set()
        release.wait(5)
        raise ConnectionError("Redis went away")

    errors: list[Exception] = []

    def first():
        try:
            shared.get("k", failing)
        except ConnectionError as e:
            errors.append(e)

    t = threading.Thread(target=first)
    t.start()
    started.wait(5)
    got: list[str] = []
    waiter = threading.Thread(target=lambda: got.append(shared.get("k", lambda: "again")))
    waiter.start()
    release.set()
    t.join(5)
    waiter.join(5)
    assert len(errors) == 1 and got == ["again"]
    assert shared.get("k", lambda: "later") == "again"  # kept from the second make


def test_a_forgotten_value_is_made_again():
    shared = Shared()
    assert shared.get("k", lambda: 1) == 1
    assert shared.get("k", lambda: 2) == 1
    shared.forget("k")
    assert shared.get("k", lambda: 3) == 3
