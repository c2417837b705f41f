/**
 * Excel benchmark (DESIGN §10 'Excel: import 100,000 rows in under 30 s with the server under 300 MB RSS;
 * export 100,000 rows streaming'; issue 13).
 *
 * `npm run bench:excel` (a few minutes):
 *
 * 1. Starts the server with `npm start` itself — the build step (scripts/build-server.ts), then `node` with the
 *    start script's flags running dist/server/main.mjs — over a fresh data folder in
 *    `<tmpdir>/kc-bench-excel-<pid>` (embedded PostgreSQL on a free port, migrations, table sync, demo seed,
 *    the seeded Excel templates). The web client is built first in this process when stale, so that the
 *    server finds it current and does not build it. The server process (the node running main.mjs, found
 *    among npm's descendants) is measured alone: its peak resident set (VmHWM of /proc/<pid>/status, the
 *    kernel's own high-water mark) is read after each step and its current RSS sampled every 100 ms; its heap
 *    figures (`process.memoryUsage()`) come from memory-probe.mjs, preloaded with `NODE_OPTIONS=--import`, every
 *    250 ms.
 * 2. Logs in as `admin` and reads the seeded patent template (`detailByCode?code=patent`: its zh headers) and
 *    the labels of the dictionaries its columns translate.
 * 3. Writes `BENCH_ROWS` (default 100,000) valid patents into an .xlsx with exceljs's streaming writer in this
 *    process: every template column, labels for dictionaries and options, the department by name, dates as
 *    text, the sub-tables and attachments as JSON, a unique patent number per row.
 * 4. Import: `POST importData` (isCovered 0) — a file this size runs as an `excel-import` job; the time is
 *    from the upload to the job's end (polled every 250 ms), then the rows are counted in the table.
 * 5. The import's follow-up job (`excel-after-commit`: the imported rows into the search index) is waited for
 *    and timed on its own, so that the export is measured alone.
 * 6. Export: `GET exportData` of the same template (all rows: also a job, streamed through a cursor into the
 *    workbook writer), timed to the job's end, then the file is downloaded and its size printed.
 *
 * Printed: the server's command line and the options it ran with (start script, NODE_OPTIONS, MALLOC_ARENA_MAX,
 * the heap growth of core/heap.ts), its RSS and heap at rest; per step seconds, rows per second, the server's
 * CPU seconds (comparable across loads), the largest RSS and heap figures during the step, and a verdict line
 * against the budget (under 30 s, server under 300 MB) with each figure's ratio to it; the machine's load average at the start and at the end (times on a
 * shared machine are only comparable at a similar load). `BENCH_SERVER_NODE_OPTIONS` is added to the server's
 * NODE_OPTIONS, to try an option before it goes into the start script. The exit code is 0 whatever the figures
 * (a benchmark is not a test); non-zero only when something fails. `BENCH_ROWS` changes the row count.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ExcelJS from 'exceljs';
import { ensureClientBuild } from '../../src/server/client-build.js';
import { HEAP_GROWING_PERCENT } from '../../src/server/core/heap.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BUDGET_S = 30;
const BUDGET_MB = 300;
const repo = path.resolve(import.meta.dirname, '../..');
const say = (s: string) => console.log(s);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** The `VmRSS` and `VmHWM` (peak) of process `pid`, in MB. */
function memory(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/**
 * CPU seconds the process `pid` has used so far (user + system, /proc/<pid>/stat at 100 ticks a second): unlike
 * the wall time, hardly changed by the load of the machine, so runs at different loads compare.
 */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime and stime: fields 14 and 15 of stat(5)
}

