/**
 * `npm run bench:ui` — the client's budgets of DESIGN §10, measured in headless Debian chromium against the real
 * server (started as the browser tests start it: NODE_ENV=test, a fresh DATA_DIR, the production client build).
 * A script that prints figures, not a test: it exits 0 whatever the figures (1 only when it crashes).
 *
 * (a) List: 200 patents are seeded through the API; the patent list is opened (page size 10) and the page size
 *     changed to 200 in the pagination. Timed in the page with performance.now(), from the click on "200 条/页"
 *     to the 200th row in the DOM (the list request included). 5 runs, each on a fresh page load. Budget 300 ms.
 * (b) Form: the schema of basic/patent is replaced (page.route on /api/system/schema/detail) by one of 100 fields
 *     (inputs, numbers, selects, dictionary selects, dates, switches, text areas in a two-column grid); timed from
 *     the click on 新增 to the 100th field in the DOM of the dialog. 5 runs (the dialog is destroyed on close).
 *     Budget 500 ms.
 * (c) First screen: every JavaScript response of a fresh /login load (empty cache), gzipped with zlib
 *     (level 6, as a server would) and summed. Budget 250 KB (DESIGN §10).
 *
 * `BENCH_ONLY=a,b,c` (any of them, comma-separated) runs only those parts; `BENCH_ONLY=c` skips seeding the
 * patents too (the first screen needs none).
 */
import zlib from 'node:zlib';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { CHROMIUM, startServer, type RunningServer } from '../e2e/server.js';
import { loginThroughPage, seedPatents } from '../e2e/browser.js';

const RUNS = 5;
/** The parts to run (`BENCH_ONLY`, default all three). */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'a,b,c').split(',').map((p) => p.trim().toLowerCase()));
const ROWS = 200;
const FIELDS = 100;

interface Figure {
  name: string;
  value: string;
  budget: string;
  pass: boolean;
  detail: string;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x: number) => `${x.toFixed(0)} ms`;

function tinyPdf(): Buffer {
  return Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
}

/**
 * Clicks `target` in the page and answers the time (performance.now()) until `selector` matches at least `min`
 * elements, and the duration of the last request whose URL contains `request` (and `param`) started after the
 * click. Written as a string: tsx (esbuild keepNames) would wrap functions passed to evaluate in `__name`.
 */
async function clickAndTime(page: Page, target: Locator, selector: string, min: number, request = '', param = ''): Promise<{ total: number; request: number }> {
  await target.evaluate((el) => el.setAttribute('data-bench-target', '1'));
  const source = `new Promise((resolve, reject) => {
    const selector = ${JSON.stringify(selector)}, min = ${min}, request = ${JSON.stringify(request)}, param = ${JSON.stringify(param)};
    const el = document.querySelector('[data-bench-target]');
    el.removeAttribute('data-bench-target');
    const t0 = performance.now();
    let obs;
    const check = () => {
      if (document.querySelectorAll(selector).length < min) return false;
      // the answer to this click must have arrived (a virtual table keeps the old rows in view until then)
      if (request && !performance.getEntriesByType('resource').some((e) => e.name.includes(request) && e.name.includes(param) && e.startTime >= t0)) return false;
      const t1 = performance.now();
      if (obs) obs.disconnect();
      const entry = request ? performance.getEntriesByType('resource').filter((e) => e.name.includes(request) && e.name.includes(param) && e.startTime >= t0).pop() : undefined;
      resolve({ total: t1 - t0, request: entry ? entry.responseEnd - entry.startTime : NaN });
      return true;
    };
    el.click();
    if (check()) return;
    obs = new MutationObserver(check);
    obs.observe(document.body, { childList: true, subtree: true });
    setTimeout(() => reject(new Error('only ' + document.querySelectorAll(selector).length + ' of ' + min + ' after 20 s')), 20000);
  })`;
  return (await page.evaluate(source)) as { total: number; request: number };
}

/** Rows a 640 px virtual table body shows at once (row height ≈ 55 px with the action buttons). */
const VISIBLE_ROWS = 10;

