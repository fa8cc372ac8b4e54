// Every module of the site links (node --test, with --experimental-vm-modules): each import
// names a module that exists and each named import is one that module exports. A browser
// refuses a page whose module graph does not link, so a renamed or cut export blanks every
// page that reaches it; this finds it without a browser. Modules are linked, never run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, dirname, resolve, relative } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const STATIC = join(ROOT, "api", "static");

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith(".js") ? [path] : [];
  });
const isModule = (text) => /^\s*(import|export)\s/m.test(text);

// the site's URLs: "/static/x" is api/static/x
const target = (specifier, from) =>
  specifier.startsWith("/static/") ? join(STATIC, specifier.slice("/static/".length)) : resolve(dirname(from), specifier);

test("every module of the site links: its imports exist and export what is imported", async () => {
  const context = vm.createContext({});
  const made = new Map();
  const load = (path) => {
    if (!made.has(path)) {
      made.set(path, new vm.SourceTextModule(readFileSync(path, "utf8"), { identifier: relative(ROOT, path), context }));
    }
    return made.get(path);
  };
  const pages = walk(STATIC).filter((path) => isModule(readFileSync(path, "utf8")));
  assert.ok(pages.length > 20, `only ${pages.length} modules found under api/static`);
  const failures = [];
  for (const path of pages) {
    if (load(path).status !== "unlinked") continue; // linked already, as another's import
    try {
      await load(path).link((specifier, referrer) => load(target(specifier, join(ROOT, referrer.identifier))));
    } catch (error) {
      failures.push(`${relative(ROOT, path)}: ${error.message}`);
    }
  }
  assert.deepEqual(failures, []);
});
