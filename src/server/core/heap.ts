/**
 * How the server's V8 heap grows (issue 13; DESIGN §10 'import 100,000 rows … with the server under 300 MB
 * RSS').
 *
 * After each full collection V8 sets the next limit of the old generation to the live size times a factor it
 * picks from the allocation rate, up to 4×: an Excel import allocating fast grew a heap of ~100 MB live objects
 * to 300–400 MB (bench:excel, `heapTotal`), and the resident memory with it. A fixed factor of
 * 1 + percent/100 (`--heap-growing-percent`) keeps the heap near what is live; unlike a cap
 * (`--max-old-space-size`) it never makes the process run out of memory — V8 only collects more often.
 *
 * The flag is read at every collection, so setting it once at start (`v8.setFlagsFromString`) applies to the
 * whole run; it is not allowed in NODE_OPTIONS. `tuneHeap` is called by the server's entry point (main.ts, so
 * also the bundle `npm start` runs and bench:excel measures), not by the tests' in-process apps.
 *
 * The rest of the server's memory settings are in `npm start`'s command (package.json; they must be given
 * before V8 or glibc start): `--max-semi-space-size=2` (a young generation of 2 × 2 MB instead of up to
 * 2 × 16 MB), `--optimize-for-size` (V8 finishes a collection of the old generation when it reaches its limit
 * instead of growing past it while marking; without it the heap of an import reached 150–260 MB for 70–80 MB of
 * live objects) and `MALLOC_ARENA_MAX=2` (glibc's arenas for the threads of libuv, V8 and jieba).
 *
 * The price is CPU: each of those collections compacts, and a small young generation promotes short-lived rows.
 * Measured with bench:excel (100,000 patents, quiet 2-CPU machine, load 0.3–2.9), the import still reading with
 * exceljs: these settings, peak RSS 259–282 MB, import 35–38 s (38–40 CPU s), export 6–7 s;
 * `--max-semi-space-size=8` with a growth of 50 %: 293–304 MB, import 32–34 s; 4 MB and 50 %: 293 MB, 32 s; none
 * of the settings: 427 MB. Since the import reads with excel/xlsx-rows.ts (no object per cell), at load 1.4–4.8:
 * these settings, import 23–27 s (17–19 CPU s; 34.5 s at load 4.8) with a peak of 243–269 MB, export 5.0–9.6 s
 * with 240–281 MB (exceljs, which the export loads, is no longer loaded by the import); without
 * `--optimize-for-size`: import 21–22 s (14 CPU s) but peaks of 294–297 MB, too near the budget. None caps
 * the heap (`--max-old-space-size`): a non-streaming task (a CNKI workbook, a duplicate check) can still use
 * what it needs.
 */
import v8 from 'node:v8';

/** The default growth of the old generation after a collection, in percent of the live size. */
export const HEAP_GROWING_PERCENT = 25;

/**
 * Fixes the heap's growth factor to 1 + `percent`/100; `KC_HEAP_GROWING_PERCENT` overrides the default
 * (0 or a value that is not a positive integer leaves V8's own heuristics). Answers the percent applied (0: none).
 */
export function tuneHeap(percent: number = process.env.KC_HEAP_GROWING_PERCENT !== undefined ? Number(process.env.KC_HEAP_GROWING_PERCENT) : HEAP_GROWING_PERCENT): number {
  if (!Number.isInteger(percent) || percent <= 0) return 0;
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  return percent;
}
