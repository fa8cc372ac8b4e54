"""Every Lua script marketfold runs (each with the keys it touches listed above it), and
`registered`, which registers a script once per client."""

from __future__ import annotations

import hashlib
import weakref
from functools import cache
from typing import Any

from redis.commands.core import Script

_REGISTERED: weakref.WeakKeyDictionary[Any, dict[str, Script]] = weakref.WeakKeyDictionary()


def registered(client: Any, text: str) -> Script:
    """Return the script `text` registered on `client` (redis-py's `register_script`: run
    by its digest, loaded again if the server has forgotten it), once per client."""
    scripts = _REGISTERED.setdefault(client, {})
    script = scripts.get(text)
    if script is None:
        script = scripts[text] = client.register_script(text)
    return script


@cache
def sha(text: str) -> str:
    """Return the digest of script `text`, for an EVALSHA sent by hand (in a batch of
    commands, where a registered script's call would first ask SCRIPT EXISTS)."""
    return hashlib.sha1(text.encode()).hexdigest()


# KEYS: events stream, snapshot hash, idempotency hash, seed[, private stream]
# ARGV[1]: idempotency field ("" for none); ARGV[2]: the version of the record the caller
# holds already (0 for none); ARGV[3]: how many private steps that record holds.
# Returns {snapshot blob or false, its version, idempotent result or false, seed or false,
#          tail entries after it, the entry at the version the tail starts from or false,
#          the private steps after those the record holds (or the snapshot's), and how many
#          private steps the snapshot holds}.
# With a version held (and still in the stream) there is no snapshot: the tail follows
# that version, and the entry at it lets the caller check its record is of this log.
LOAD = """
local idem = false
if ARGV[1] ~= '' then idem = redis.call('HGET', KEYS[3], ARGV[1]) end
local seed = redis.call('GET', KEYS[4])
local have = tonumber(ARGV[2]) or 0
local function private(after)
  if not KEYS[5] then return {} end
  return redis.call('XRANGE', KEYS[5], (after + 1) .. '-0', '+')
end
if have > 0 and have <= redis.call('XLEN', KEYS[1]) then
  local at = redis.call('XRANGE', KEYS[1], have .. '-0', have .. '-0')
  local tail = redis.call('XRANGE', KEYS[1], (have + 1) .. '-0', '+')
  local held = tonumber(ARGV[3]) or 0
  return {false, have, idem, seed, tail, at, private(held), held}
end
local snap = redis.call('HMGET', KEYS[2], 'version', 'blob', 'private')
local v = tonumber(snap[1]) or 0
local blob = snap[2]
local p = tonumber(snap[3]) or 0
if not v or v == 0 then blob = false; p = 0 end
local at = false
if v > 0 then at = redis.call('XRANGE', KEYS[1], v .. '-0', v .. '-0') end
local tail = redis.call('XRANGE', KEYS[1], (v + 1) .. '-0', '+')
return {blob, v, idem, seed, tail, at, private(p), p}
"""

# A leaf of the public log of games, appended once per id (TLOG_APPEND; and a follow-up
# write `TLOG hashes texts ids id hash text` of a game's append, atomic with it).
_TLOG_BODY = """
local function tlog_append(hashes, texts, ids, id, hash, text)
  local at = redis.call('HGET', ids, id)
  if at then return tonumber(at) end
  local n = redis.call('RPUSH', hashes, hash)
  redis.call('RPUSH', texts, text)
  redis.call('HSET', ids, id, n - 1)
  return n - 1
end
"""

