// The web client's calls: the public API only (openapi.yaml), with the player's token from
// localStorage as a bearer token, the page's language as Accept-Language, an
// Idempotency-Key on every action. A GET answered 429 or 503 is tried again up to three
// times after its Retry-After (at most 10 s); nothing else is retried. A refused call
// throws an ApiError carrying the problem.
import { lang } from "./i18n.js";

const KEY = "marketfold.player"; // {id, name, token}
export const BASE = "/v1";

export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
    this.code = this.problem.code || "";
  }
}

export function me() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "null");
    return saved && typeof saved.token === "string" ? saved : null;
  } catch {
    return null;
  }
}

export function remember(player) {
  localStorage.setItem(KEY, JSON.stringify({ id: player.id, name: player.name, token: player.token }));
}

export function forget() {
  localStorage.removeItem(KEY);
}

export function headers(extra = {}) {
  const h = { Accept: "application/json", "Accept-Language": lang(), ...extra };
  const player = me();
  if (player) h.Authorization = `Bearer ${player.token}`;
  return h;
}

export async function call(method, path, body, extra = {}) {
  const init = { method, headers: headers(extra), credentials: "omit", cache: "no-store" };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  let res;
  for (let attempt = 0; ; attempt += 1) {
    res = await fetch(`${BASE}${path}`, init);
    const wait = Number(res.headers.get("Retry-After"));
    if (!(res.status === 429 || res.status === 503) || attempt >= 3 || method !== "GET") break;
    await new Promise((done) => setTimeout(done, Math.min(10, wait || 1) * 1000));
  }
  if (res.status === 204 || res.status === 304) return null;
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

export const get = (path) => call("GET", path);
export const post = (path, body, extra) => call("POST", path, body, extra);
export const put = (path, body) => call("PUT", path, body);
export const del = (path) => call("DELETE", path);
export const patch = (path, body) => call("PATCH", path, body);

// An action, with a fresh Idempotency-Key; returns the answer's body (its `version` is the
// game's after the action: the table waits for the stream's frame of that version).
export async function act(gameId, action) {
  const key = crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
  return call("POST", `/games/${encodeURIComponent(gameId)}/actions`, action, { "Idempotency-Key": key });
}
