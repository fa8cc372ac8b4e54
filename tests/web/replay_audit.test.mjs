// The replay viewer's marks (node --test, run by tests/api/test_web_words.py): an event is
// marked a default or a resolution by the documented type of the command it belongs to,
// never by the shape of its `cause` (a worker's job id is opaque to clients).
import { test } from "node:test";
import assert from "node:assert/strict";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const audit = await import(join(ROOT, "api", "static", "replay", "audit.js"));

const at = "2026-03-01T12:00:00.000Z";
const ev = (seq, type, extra = {}) => ({ seq, type, data: {}, actor: "system", cause: "job 7", at, ...extra });

test("a default's events are marked by their command, whatever the cause says", () => {
  const events = [
    ev(1, "goblin-market.BidPlaced", { actor: 2, cause: "k-1", at: "2026-03-01T11:00:00.000Z", command: { type: "act" } }),
    ev(2, "goblin-market.Passed", { command: { type: "expire", key: "bid-3" } }),
    ev(3, "hidden", { actor: "hidden", cause: "hidden" }),
    ev(4, "game.DecisionTimedOut"),
    ev(5, "goblin-market.Revealed", { cause: "job 8", command: { type: "resolve", key: "bid-3" } }),
  ];
  const commands = audit.commandsOf(events);
  const firsts = audit.firsts(events);
  const kinds = events.map((e) => audit.kindOf(e, firsts.has(e.seq), commands.get(e.seq)));
  assert.deepEqual(kinds, ["action", "default", "hidden", "default", "resolution"]);
  assert.equal(commands.get(4), "expire", "a hidden step in between does not end the command");
});

test("a cause that looks like a job id does not make a default", () => {
  const e = ev(1, "goblin-market.Passed", { actor: 1, cause: "expire-g_1-bid-3", command: { type: "act" } });
  assert.equal(audit.kindOf(e, true, audit.commandsOf([e]).get(1)), "action");
});
