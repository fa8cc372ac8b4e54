"""The table chat's contract (stores.chat), run on Redis and in memory alike: messages
kept in order with increasing ids, read after an id, one by id, each game apart, posts
over the window's count refused with the time left, and hidden messages."""

import time

import pytest

from stores.chat import RateLimited, RedisChat
from stores.memory.chat import MemoryChat
from stores.memory.stream_ids import order

RATE = (3, 10_000)  # 3 posts per 10 s


# the Redis one is marked `process`, so only the in-memory one is in the unit tier
@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.process), "memory"])
def chat(request):
    if request.param == "memory":
        return MemoryChat()
    return RedisChat(request.getfixturevalue("r"))


def post(chat, text, player="p_1", game="g1", rate=RATE):
    return chat.post(game, player, {"player": player, "text": text}, rate, 1000)


def test_messages_are_kept_in_order_and_read_after_an_id(chat):
    assert chat.last_id("g1") == "0-0" and chat.messages("g1") == []
    ids = [post(chat, "a"), post(chat, "b", "p_2"), post(chat, "c", "p_3")]
    assert ids == sorted(ids, key=order) and len(set(ids)) == 3
    assert chat.messages("g1") == [
        (ids[0], {"player": "p_1", "text": "a"}),
        (ids[1], {"player": "p_2", "text": "b"}),
        (ids[2], {"player": "p_3", "text": "c"}),
    ]
    assert [i for i, _ in chat.after("g1", "0-0", 10)] == ids
    assert [m["text"] for _, m in chat.after("g1", ids[0], 10)] == ["b", "c"]
    assert [m["text"] for _, m in chat.after("g1", "0-0", 2)] == ["a", "b"]
    assert chat.after("g1", ids[2], 10) == []
    assert chat.last_id("g1") == ids[2]
    assert chat.messages("g2") == [] and chat.last_id("g2") == "0-0"


def test_one_message_is_read_by_its_id(chat):
    mid = post(chat, "hello")
    assert chat.message("g1", mid) == {"player": "p_1", "text": "hello"}
    assert chat.message("g2", mid) is None
    assert chat.message("g1", "1-0") is None


def test_posts_over_the_count_of_a_window_are_refused_with_the_time_left(chat):
    for text in "abc":
        post(chat, text)
    with pytest.raises(RateLimited) as refused:
        post(chat, "d")
    assert 0 < refused.value.retry_ms <= RATE[1]
    assert [m["text"] for _, m in chat.messages("g1")] == ["a", "b", "c"]  # nothing kept
    post(chat, "e", player="p_2")  # each player counts apart,
    post(chat, "f", game="g2")  # and in each game apart


def test_a_window_ends_and_posts_are_taken_again(chat):
    short = (1, 50)  # 1 post per 50 ms
    post(chat, "a", rate=short)
    with pytest.raises(RateLimited):
        post(chat, "b", rate=short)
    if isinstance(chat, MemoryChat):
        now = chat.clock()
        chat.clock = lambda: now + 0.06
    else:
        time.sleep(0.06)
    post(chat, "c", rate=short)
    assert [m["text"] for _, m in chat.messages("g1")] == ["a", "c"]


def test_hidden_messages_are_kept_per_game(chat):
    mid = post(chat, "rude")
    assert chat.hidden("g1") == {}
    chat.hide("g1", mid, {"by": "p_op", "reason": "abuse", "at": "t"})
    assert chat.hidden("g1") == {mid: {"by": "p_op", "reason": "abuse", "at": "t"}}
    assert chat.hidden("g2") == {}
    assert chat.message("g1", mid) == {"player": "p_1", "text": "rude"}  # kept as posted