/** One line of memory-probe.mjs: `process.memoryUsage()` of the server at time `t` (ms since the epoch), bytes. */
interface HeapLine {
  t: number;
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** The largest of each heap figure the server's probe wrote in `file` between `t0` and `t1`, as text in MB. */
function heapText(file: string, t0: number, t1: number): string {
  const lines = (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '').split('\n').filter(Boolean).map((l) => JSON.parse(l) as HeapLine);
  const within = lines.filter((l) => l.t >= t0 && l.t <= t1);
  const pick = within.length ? within : lines.slice(-1);
  if (!pick.length) return 'heap figures: none (the probe wrote nothing)';
  const max = (k: keyof HeapLine) => (Math.max(...pick.map((l) => l[k])) / 1048576).toFixed(0);
  return `heapTotal ${max('heapTotal')} MB, heapUsed ${max('heapUsed')} MB, external ${max('external')} MB, arrayBuffers ${max('arrayBuffers')} MB (largest of ${pick.length} samples)`;
}

/**
 * Samples the RSS of `pid` every 100 ms while `work` runs; answers its result, seconds, CPU seconds, the largest
 * RSS sampled, the time span (ms since the epoch) and `peak`: the kernel's high-water mark (VmHWM) of the step
 * alone when it could be reset before it (`5` into /proc/<pid>/clear_refs, Linux ≥ 4.0; `stepPeak` true),
 * otherwise the high-water mark since the server started. A sample every 100 ms can miss a short spike; the
 * high-water mark cannot, so the verdict takes the larger of the two.
 */
async function measured<T>(pid: number, work: () => Promise<T>): Promise<{ value: T; seconds: number; cpu: number; maxRss: number; peak: number; stepPeak: boolean; t0: number; t1: number }> {
  let stepPeak = true;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    stepPeak = false;
  }
  let maxRss = memory(pid).rss;
  const cpu0 = cpuSeconds(pid);
  const timer = setInterval(() => (maxRss = Math.max(maxRss, memory(pid).rss)), 100);
  const t0 = performance.now();
  const from = Date.now();
  try {
    const value = await work();
    return { value, seconds: (performance.now() - t0) / 1000, cpu: cpuSeconds(pid) - cpu0, maxRss: Math.max(maxRss, memory(pid).rss), peak: memory(pid).peak, stepPeak, t0: from, t1: Date.now() + 300 };
  } finally {
    clearInterval(timer);
  }
}