# KEYS: events stream, idempotency hash, snapshot hash, then the keys of the follow-up
# writes (declared, not read here)
# ARGV[1]: expected version; ARGV[2]: idempotency field ("" for none);
# ARGV[3]: result to store under it; ARGV[4]: snapshot of the record after the events
# ("" for none); ARGV[5]: seconds the idempotency hash is kept from now (0: for ever,
# until a later append sets it); ARGV[6]: who owes what right after these events (JSON,
# "" for none), stored beside the last event as field `o` (outside the hashed envelope,
# for event streams); ARGV[7]: how many follow-up commands come next, each as its word
# count then its words (deadline index, inboxes: events.recorder.Writes); then the encoded
# events, seq = version + i.
# A game's expected version is "<version>:<private steps>:<how many of the events are
# private steps>", K[4] then being its private stream: both lengths are checked, and the
# last events given are appended to the private stream (ids <n>-0), the others to the
# events stream; the snapshot records the private steps it holds.
# Returns {'ok', new version} | {'conflict', version} | {'duplicate', stored result}.
_APPEND_BODY = (
    _TLOG_BODY
    + """
local function append(K, A)
  if A[2] ~= '' then
    local seen = redis.call('HGET', K[2], A[2])
    if seen then return {'duplicate', seen} end
  end
  local want, held, secret = string.match(A[1], '^(%d+):(%d+):(%d+)$')
  if not want then want, held, secret = A[1], false, 0 end
  local version = redis.call('XLEN', K[1])
  if version ~= tonumber(want) then return {'conflict', version} end
  local steps = 0
  if held then
    steps = redis.call('XLEN', K[4])
    if steps ~= tonumber(held) then return {'conflict', version} end
  end
  local i = 8
  local writes = {}
  for c = 1, tonumber(A[7]) do
    local n = tonumber(A[i])
    writes[c] = {unpack(A, i + 1, i + n)}
    i = i + 1 + n
  end
  local last = #A - tonumber(secret)
  for e = i, last do
    version = version + 1
    if e == last and A[6] ~= '' then
      redis.call('XADD', K[1], version .. '-0', 'e', A[e], 'o', A[6])
    else
      redis.call('XADD', K[1], version .. '-0', 'e', A[e])
    end
  end
  for e = last + 1, #A do
    steps = steps + 1
    redis.call('XADD', K[4], steps .. '-0', 'e', A[e])
  end
  if A[2] ~= '' then redis.call('HSET', K[2], A[2], A[3]) end
  if A[4] ~= '' then
    redis.call('HSET', K[3], 'version', version, 'blob', A[4], 'private', steps)
  end
  if tonumber(A[5]) > 0 then redis.call('EXPIRE', K[2], A[5]) end
  for _, w in ipairs(writes) do
    if w[1] == 'TLOG' then tlog_append(unpack(w, 2)) else redis.call(unpack(w)) end
  end
  return {'ok', version}
end
"""
)
APPEND = _APPEND_BODY + "return append(KEYS, ARGV)\n"

# A retry's idempotency key, seen used (events.recorder.RedisRecorder.confirm). KEYS[1]:
# the log's idempotency hash; ARGV[1]: the key. Writes its stored result again, unchanged: a WAIT
# after it on the same connection then covers the write that first stored it.
# Returns 1, or 0 if the key is not there (any more).
CONFIRM = """
local seen = redis.call('HGET', KEYS[1], ARGV[1])
if not seen then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], seen)
return 1
"""

# A rate counter (service.limits): count one call on `key` in a fixed window of `window` ms
# started by the window's first call; return the count and the ms left. The counter is
# kept out of the AOF and replicas (REPL_NONE): a count is worth no fsync (with
# appendfsync always, one per request), and a restart merely opens new windows.
_COUNT = """
local function count(key, window)
  redis.set_repl(redis.REPL_NONE)
  local n = redis.call('INCR', key)
  local left = redis.call('PTTL', key)
  if left < 0 then
    redis.call('PEXPIRE', key, window)
    left = tonumber(window)
  end
  redis.set_repl(redis.REPL_ALL)
  return n, left
end
"""
# KEYS[1]: the caller's counter. ARGV[1]: the window in ms. Returns {count, ms left}.
HIT = (
    _COUNT
    + """
local n, left = count(KEYS[1], ARGV[1])
return {n, left}
"""
)