/** (a) the patent list going from 10 to 200 rows. */
async function listRender(browser: Browser, server: RunningServer): Promise<{ times: number[]; api: number[]; columns: number }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await loginThroughPage(page, server.baseURL, 'kygl', server.password);
  const times: number[] = [];
  const api: number[] = [];
  let columns = 0;
  for (let run = 0; run < RUNS; run++) {
    await page.goto(`${server.baseURL}/basic/patent`);
    await page.locator('.ant-table-tbody tr.ant-table-row').nth(9).waitFor();
    columns = await page.locator('.ant-table-thead tr').first().locator('th').count();
    await page.locator('.ant-pagination-options .ant-select-selector').click();
    const option = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: `${ROWS} 条/页` });
    await option.waitFor();
    // a page of 200 is a virtual table (src/client/runtime/ListPage.tsx): the rows in view are in the DOM, the
    // rest is rendered while scrolling; the figure is the time until the first screen of the 200 rows shows
    const r = await clickAndTime(page, option, '.ant-table-row', VISIBLE_ROWS, `/api/basic/patent/list`, `size=${ROWS}`);
    const rows = await page.locator('.ant-table-row').count();
    if (rows < VISIBLE_ROWS) throw new Error(`the list shows ${rows} rows, expected at least ${VISIBLE_ROWS} in view`);
    // scrolling to the end shows the 200th record
    await page.locator('.ant-table-tbody-virtual-holder').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.locator('.ant-table-row').last().waitFor();
    times.push(r.total);
    api.push(r.request);
  }
  await context.close();
  return { times, api, columns };
}

/** The 100-field resource schema (same name and api as basic/patent, so the menu and the list work). */
function bigSchema(patent: Record<string, any>): Record<string, any> {
  const properties: Record<string, unknown> = {};
  const kinds = ['Input', 'Input', 'Input', 'NumberPicker', 'Select', 'DictSelect', 'DatePicker', 'Input', 'Switch', 'Input.TextArea'];
  for (let i = 1; i <= FIELDS; i++) {
    const name = `f${String(i).padStart(3, '0')}`;
    const kind = kinds[(i - 1) % kinds.length];
    const base = { title: `字段${i}`, titleEn: `Field ${i}`, 'x-decorator': 'FormItem', 'x-component': kind } as Record<string, unknown>;
    if (i % 4 === 1) base['x-validator'] = [{ required: true, message: `请输入字段${i}`, messageEn: `Please enter field ${i}` }];
    if (kind === 'NumberPicker') properties[name] = { ...base, type: 'number', minimum: 0 };
    else if (kind === 'Select') properties[name] = { ...base, type: 'string', enum: [1, 2, 3, 4, 5].map((v) => ({ label: `选项${v}`, labelEn: `Option ${v}`, value: String(v) })) };
    else if (kind === 'DictSelect') properties[name] = { ...base, type: 'string', 'x-component-props': { code: 'patent_type' } };
    else if (kind === 'DatePicker') properties[name] = { ...base, type: 'string', format: 'date' };
    else if (kind === 'Switch') properties[name] = { ...base, type: 'boolean' };
    else properties[name] = { ...base, type: 'string', maxLength: 200 };
  }
  return {
    ...patent,
    form: {
      type: 'object',
      'x-component-props': { labelWidth: 130, dialogWidth: 1000 },
      properties: { grid: { type: 'void', 'x-component': 'FormGrid', 'x-component-props': { maxColumns: 2, minColumns: 1 }, properties } },
    },
    detail: undefined,
    list: { ...patent.list, columns: patent.list.columns.map((c: { field: string }, i: number) => ({ ...c, field: `f${String(i + 1).padStart(3, '0')}` })), search: [] },
  };
}

/** (b) the add dialog of a 100-field form. */
async function formRender(browser: Browser, server: RunningServer): Promise<number[]> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.route((u) => u.pathname === '/api/system/schema/detail', async (route) => {
    const url = new URL(route.request().url());
    if (url.searchParams.get('name') !== 'basic/patent') return route.continue();
    const res = await route.fetch();
    const json = (await res.json()) as { data: Record<string, any> };
    await route.fulfill({ response: res, json: { ...json, data: bigSchema(json.data) } });
  });
  await loginThroughPage(page, server.baseURL, 'kygl', server.password);
  await page.goto(`${server.baseURL}/basic/patent`);
  await page.locator('.ant-table-thead').getByText('字段1', { exact: true }).waitFor();
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const add = page.locator('.kc-list-page button', { hasText: /新\s*增/ }).first();
    const t = (await clickAndTime(page, add, '.ant-modal .ant-formily-item', FIELDS)).total;
    const fields = await page.locator('.ant-modal .ant-formily-item').count();
    if (fields !== FIELDS) throw new Error(`the dialog shows ${fields} fields, expected ${FIELDS}`);
    times.push(t);
    await page.locator('.ant-modal-footer button', { hasText: /取\s*消/ }).click();
    await page.locator('.ant-modal').waitFor({ state: 'detached' });
  }
  await context.close();
  return times;
}