async function main(): Promise<void> {
  const dataDir = path.join(os.tmpdir(), `kc-bench-excel-${process.pid}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o755); // PostgreSQL runs as user postgres and must traverse it
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const memFile = path.join(dataDir, 'memory.jsonl');
  let server: ChildProcess | undefined;
  let pid = 0;
  const stop = async () => {
    if (server && server.exitCode === null) {
      // main.ts stops the app and PostgreSQL cleanly on SIGINT; npm then exits with it
      if (pid) process.kill(pid, 'SIGINT');
      else server.kill('SIGINT');
      const exited = new Promise((r) => server!.once('exit', r));
      const late = setTimeout(() => {
        say('the server did not stop in 60 s: killed');
        for (const p of [pid, server!.pid].filter(Boolean)) {
          try {
            process.kill(p!, 'SIGKILL');
          } catch {
            /* gone */
          }
        }
      }, 60_000);
      await exited;
      clearTimeout(late);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void stop().finally(() => process.exit(130)));
  try {
    await ensureClientBuild(say); // current already, normally: then the server skips its own build too
    const startScript = (JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
    const probe = pathToFileURL(path.join(repo, 'tests/bench/memory-probe.mjs')).href;
    const nodeOptions = [process.env.NODE_OPTIONS, process.env.BENCH_SERVER_NODE_OPTIONS, `--import=${probe}`].filter(Boolean).join(' ');
    say(`starting the server with \`npm start\` (${startScript}), data in ${dataDir} ...`);
    server = spawn('npm', ['start', '--silent'], {
      cwd: repo,
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PG_PORT: String(await freePort()), NODE_ENV: 'production', NODE_OPTIONS: nodeOptions, BENCH_MEMORY_FILE: memFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    server.stdout!.on('data', () => undefined);
    pid = await serverPid(server.pid!);
    await waitReady(base);
    const password = fs.readFileSync(path.join(dataDir, 'initial-password'), 'utf8').trim();
    const token = await login(base, password);
    const headers = { 'Blade-Auth': `bearer ${token}`, Authorization: 'Basic ' + Buffer.from('saber:saber_secret').toString('base64') };
    const api = async <T>(url: string, init: RequestInit = {}): Promise<T> => {
      const res = await fetch(base + url, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
      const body = (await res.json()) as { code: number; data: T; msg: string };
      if (body.code !== 200) throw new Error(`${url}: ${body.code} ${body.msg}`);
      return body.data;
    };
    const tpl = await api<{ id: string; columns: Array<{ field: string; title: string }> }>('/api/system/exceltemplate/detailByCode?code=patent');
    const dict = async (code: string) => (await api<Array<{ dictKey: string; dictValue: string }>>(`/api/blade-system/dict/dictionary?code=${code}`))[0].dictValue;
    const me = await api<{ deptId?: string; deptName?: string }>('/api/blade-user/info').catch(() => ({}) as { deptName?: string });
    const deptName = me.deptName ?? '集团科技信息部';
    const labels = { projectType: await dict('achievements_resource'), type: await dict('patent_type') };
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    // the server's own environment (the start script may set variables of its own)
    const environ = new Map(fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)] as const));
    const growing = environ.get('KC_HEAP_GROWING_PERCENT') ?? `${HEAP_GROWING_PERCENT} (core/heap.ts default)`;
    say(`server pid ${pid}: ${cmdline}`);
    say(`  flags: node ${cmdline.replace(/^\S+\s*/, '').replace(/\s*\S*dist\/server\/main\.mjs.*$/, '') || '(none)'}; NODE_OPTIONS=${environ.get('NODE_OPTIONS') ?? ''} (the probe is the bench's own); MALLOC_ARENA_MAX=${environ.get('MALLOC_ARENA_MAX') ?? 'unset'}; --heap-growing-percent=${growing} set at start by main.ts (core/heap.ts)`);
    await new Promise((r) => setTimeout(r, 1000)); // a probe line or more
    const rest = Date.now();
    say(`load average ${loadText()} on ${os.cpus().length} CPUs; server RSS ${memory(pid).rss.toFixed(0)} MB at rest (peak ${memory(pid).peak.toFixed(0)} MB while starting and seeding), ${heapText(memFile, rest - 1000, rest)}; template ${tpl.id} with ${tpl.columns.length} columns`);

    const file = path.join(dataDir, 'patents.xlsx');
    const tw = performance.now();
    await writePatents(file, tpl.columns, { ...labels, deptName });
    say(`wrote ${ROWS.toLocaleString('en')} patents to ${path.basename(file)} (${(fs.statSync(file).size / 1048576).toFixed(1)} MB) in ${((performance.now() - tw) / 1000).toFixed(1)} s`);

    const poll = async (jobId: string) => {
      for (;;) {
        const j = await api<{ status: string; writtenCount: number; failedCount: number; error: string | null }>(`/api/blade-job/job/detail?id=${jobId}`);
        if (j.status === 'done' || j.status === 'failed') return j;
        await new Promise((r) => setTimeout(r, 250));
      }
    };

    const imp = await measured(pid, async () => {
      const fd = new FormData();
      fd.append('isCovered', '0');
      fd.append('templateId', tpl.id);
      fd.append('file', new Blob([fs.readFileSync(file)]), 'patents.xlsx');
      const data = await api<{ jobId: string }>('/api/system/exceltemplate/importData', { method: 'POST', body: fd });
      return { ...(await poll(data.jobId)), id: data.jobId };
    });
    if (imp.value.status !== 'done') throw new Error(`import failed: ${imp.value.error}`);
    const count = await api<{ total: number; totalBounded?: boolean }>('/api/basic/patent/list?authorizationCode=BENCH-&size=1');
    say(`import: ${imp.value.writtenCount.toLocaleString('en')} rows in ${imp.seconds.toFixed(1)} s = ${Math.round(imp.value.writtenCount / imp.seconds).toLocaleString('en')} rows/s (server CPU ${imp.cpu.toFixed(1)} s); server RSS max ${imp.maxRss.toFixed(0)} MB sampled, ${imp.peak.toFixed(0)} MB peak ${imp.stepPeak ? 'during the import' : 'since start'} (VmHWM); list total ${count.total}${count.totalBounded ? '+' : ''}`);
    say(`  import heap: ${heapText(memFile, imp.t0, imp.t1)}`);

    // the imported rows reach the search index in a follow-up job (excel-after-commit, import-route.ts), after
    // the import's answer: timed on its own, so that the export below is measured alone
    const idx = await measured(pid, async () => {
      for (let i = 0; i < 40; i++) {
        const [job] = await api<Array<{ id: string }>>(`/api/blade-job/job/list?kind=excel-after-commit&ref=${imp.value.id}`);
        if (job) return poll(job.id);
        await new Promise((r) => setTimeout(r, 250));
      }
      return null; // none queued: the resource has no afterCommit hooks
    });
    if (idx.value) say(`search indexing of the imported rows (follow-up job, not in the import's time): ${idx.seconds.toFixed(1)} s (server CPU ${idx.cpu.toFixed(1)} s), ${idx.value.status}; server RSS max ${idx.maxRss.toFixed(0)} MB sampled, ${idx.peak.toFixed(0)} MB peak (VmHWM); ${heapText(memFile, idx.t0, idx.t1)}`);

    // more rows than EXCEL_INLINE_ROWS (5,000) export as a job; fewer stream straight back
    const exp = await measured(pid, async () => {
      const res = await fetch(`${base}/api/system/exceltemplate/exportData?templateId=${tpl.id}&authorizationCode=BENCH-`, { headers });
      if (!(res.headers.get('content-type') ?? '').includes('json')) return { rows: imp.value.writtenCount, bytes: (await res.arrayBuffer()).byteLength, how: 'streamed' };
      const { data } = (await res.json()) as { data: { jobId: string } };
      const job = await poll(data.jobId);
      if (job.status !== 'done') throw new Error(`export failed: ${job.error}`);
      const out = await fetch(`${base}/api/blade-job/job/file?id=${data.jobId}`, { headers });
      return { rows: job.writtenCount, bytes: (await out.arrayBuffer()).byteLength, how: 'job' };
    });
    say(`export (${exp.value.how}): ${exp.value.rows.toLocaleString('en')} rows in ${exp.seconds.toFixed(1)} s = ${Math.round(exp.value.rows / exp.seconds).toLocaleString('en')} rows/s (server CPU ${exp.cpu.toFixed(1)} s); server RSS max ${exp.maxRss.toFixed(0)} MB sampled, ${exp.peak.toFixed(0)} MB peak ${exp.stepPeak ? 'during the export' : 'since start'} (VmHWM); file ${(exp.value.bytes / 1048576).toFixed(1)} MB`);
    say(`  export heap: ${heapText(memFile, exp.t0, exp.t1)}`);

    const ratio = (x: number, budget: number) => `${(x / budget).toFixed(2)}× the budget`;
    const verdict = (label: string, s: number, mb: number) =>
      say(
        `verdict ${label}: time ${s < BUDGET_S ? 'PASS' : 'FAIL'} (${s.toFixed(1)} s < ${BUDGET_S} s: ${ratio(s, BUDGET_S)}), memory ${mb < BUDGET_MB ? 'PASS' : 'FAIL'} (${mb.toFixed(0)} MB < ${BUDGET_MB} MB: ${ratio(mb, BUDGET_MB)})`,
      );
    // the larger of the samples and the step's own high-water mark (when it could be reset: see measured)
    verdict('import', imp.seconds, imp.stepPeak ? Math.max(imp.maxRss, imp.peak) : imp.maxRss);
    verdict('export', exp.seconds, exp.stepPeak ? Math.max(exp.maxRss, exp.peak) : exp.maxRss);
    say(`server RSS at the end ${memory(pid).rss.toFixed(0)} MB; load average at the end ${loadText()}`);
  } finally {
    await stop();
  }
}

