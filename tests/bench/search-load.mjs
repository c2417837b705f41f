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
/* global fetch */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

const { clients, seconds, requests } = workerData;
const end = Date.now() + seconds * 1000;
const times = [];
let failed = 0;
let cached = 0;
let bucketed = 0;
let totals = 0;

async function client(i) {
  let n = i;
  while (Date.now() < end) {
    const r = requests[n++ % requests.length];
    const t = performance.now();
    try {
      const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body });
      const body = await res.json();
      times.push(performance.now() - t);
      if (res.headers.get('x-search-cache') === 'hit') cached++;
      if (res.headers.get('x-search-plan') === 'buckets') bucketed++;
      if (!res.ok) failed++;
      else totals += body?.data?.total ?? 0;
    } catch {
      times.push(performance.now() - t);
      failed++;
    }
  }
}

await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
parentPort.postMessage({ times, failed, cached, bucketed, totals });
