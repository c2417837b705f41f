/**
 * The load generator of `npm run bench:search`, run as a worker thread (worker_threads) so that the clients'
 * work — sending, parsing answers, timing — does not run on the event loop of the server being measured (as
 * autocannon's `workers: 1` does for bench:api; autocannon has no 95th percentile, which the budget names).
 *
 * workerData: `{ clients, seconds, requests: [{ method, url, headers, body? }] }`. `clients` closed loops
 * each send the requests in turn (client i starts at request i) until `seconds` have passed. Posts back
 * `{ times: number[] (ms, one per answer), failed, cached (answers with X-Search-Cache: hit), bucketed (answers
 * whose candidates were looked for bucket by bucket: X-Search-Plan: buckets), totals (sum of data.total) }`.
 */
import { Buffer } from 'node:buffer';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

const { clients, seconds, requests } = workerData;
const end = Date.now() + seconds * 1000;
const times = [];
let failed = 0;
let cached = 0;
let bucketed = 0;
let totals = 0;
// node:http with one kept-alive connection per client: about half the client CPU of fetch (undici's WHATWG layer),
// which runs on the same two cores as the server being measured
const agent = new http.Agent({ keepAlive: true, maxSockets: clients });

/** One request: answers `{ status, headers, body }` (body parsed as JSON, or null). */
function send(r) {
  return new Promise((resolve, reject) => {
    const req = http.request(r.url, { method: r.method, headers: r.headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        let body = null;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          body = null;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

async function client(i) {
  let n = i;
  while (Date.now() < end) {
    const r = requests[n++ % requests.length];
    const t = performance.now();
    try {
      const res = await send(r);
      times.push(performance.now() - t);
      if (res.headers['x-search-cache'] === 'hit') cached++;
      if (res.headers['x-search-plan'] === 'buckets') bucketed++;
      if (res.status !== 200) failed++;
      else totals += res.body?.data?.total ?? 0;
    } catch {
      times.push(performance.now() - t);
      failed++;
    }
  }
}

await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
agent.destroy();
parentPort.postMessage({ times, failed, cached, bucketed, totals });