/** The pid of the node process running dist/server/main.mjs among the descendants of `root` (npm, its shell). */
async function serverPid(root: number): Promise<number> {
  const children = (p: number) => {
    try {
      return fs.readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const cmd = (p: number) => {
    try {
      return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8');
    } catch {
      return '';
    }
  };
  for (let i = 0; i < 1200; i++) {
    const todo = [root];
    while (todo.length) {
      const p = todo.pop()!;
      const args = cmd(p).split('\0');
      if (p !== root && path.basename(args[0]).startsWith('node') && args.some((a) => a.endsWith('dist/server/main.mjs'))) return p;
      todo.push(...children(p));
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no node process running dist/server/main.mjs appeared under npm start in 120 s');
}

const loadText = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');

async function waitReady(base: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(`${base}/api/blade-auth/oauth/captcha`);
      if (res.status < 500) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the server did not start in 150 s');
}

async function login(base: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/blade-auth/oauth/token`, {
    method: 'POST',
    headers: { Authorization: 'Basic ' + Buffer.from('saber:saber_secret').toString('base64'), 'Tenant-Id': '000000', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: 'admin', password }).toString(),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`login failed: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/** Writes ROWS valid patents in the template's columns (zh headers), streamed. */
async function writePatents(file: string, columns: Array<{ field: string; title: string }>, l: { projectType: string; type: string; deptName: string }): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: false, useSharedStrings: false });
  const ws = wb.addWorksheet('专利');
  ws.addRow(columns.map((c) => c.title)).commit();
  const topics = ['低温储粮', '粮情测控', '智能通风', '害虫防治', '气调储粮', '仓储物流'];
  for (let i = 0; i < ROWS; i++) {
    const v: Record<string, unknown> = {
      name: `${topics[i % topics.length]}装置及方法 ${i}`,
      deptId: l.deptName,
      projectSource: '无',
      projectName: '智能粮库关键技术研究',
      projectType: l.projectType,
      type: l.type,
      region: '中国',
      address: '北京市西城区',
      postcode: '100032',
      applyDate: '2024-03-15',
      authorizationDate: '2025-06-20',
      openCode: `CN${117000000 + i}A`,
      authorizationCode: `BENCH-${i}`,
      code: `第${i}号`,
      isTransfer: '否',
      ownershipDetailForm: '[{"name":"粮储集团有限公司","rank":1}]',
      userNamesDetailForm: '[{"userName":"刘研","rank":1}]',
      annex: '[{"name":"证书.pdf","link":"/upload/20250101/a.pdf"}]',
    };
    ws.addRow(columns.map((c) => v[c.field] ?? null)).commit();
  }
  ws.commit();
  await wb.commit();
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