/** (c) the JavaScript of a fresh /login load, gzipped. */
async function loginJs(browser: Browser, server: RunningServer): Promise<{ files: Array<{ url: string; raw: number; gz: number }> }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page: Page = await context.newPage();
  const pending: Array<Promise<{ url: string; raw: number; gz: number } | null>> = [];
  page.on('response', (r) => {
    const type = r.request().resourceType();
    const isJs = type === 'script' || /\.m?js(\?|$)/.test(new URL(r.url()).pathname) || (r.headers()['content-type'] ?? '').includes('javascript');
    if (!isJs) return;
    pending.push(
      r
        .body()
        .then((b) => ({ url: new URL(r.url()).pathname, raw: b.length, gz: zlib.gzipSync(b, { level: 6 }).length }))
        .catch(() => null),
    );
  });
  await page.goto(`${server.baseURL}/login`, { waitUntil: 'networkidle' });
  await page.locator('img.kc-captcha').waitFor();
  const files = (await Promise.all(pending)).filter((f): f is { url: string; raw: number; gz: number } => f !== null);
  await context.close();
  return { files };
}

async function main() {
  const t0 = Date.now();
  console.log('bench:ui — starting the server (NODE_ENV=test, fresh DATA_DIR; the client is built first when stale) ...');
  const server = await startServer();
  let browser: Browser | undefined;
  try {
    if (ONLY.has('a') || ONLY.has('b')) {
      console.log(`server on ${server.baseURL}; seeding ${ROWS} patents through the API ...`);
      await seedPatents(server.baseURL, server.password, ROWS, tinyPdf());
    }
    browser = await chromium.launch(CHROMIUM);

    const js = ONLY.has('c') ? await loginJs(browser, server) : undefined;
    const list = ONLY.has('a') ? await listRender(browser, server) : undefined;
    const form = ONLY.has('b') ? await formRender(browser, server) : undefined;

    const figures: Figure[] = [];
    if (list) {
      figures.push({
        name: `(a) patent list, ${ROWS} rows × ${list.columns} columns`,
        value: `median ${ms(median(list.times))}, max ${ms(Math.max(...list.times))}`,
        budget: '< 300 ms',
        pass: median(list.times) < 300,
        detail: `runs ${list.times.map(ms).join(', ')}; of which the list request ${list.api.map(ms).join(', ')}`,
      });
    }
    if (form) {
      figures.push({
        name: `(b) add dialog, ${FIELDS}-field form`,
        value: `median ${ms(median(form))}, max ${ms(Math.max(...form))}`,
        budget: '< 500 ms',
        pass: median(form) < 500,
        detail: `runs ${form.map(ms).join(', ')}`,
      });
    }
    if (js) {
      const gzTotal = js.files.reduce((s, f) => s + f.gz, 0);
      const rawTotal = js.files.reduce((s, f) => s + f.raw, 0);
      figures.push({
        name: '(c) /login JavaScript, gzip',
        value: `${(gzTotal / 1024).toFixed(1)} KB (${(rawTotal / 1024).toFixed(1)} KB raw, ${js.files.length} files)`,
        budget: '< 250 KB',
        pass: gzTotal < 250 * 1024,
        detail: js.files.map((f) => `${f.url} ${(f.gz / 1024).toFixed(1)} KB`).join('; '),
      });
    }

    const w = [Math.max(...figures.map((f) => f.name.length)), Math.max(...figures.map((f) => f.value.length)), 9];
    const line = (a: string, b: string, c: string, d: string) => `${a.padEnd(w[0])}  ${b.padEnd(w[1])}  ${c.padEnd(w[2])}  ${d}`;
    console.log('');
    console.log(line('measure', 'result', 'budget', 'verdict'));
    console.log(line('-'.repeat(w[0]), '-'.repeat(w[1]), '-'.repeat(w[2]), '-------'));
    for (const f of figures) console.log(line(f.name, f.value, f.budget, f.pass ? 'PASS' : 'FAIL'));
    console.log('');
    for (const f of figures) console.log(`${f.name}: ${f.detail}`);
    console.log(`\nheadless chromium ${browser.version()}, ${RUNS} runs each; total ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  } finally {
    await browser?.close();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
