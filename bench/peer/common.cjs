'use strict';
/** Small helpers of the driver: JSON over HTTP (node's http, keep-alive), seeded random. */
const http = require('http');

function agent() {
  return new http.Agent({ keepAlive: true, maxSockets: 4 });
}

/** Send a request; resolve with {status, body (parsed JSON or null)}. A kept-alive
 * connection the server closed as the request went out (gunicorn closes idle ones after
 * 2 s) is retried once on a new one, as Node's documentation advises: the server never
 * read that request. */
function request(agentOrNull, method, url, body, headers = {}) {
  return send(agentOrNull, method, url, body, headers).catch(err => {
    if (!err.reused || err.code !== 'ECONNRESET') throw err;
    return send(agentOrNull, method, url, body, headers);
  });
}

function send(agentOrNull, method, url, body, headers) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const req = http.request(
      url,
      {
        method,
        agent: agentOrNull || undefined,
        headers: data
          ? { 'content-type': 'application/json', 'content-length': data.length, ...headers }
          : headers,
      },
      res => {
        const chunks = [];
        res.on('data', c => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed = null;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch (e) {
            parsed = text;
          }
          resolve({ status: res.statusCode, body: parsed });
        });
        res.on('error', reject);
      }
    );
    req.on('error', err => {
      err.reused = req.reusedSocket;
      err.message = `${method} ${url}: ${err.message}`;
      reject(err);
    });
    if (data) req.write(data);
    req.end();
  });
}

async function postJson(agentOrNull, url, body, headers) {
  const res = await request(agentOrNull, 'POST', url, body, headers);
  if (res.status >= 300) throw new Error(`POST ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function getJson(agentOrNull, url, headers) {
  const res = await request(agentOrNull, 'GET', url, undefined, headers);
  if (res.status >= 300) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** mulberry32: a small seeded generator, so that a run's random moves repeat. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick(random, list) {
  return list[Math.floor(random() * list.length)];
}

/** Nearest-rank percentile of seconds, in ms (as bench/common.py's). */
function percentileMs(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  const at = Math.min(sorted.length - 1, Math.max(0, Math.round((p / 100) * sorted.length) - 1));
  return sorted[at] * 1e3;
}

/** Run `tasks` (functions returning promises) at most `limit` at a time, in order. */
async function pool(limit, tasks) {
  const out = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return out;
}

module.exports = { agent, getJson, percentileMs, pick, pool, postJson, request, rng };
