"""A store beside the recorder whose follow-up writes keep the players' indexes (service.
inbox writes them with an append): on Redis both share the server; in memory the twin
follows the in-memory recorder's writes (stores/memory/sorted_sets.py)."""

from typing import Any

from events.memory_recorder import MemoryRecorder
from events.recorder import RedisRecorder
from stores.memory.sorted_sets import SortedSets


def store_and_recorder(request: Any, memory: Any, on_redis: Any) -> tuple[Any, Any]:
    """(the store, its recorder) for `request.param`: the twin class `memory` or the
    Redis adapter class `on_redis`."""
    if request.param == "memory":
        recorder = MemoryRecorder()
        return memory(SortedSets(follow=recorder.writes)), recorder
    r = request.getfixturevalue("r")
    return on_redis(r), RedisRecorder(r)
