/**
 * The heap figures of bench:excel's server (issue 13): preloaded into the server by the benchmark
 * (`NODE_OPTIONS=--import=<this file>`), it appends `process.memoryUsage()` — rss, heapTotal, heapUsed,
 * external, arrayBuffers, in bytes — as one JSON line with the time (ms since the epoch) every 250 ms to
 * `BENCH_MEMORY_FILE`. Active only in the server process (`dist/server/main.mjs`): NODE_OPTIONS also reaches
 * npm and the build step, which stay silent. Its own cost is a timer and one small string every 250 ms.
 */
import fs from 'node:fs';
import process from 'node:process';
import { setInterval } from 'node:timers';

const file = process.env.BENCH_MEMORY_FILE;
if (file && /dist[\\/]server[\\/]main\.mjs$/.test(process.argv[1] ?? '')) {
  const fd = fs.openSync(file, 'a');
  setInterval(() => {
    const m = process.memoryUsage();
    fs.writeSync(fd, `${JSON.stringify({ t: Date.now(), rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers })}\n`);
  }, 250).unref();
}