# The append of a caller admitted without a round trip of its own (service.admission, a
# guard of events.recorder), standalone Redis only (its first keys lie outside the game's
# slot).
# KEYS[1]: a key that must still hold ARGV[1] (the caller's token record); KEYS[2]: the
# caller's rate counter, counted as HIT counts within ARGV[2] ms and refused past
# ARGV[3] calls; ARGV[4]: the entry the caller holds at the expected version (the record
# it decided on is of this log); then APPEND's keys and arguments.
# Returns {'recheck'} (nothing counted or written) | {'refused', n, ms left} (past the
# limit, nothing written) | APPEND's answer followed by n and ms left.
APPEND_ADMITTED = (
    _APPEND_BODY
    + _COUNT
    + """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {'recheck'} end
local expected = string.match(ARGV[5], '^%d+')
local at = redis.call('XRANGE', KEYS[3], expected .. '-0', expected .. '-0')
if expected ~= '0' and (#at == 0 or at[1][2][2] ~= ARGV[4]) then return {'recheck'} end
local n, left = count(KEYS[2], ARGV[2])
if n > tonumber(ARGV[3]) then return {'refused', n, left} end
local out = append({unpack(KEYS, 3)}, {unpack(ARGV, 5)})
out[3], out[4] = n, left
return out
"""
)

# KEYS: snapshot hash. ARGV: version, blob, private steps held. Keeps the newest only.
SAVE_SNAPSHOT = """
local v = tonumber(redis.call('HGET', KEYS[1], 'version')) or 0
if tonumber(ARGV[1]) <= v then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'blob', ARGV[2], 'private', ARGV[3] or 0)
return 1
"""

# The public log of games (events/tlog.py). KEYS: leaf hashes, leaf texts, leaf ids.
# ARGV[1]: the leaf's id (`<game>:<kind>`); ARGV[2]: its hash; ARGV[3]: its text.
# Appends the leaf unless a leaf of that id is logged already; returns its index either way.
TLOG_APPEND = (
    _TLOG_BODY + "return tlog_append(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3])\n"
)

# A chat message (service.chat). KEYS: the game's chat stream, the poster's counter.
# ARGV: message JSON, most per window, window ms, stream cap. Returns {1, id} or
# {0, ms until the window ends}.
CHAT_POST = """
local n = redis.call('INCR', KEYS[2])
if n == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end
if n > tonumber(ARGV[2]) then return {0, redis.call('PTTL', KEYS[2])} end
return {1, redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[4], '*', 'm', ARGV[1])}
"""

# A heartbeat (service.outages). KEYS: heartbeat, outages. ARGV: now, threshold, how many
# to keep. Returns the outage recorded (`<start>:<end>`), or false.
HEARTBEAT = """
local raw = redis.call('GET', KEYS[1])
local last, now = tonumber(raw or ''), tonumber(ARGV[1])
if last and now <= last then return false end
redis.call('SET', KEYS[1], ARGV[1])
if last and now - last > tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[2], now, raw .. ':' .. ARGV[1])
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(tonumber(ARGV[3]) + 1))
  return raw .. ':' .. ARGV[1]
end
return false
"""

# A game filed in the lobby (service.lobby). KEYS: summaries, all, waiting, active,
# finished, the game's ruleset set.
# ARGV: game id, version, summary JSON, status, score (creation, ms).
# Keeps the summary of the highest version; a game in another status (cancelled) leaves
# every set but keeps its summary, so a late, older write cannot list it again.
LOBBY_INDEX = """
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old and tonumber(cjson.decode(old)['version']) >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
for i = 3, 5 do redis.call('ZREM', KEYS[i], ARGV[1]) end
local listed = {waiting = 3, active = 4, finished = 5}
if listed[ARGV[4]] then
  redis.call('ZADD', KEYS[listed[ARGV[4]]], ARGV[5], ARGV[1])
  redis.call('ZADD', KEYS[2], ARGV[5], ARGV[1])
  redis.call('ZADD', KEYS[6], ARGV[5], ARGV[1])
else
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('ZREM', KEYS[6], ARGV[1])
end
return 1
"""

# Due work claimed by a sweeper (workers.scheduler). KEYS[1]: the deadline index.
# ARGV: now, claim-until, batch size.
CLAIM_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], member) end
return due
"""

# An event stream's place against its caller's cap (service.stream_slots).
# KEYS[1]: the caller's open streams (member: stream id, score: expiry in ms).
# ARGV: now ms, expiry ms, cap, stream id, key ttl ms. Returns 1 if the stream may open.
OPEN_SLOT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
"""
