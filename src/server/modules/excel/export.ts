/**
 * Excel export (spec 002 §2, §5, §7; issue 13): `GET /api/system/exceltemplate/exportData?templateId=&ids=`
 * plus the list's own filters, and `GET /api/system/exceltemplate/exportTemplate?templateId=` (the empty
 * template: its header row only).
 *
 * What is exported is exactly what the list shows the caller: the rows come from the engine's own list SQL
 * (`ResourceEngine.buildPageQuery`: tenant, live rows, data scope, the same filters and order — no second
 * copy of any of it), read through a server-side cursor (`DECLARE … CURSOR`, 1,000 rows per FETCH) and written
 * with exceljs's streaming `WorkbookWriter` (each row committed as it is written, the writer held to the
 * compressor's pace by `drained`), so memory does not grow with the number of rows. `ids` (a comma list, at most 1,000) limits the export to the checked rows; `scope`
 * = `myList` or `list-for-myCompany` exports those lists instead. Cells follow the template (resources/translate.ts);
 * headers are in the caller's language.
 *
 * Up to `inlineRows` rows (default 5,000, `EXCEL_INLINE_ROWS`) stream straight back as the download
 * (`<exportDataFileName or fileName><yyyyMMddHHmmss>.xlsx`); more become an `excel-export` job (core/jobs.ts)
 * whose file is downloadable when done (`{jobId}` is answered with a message; the job shows in the report
 * list). Access: reading the resource, and the `<menu>_export` button for anyone but an administrator (403).
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type ExcelJS from 'exceljs';
import { loadExcelJS } from '../../core/lazy-libs.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser, GrantCache } from '../../core/context.js';
import { attachment, type Jobs } from '../../core/jobs.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { quote, type Conditions } from '../../resources/query.js';
import { buttonCode } from '../../../shared/contract/grants.js';
import { isId } from '../../../shared/contract/ids.js';
import type { Lang } from '../../../shared/i18n/messages.js';
import { loadTemplate, type LoadedTemplate } from './templates.js';
import { Translator } from '../../resources/translate.js';
import { M } from './messages.js';
import { addReport } from './report.js';

type Row = Record<string, unknown>;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const FETCH = 1000;
export const EXPORT_KIND = 'excel-export';

/** yyyyMMddHHmmss of `at` in `timeZone` (spec 002 §7: downloads are the name plus this stamp). */
export function stamp(timeZone: string, at = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${get('year')}${get('month')}${get('day')}${get('hour')}${get('minute')}${get('second')}`;
}

/** A worksheet name Excel accepts (no []:*?/\, at most 31 characters). */
const sheetName = (s: string) => s.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1';

/**
 * Backpressure for exceljs's WorkbookWriter: a committed row goes into the worksheet's zip entry at once,
 * whatever the compressor's pace (exceljs 4.4 ignores the entry stream's backlog), so a fast producer piles
 * the uncompressed XML up in memory (measured: +130 MB for 100,000 rows). This waits while more than 4 MB wait
 * to be compressed; with it the writer's memory stays flat.
 */
export async function drained(ws: unknown): Promise<void> {
  type Side = { length?: number };
  const entry = (ws as { stream?: { pipes?: Array<{ _writableState?: Side; _readableState?: Side }> } }).stream?.pipes?.[0];
  const backlog = () => (entry?._writableState?.length ?? 0) + (entry?._readableState?.length ?? 0);
  while (entry && backlog() > 4 * 1048576) await new Promise((r) => setTimeout(r, 5));
}

/** What an export selects: the list filters, the checked ids, the list scope. */
export interface ExportSelection {
  query: Record<string, string>;
  ids?: string[];
  scope?: 'list' | 'myList' | 'list-for-myCompany';
}

/** Throws 403 unless `user` may export (or, with `op` import, import) `t`'s resource (see the module comment). */
export async function assertButton(engine: ResourceEngine, grants: GrantCache, user: AuthUser, t: LoadedTemplate, op: 'export' | 'import'): Promise<void> {
  await engine.authorize(user, t.resource, 'read');
  const menu = t.resource.schema.menu;
  if (user.isAdmin || !menu) return;
  if (!(await grants.hasCode(user.activeRoleIds, buttonCode(menu, op)))) throw new ApiError(403, 'forbidden');
}

/** Reads the selection of an exportData request (400 for bad ids or scope). */
export function selectionOf(q: Row, t: LoadedTemplate): ExportSelection {
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(q)) {
    if (['templateId', 'ids', 'scope', 'current', 'size'].includes(k)) continue;
    if (typeof v !== 'string') throw new ApiError(400, 'badParam', { param: k });
    query[k] = v;
  }
  const sel: ExportSelection = { query };
  if (typeof q.ids === 'string' && q.ids.trim() !== '') {
    const ids = [...new Set(q.ids.split(',').map((s) => s.trim()).filter(Boolean))];
    const bigint = t.resource.byField.get(t.resource.key)!.sqlType === 'bigint';
    if (ids.length > 1000 || ids.some((id) => (bigint ? !isId(id) : id.length > 100))) throw new ApiError(400, 'badParam', { param: 'ids' });
    sel.ids = ids;
  }
  if (q.scope !== undefined && q.scope !== '') {
    if (q.scope !== 'list' && q.scope !== 'myList' && q.scope !== 'list-for-myCompany') throw new ApiError(400, 'badParam', { param: 'scope' });
    sel.scope = q.scope;
  }
  return sel;
}

/** The engine's list SQL for `sel` (the same as the list endpoint's), and its bounded count SQL. */
async function listSql(engine: ResourceEngine, user: AuthUser, t: LoadedTemplate, sel: ExportSelection) {
  const r = t.resource;
  const company = sel.scope === 'list-for-myCompany' ? await engine.org.companyOf(user.tenantId, user.deptId) : null;
  const depts = company ? await engine.org.companyDepts(user.tenantId, company) : [];
  const extra = async (c: Conditions) => {
    if (sel.ids) c.add(`${quote(r.keyColumn)} = ANY(${c.param(sel.ids)}::${r.byField.get(r.key)!.sqlType === 'bigint' ? 'bigint' : 'text'}[])`);
    if (sel.scope === 'myList') c.add(`create_user = ${c.param(user.userId)}::bigint`);
    if (sel.scope === 'list-for-myCompany') c.add(`create_dept = ANY(${c.param(depts)}::bigint[])`);
  };
  // myList and list-for-myCompany are limited by their own condition, not by the data scope (as their endpoints)
  return engine.buildPageQuery(r, user, sel.query, extra, !sel.scope || sel.scope === 'list');
}

/** How many rows `sel` selects (bounded by the engine's count bound). */
export async function countSelection(engine: ResourceEngine, user: AuthUser, t: LoadedTemplate, sel: ExportSelection): Promise<number> {
  const { countSql, params } = await listSql(engine, user, t, sel);
  const [row] = await engine.query<{ c: number }>(countSql, params);
  return row.c;
}

/**
 * How many rows `sel` selects, exactly (the list's count stops at the engine's bound, `COUNT_BOUND`, 10,000 by
 * default: an export job's progress is measured against this instead).
 */
export async function exactCount(engine: ResourceEngine, user: AuthUser, t: LoadedTemplate, sel: ExportSelection): Promise<number> {
  const { pageSql, params } = await listSql(engine, user, t, sel);
  const [row] = await engine.query<{ c: number }>(`SELECT count(*)::int AS c FROM (${pageSql}) s`, [...params, null, 0]);
  return row.c;
}

/**
 * The style of every data cell, one object: exceljs works a cell's style out again for every new style object
 * (styles-xform `addStyleModel`, a third of an export's time) and remembers it per object, so one shared
 * object is worked out once. Data cells are text or numbers without formatting (resources/translate.ts `toCell`), which
 * the default style shows as they are.
 */
const PLAIN: Partial<ExcelJS.Style> = {};

/**
 * Streams the rows of `sel` as an xlsx workbook into `out` (header row, then one row per record);
 * `progress(rows)` is called after each batch. Answers the number of rows written.
 */
export async function writeExport(engine: ResourceEngine, user: AuthUser, t: LoadedTemplate, sel: ExportSelection, lang: Lang, out: Writable, progress: (rows: number) => Promise<void> = async () => undefined): Promise<number> {
  const { pageSql, params } = await listSql(engine, user, t, sel);
  const tr = new Translator(engine.db, user.tenantId);
  await tr.prepare(t.columns);
  const ExcelJS = await loadExcelJS();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(sheetName(String(t.template.fileName ?? 'Sheet1')));
  ws.columns = t.columns.map((c) => ({ header: lang === 'en' ? c.titleEn : c.title, key: c.field, width: c.width }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  let written = 0;
  // the list's SQL with no LIMIT (NULL) and no OFFSET, read through a cursor in its own transaction
  const all = [...params, null, 0];
  await engine.db.transaction().execute(async (trx) => {
    await engine.query(`DECLARE kc_export NO SCROLL CURSOR FOR ${pageSql}`, all, trx);
    for (;;) {
      const rows = await engine.query(`FETCH ${FETCH} FROM kc_export`, [], trx);
      for (const row of rows) {
        const rec = engine.toRecord(t.resource, row);
        const cells: Row = {};
        for (const c of t.columns) cells[c.field] = tr.toCell(c, rec[c.field], lang);
        const line = ws.addRow(cells);
        line.eachCell((cell) => (cell.style = PLAIN));
        line.commit();
      }
      written += rows.length;
      await progress(written);
      await drained(ws); // keep pace with the compressor
      if (out.writableNeedDrain) await new Promise((res) => out.once('drain', res)); // and with the reader
      if (rows.length < FETCH) break;
    }
    await engine.query('CLOSE kc_export', [], trx);
  });
  ws.commit();
  await wb.commit();
  return written;
}

/** Writes the empty template (header row only) into `out`. */
export async function writeTemplate(t: LoadedTemplate, lang: Lang, out: Writable): Promise<void> {
  const ExcelJS = await loadExcelJS();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const ws = wb.addWorksheet(sheetName(String(t.template.fileName ?? 'Sheet1')));
  ws.columns = t.columns.map((c) => ({ header: lang === 'en' ? c.titleEn : c.title, key: c.field, width: c.width }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  ws.commit();
  await wb.commit();
}

/** Sends `write`'s workbook as the download `name`, streamed (a failure mid-way ends the stream). */
function sendWorkbook(reply: FastifyReply, name: string, write: (out: PassThrough) => Promise<unknown>) {
  const pass = new PassThrough();
  write(pass).catch((e) => {
    reply.log.error(e);
    pass.destroy(e as Error);
  });
  return reply.header('content-type', XLSX).header('content-disposition', attachment(name)).header('cache-control', 'no-store').send(pass);
}

interface ExportParams {
  ref: string;
  templateId: string;
  selection: ExportSelection;
  lang: Lang;
  total: number;
}

export interface ExportOptions {
  engine: ResourceEngine;
  grants: GrantCache;
  jobs: Jobs;
  timeZone: string;
  /** Rows up to which an export streams back at once (default 5,000, `EXCEL_INLINE_ROWS`). */
  inlineRows: number;
}

/** The export endpoints and the `excel-export` job kind (see the module comment). */
export async function registerExportRoutes(app: FastifyInstance, o: ExportOptions): Promise<void> {
  const { engine, jobs } = o;
  const fileName = (t: LoadedTemplate, forData: boolean) => `${String((forData && t.template.exportDataFileName) || t.template.fileName)}${stamp(o.timeZone)}.xlsx`;

  await jobs.define<ExportParams>(EXPORT_KIND, async (ctx) => {
    const t = await loadTemplate(engine, ctx.owner, ctx.params.templateId);
    const name = fileName(t, true);
    const out = fs.createWriteStream(path.join(ctx.folder, 'export.xlsx'));
    const total = Math.max(1, await exactCount(engine, ctx.owner, t, ctx.params.selection));
    const rows = await writeExport(engine, ctx.owner, t, ctx.params.selection, ctx.params.lang, out, (n) => ctx.report({ read: n, written: n, progress: Math.min(99, (n / total) * 100) }));
    await finished(out);
    await ctx.report({ read: rows, written: rows }, true);
    await addReport(engine, ctx.owner, { name, kind: 'export', jobId: ctx.id, rowCount: rows });
    return { resultFile: 'export.xlsx', resultName: name, result: { rows } };
  });

  app.get('/api/system/exceltemplate/exportData', { schema: { tags: ['system/exceltemplate'], summary: 'Excel: export what the list selects (filters or ids) with a template' } }, async (req, reply) => {
    if (!req.user) throw new ApiError(401, 'unauthorized');
    const q = req.query as Row;
    const t = await loadTemplate(engine, req.user, q.templateId);
    await assertButton(engine, o.grants, req.user, t, 'export');
    const sel = selectionOf(q, t);
    const total = await countSelection(engine, req.user, t, sel); // also a 400 for a bad filter, before any byte is sent
    if (total > o.inlineRows && !sel.ids) {
      const jobId = await jobs.enqueue(EXPORT_KIND, req.user, { ref: String(t.template.id), templateId: String(t.template.id), selection: sel, lang: req.lang, total } satisfies ExportParams, { title: String(t.template.fileName) });
      return ok({ jobId }, M.queued[req.lang], req.lang);
    }
    const user = req.user;
    return sendWorkbook(reply, fileName(t, true), (out) => writeExport(engine, user, t, sel, req.lang, out));
  });

  app.get('/api/system/exceltemplate/exportTemplate', { schema: { tags: ['system/exceltemplate'], summary: 'Excel: the empty template (header row)' } }, async (req, reply) => {
    if (!req.user) throw new ApiError(401, 'unauthorized');
    const t = await loadTemplate(engine, req.user, (req.query as Row).templateId);
    await engine.authorize(req.user, t.resource, 'read');
    return sendWorkbook(reply, fileName(t, false), (out) => writeTemplate(t, req.lang, out));
  });
}
