/**
 * Excel import (spec 002 §4, §5, §8; DESIGN §8 "Excel"; issue 13): reads the first worksheet of an .xlsx with
 * the streaming reader of xlsx-rows.ts (rows are handled as they are read, 2,000 at a time, so memory does not
 * grow with the file) and writes the rows into the template's resource, in the caller's tenant only.
 *
 * 1. Header: the first non-empty row; each cell names a template column by its zh or en header (or field
 *    name). No column recognised → 400 文件的表头与模板不符. Empty rows are skipped; none left → 文件中没有数据.
 * 2. Each row: cells → values (resources/translate.ts: dictionaries, options, departments, yes/no, dates, numbers,
 *    JSON); then, as the generic submit does (resources/write.ts), an existing record's values under the
 *    imported ones (overwrite) or the fields' defaults (new), the schema's `clear` rules, the resource's own
 *    validator and messages (`engine.validate`), its `before` and `sum` rules (`ruleFaults`), its `x-ref` fields (the
 *    referenced rows exist, live, in the caller's tenant), a locked status (`actions.locked`) refusing an
 *    update, and the module hooks (before / after submit) inside the transaction.
 * 3. Overwrite (`isCovered` 1) by the template's key fields (`keyColumns`): a row whose key values all match a
 *    record the caller can see (tenant and data scope, as the list) updates it; otherwise it is added. With
 *    `isCovered` 0 a matching record is a fault (数据已存在，如需更新请选择覆盖). The same key twice in one file
 *    is a fault on the later row (与第 N 行重复). Without key fields every row is added.
 * 4. All or nothing (the default): the whole file is one transaction; one faulty row and it is rolled back —
 *    nothing is written. With the template's `partialImport` the valid rows are committed. Either way every
 *    fault is listed (row, column, message) in an error workbook (`errors.xlsx` in the job's folder) and the
 *    first 20 in the answer's message, separated by '、' (spec 002 §8: the client shows them one a line).
 *
 * Rows are read and checked 2,000 at a time; a batch is written (one INSERT … SELECT FROM unnest) while the
 * next one is read; updates are one statement per row.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { ApiError, ValidationError } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import { createOnce, type Db } from '../../core/db/index.js';
import type { ResourceEngine, SubmitHookContext } from '../../resources/engine.js';
import type { Resource } from '../../resources/registry.js';
import { Conditions, quote } from '../../resources/query.js';
import { ruleFaults } from '../../../shared/schema/rules.js';
import { statusOf } from '../../resources/status.js';
import { resolveTemplate } from '../../../shared/schema/expression.js';
import { labelOf } from '../../../shared/schema/derive.js';
import { isId } from '../../../shared/contract/ids.js';
import { t as msg, type Lang } from '../../../shared/i18n/messages.js';
import type { LoadedTemplate } from './templates.js';
import { matchColumn, Translator, type TemplateColumn, type Text } from '../../resources/translate.js';
import { M } from './messages.js';
import { writeErrors } from './error-workbook.js';
import { insertRows, ownCommitHooks, updateRow } from './import-write.js';
import { xlsxRows, type XlsxRow } from './xlsx-rows.js';

type Row = Record<string, unknown>;
/**
 * Rows read, checked and written together: each batch costs a few statements (key lookup, references, one
 * INSERT), so larger batches mean fewer round trips; 2,000 rows of a template's columns stay a few MB.
 */
const BATCH = 2000;

/** One fault: the sheet's row number (header = 1), the column's header and the message in both languages. */
export interface RowFault {
  row: number;
  column: string;
  columnEn: string;
  message: string;
  messageEn: string;
}

export interface ImportResult {
  read: number;
  inserted: number;
  updated: number;
  failed: number;
  /** True when the valid rows were committed (no fault, or `partialImport`). */
  committed: boolean;
  faults: RowFault[];
  /** The keys of the rows written (added, updated): the `afterCommit` hooks get them once the import committed. */
  written: { add: string[]; edit: string[] };
  /** The saved records, kept only when the resource's own hooks have an `afterCommit` (it may read `saved`). */
  saved: Array<{ action: 'add' | 'edit'; id: string; row: Row }>;
}

interface Parsed {
  row: number;
  values: Row;
  faults: RowFault[];
}

class Rollback extends Error {}

/** An error of the reader (not of the code consuming the rows): the file is not a readable workbook. */
class UnreadableWorkbook extends Error {}

/**
 * The rows of the first worksheet of `file` (xlsx-rows.ts). Only the reader's own failures come out as
 * `UnreadableWorkbook` (an error thrown by the loop consuming the rows never enters the generator).
 */
async function* sheetRows(file: string, onProgress: (read: number, total: number) => void): AsyncGenerator<XlsxRow> {
  try {
    yield* xlsxRows(file, onProgress);
  } catch (e) {
    throw new UnreadableWorkbook(e instanceof Error ? e.message : String(e));
  }
}

/** A fault of `c` (or the field `field`) in row `row`. */
function fault(row: number, t: LoadedTemplate, field: string, m: Text): RowFault {
  const c = t.columns.find((x) => x.field === field);
  const node = t.resource.fields.find((f) => f.name === field)?.node;
  return {
    row,
    column: c?.title ?? (node ? labelOf(node, field, 'zh') : field),
    columnEn: c?.titleEn ?? (node ? labelOf(node, field, 'en') : field),
    message: m.zh,
    messageEn: m.en,
  };
}

export interface ImportOptions {
  isCovered: boolean;
  lang: Lang;
  /** Where the error workbook goes (`errors.xlsx`). */
  folder: string;
  /** Progress in percent of the file read, rows read / written / failed so far. */
  report(p: { progress: number; read: number; written: number; failed: number }): Promise<void>;
}

/** Imports `file` (an .xlsx) with template `t` as `user` (see the module comment). */
export async function runImport(engine: ResourceEngine, user: AuthUser, t: LoadedTemplate, file: string, o: ImportOptions): Promise<ImportResult> {
  const r = t.resource;
  const tr = new Translator(engine.db, user.tenantId);
  await tr.prepare(t.columns);
  const partial = t.template.partialImport === true;
  await ensureKeyIndex(engine, r, t.keys);
  // progress: the compressed bytes of the sheet's zip entry read so far, of all of them (xlsx-rows.ts)
  let share = 0;
  const onProgress = (read: number, total: number) => {
    share = read / total;
  };
  const res: ImportResult = { read: 0, inserted: 0, updated: 0, failed: 0, committed: false, faults: [], written: { add: [], edit: [] }, saved: [] };
  const seenKeys = new Map<string, number>();
  const writing = () => partial || res.faults.length === 0;

  const work = async (trx: Db) => {
    let map: Array<TemplateColumn | undefined> | null = null;
    let batch: Parsed[] = [];
    // one batch in the database while the next one is read (the database works on the other core)
    let inflight: Promise<void> = Promise.resolve();
    const flush = async () => {
      if (!batch.length) return;
      const rows = batch;
      batch = [];
      await inflight;
      inflight = processBatch(engine, user, t, rows, trx, o.isCovered, seenKeys, res, writing()).then(() =>
        o.report({ progress: Math.min(99, share * 100), read: res.read, written: res.inserted + res.updated, failed: res.failed }),
      );
      inflight.catch(() => undefined); // observed by the next flush or the end of the file
    };
    for await (const row of sheetRows(file, onProgress)) {
      const cells = row.cells;
      if (!cells.some((v) => v !== null && String(v).trim() !== '')) continue;
      if (!map) {
        map = cells.map((v) => (v === null ? undefined : matchColumn(t.columns, String(v).trim())));
        if (!map.some(Boolean)) throw new ApiError(400, M.headerMismatch);
        continue;
      }
      res.read++;
      const p: Parsed = { row: row.number, values: {}, faults: [] };
      map.forEach((c, i) => {
        if (!c) return;
        const v = tr.fromCell(c, cells[i] ?? null);
        if ('fault' in v) p.faults.push(fault(row.number, t, c.field, v.fault));
        else if (v.value !== undefined) p.values[c.field] = v.value;
      });
      batch.push(p);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    await inflight;
    if (!map) throw new ApiError(400, M.noData);
    if (res.read === 0) throw new ApiError(400, M.noData);
    if (res.faults.length && !partial) throw new Rollback();
  };

  try {
    await engine.db.transaction().execute(work);
    res.committed = true;
  } catch (e) {
    if (!(e instanceof Rollback)) {
      // the reader could not read the file: not a workbook after all (a damaged zip, XML that is no sheet); any
      // other failure (the database, a bug) is the server's and stays a 500, logged, never the user's file
      if (e instanceof UnreadableWorkbook) throw new ApiError(400, M.wrongFormat);
      throw e;
    }
    res.inserted = 0;
    res.updated = 0;
    res.written = { add: [], edit: [] };
    res.saved = [];
  } finally {
    engine.changed(r.schema.table);
  }
  if (res.faults.length) await writeErrors(res.faults, o.lang, path.join(o.folder, 'errors.xlsx'));
  await o.report({ progress: 100, read: res.read, written: res.inserted + res.updated, failed: res.failed });
  return res;
}

/** The JSON key of a row's key values, or null when a key field is empty. */
function keyOf(keys: string[], values: Row): string | null {
  const vs = keys.map((k) => values[k]);
  return vs.some((v) => v === undefined || v === null || v === '') ? null : JSON.stringify(vs.map(String));
}

/** Validates one batch and writes its valid rows (when `write`); updates `res`. */
async function processBatch(engine: ResourceEngine, user: AuthUser, t: LoadedTemplate, batch: Parsed[], trx: Db, isCovered: boolean, seen: Map<string, number>, res: ImportResult, write: boolean): Promise<void> {
  const r = t.resource;
  const existing = t.keys.length ? await findExisting(engine, user, r, t.keys, batch, trx, isCovered) : new Map<string, Row>();
  const rules = r.schema.rules ?? [];
  const locked = r.schema.actions?.locked ?? [];
  const ready: Array<{ p: Parsed; values: Row; old?: Row }> = [];
  for (const p of batch) {
    const key = t.keys.length ? keyOf(t.keys, p.values) : null;
    if (key && !p.faults.length) {
      const first = seen.get(key);
      if (first !== undefined) p.faults.push(fault(p.row, t, t.keys[0], M.duplicateInFile(first)));
      else seen.set(key, p.row);
    }
    const old = key ? existing.get(key) : undefined;
    if (old && !isCovered && !p.faults.length) p.faults.push(fault(p.row, t, t.keys[0], M.exists));
    if (old && isCovered && locked.includes(statusOf(r, old)) && !p.faults.length) p.faults.push(fault(p.row, t, t.keys[0], M.locked));
    const values: Row = {};
    if (!p.faults.length) {
      if (old) {
        for (const f of r.fields) values[f.name] = old[f.name];
        Object.assign(values, p.values);
      } else {
        for (const f of r.fields) if (f.node.default !== undefined) values[f.name] = structuredClone(f.node.default);
        Object.assign(values, p.values);
      }
      for (const rule of rules) {
        // the schema's `clear` rules, as the generic submit applies them (write.ts)
        if (!('clear' in rule) || resolveTemplate(rule.unless, { $values: values }) === true) continue;
        for (const f of rule.clear) if (f in values) values[f] = null;
      }
      try {
        engine.validate(r, values);
        for (const f of ruleFaults(rules, values)) p.faults.push(fault(p.row, t, f.field.split('.')[0], { zh: f.message, en: f.messageEn }));
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e;
        for (const f of e.fields) p.faults.push(fault(p.row, t, f.field.split('.')[0], { zh: f.message, en: f.messageEn }));
      }
    }
    if (p.faults.length) {
      res.failed++;
      res.faults.push(...p.faults);
    } else ready.push({ p, values, old });
  }
  await refFaults(engine, user, t, ready, trx, res);
  if (!write || (res.faults.length && !t.template.partialImport)) return;
  const ok = ready.filter((x) => !x.p.faults.length);
  const hooks = engine.hooksOf(r.schema.name);
  const inserts: Row[] = [];
  const ctxs: Array<SubmitHookContext & { old?: Row }> = [];
  for (const x of ok) {
    const ctx: SubmitHookContext & { old?: Row } = { user, resource: r, trx, lang: 'zh', isNew: !x.old, record: x.values, existing: x.old, old: x.old };
    try {
      for (const h of hooks) await h.beforeSubmit?.(ctx);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const fields = e instanceof ValidationError ? e.fields : [{ field: t.columns[0]?.field ?? '', message: e.localized('zh'), messageEn: e.localized('en') }];
      res.failed++;
      for (const f of fields) res.faults.push(fault(x.p.row, t, f.field.split('.')[0], { zh: f.message, en: f.messageEn }));
      continue;
    }
    ctxs.push(ctx);
    if (!x.old) inserts.push(ctx.record);
  }
  if (res.faults.length && !t.template.partialImport) return;
  const keep = ownCommitHooks(engine, r).length > 0;
  const after = hooks.some((h) => h.afterSubmit) || keep;
  const saved = await insertRows(engine, user, r, inserts, trx, after);
  res.inserted += inserts.length;
  let i = 0;
  for (const ctx of ctxs) {
    const row = ctx.old ? await updateRow(engine, user, r, ctx.record, ctx.old, trx) : saved[i++];
    const id = String(row[r.keyColumn] ?? row.__k);
    if (ctx.old) res.updated++;
    res.written[ctx.old ? 'edit' : 'add'].push(id);
    if (!after) continue;
    const rec = engine.toRecord(r, row);
    for (const h of hooks) await h.afterSubmit?.({ ...ctx, saved: rec });
    if (keep) res.saved.push({ action: ctx.old ? 'edit' : 'add', id, row: rec });
  }
}

/**
 * Makes sure `r`'s table has a b-tree over (tenant_id,) the key columns `keys` of a template, live rows only,
 * so that the overwrite lookup of each batch (findExisting) is an index scan: without it every batch reads the
 * whole table, and an import of n rows costs n² (measured: 24 ms per 1,000 rows at the start of a 30,000-row
 * file, 280 ms at its end). Created once (IF NOT EXISTS) outside the import's transaction, named
 * `<table>_xk_<hash of the columns>` (under PostgreSQL's 63 characters); answers its name.
 */
export async function ensureKeyIndex(engine: ResourceEngine, r: Resource, keys: string[]): Promise<string | null> {
  if (!keys.length) return null;
  const cols = keys.map((k) => r.byField.get(k)!.column);
  const name = `${r.schema.table.slice(0, 40)}_xk_${createHash('sha1').update(cols.join(',')).digest('hex').slice(0, 10)}`;
  const tenant = r.tenantScoped ? 'tenant_id, ' : '';
  // once, even for two imports starting at the same time (core/db createOnce)
  await createOnce(engine.db, name, `CREATE INDEX IF NOT EXISTS ${quote(name)} ON ${quote(r.schema.table)} (${tenant}${cols.map(quote).join(', ')}) WHERE is_deleted = 0`);
  return name;
}

/**
 * The visible records (tenant and data scope, as the list) whose key fields match rows of `batch`, by key.
 * Whole records only when `whole` (overwrite: the old values go under the imported ones); without overwrite
 * a match is only refused, so only the key values are read (an empty record stands for the match).
 */
async function findExisting(engine: ResourceEngine, user: AuthUser, r: Resource, keys: string[], batch: Parsed[], trx: Db, whole: boolean): Promise<Map<string, Row>> {
  const wanted = batch.map((p) => keyOf(keys, p.values)).filter((k): k is string => k !== null);
  const out = new Map<string, Row>();
  if (!wanted.length) return out;
  const cond = new Conditions();
  await engine.scope(r, user, cond);
  const lists = keys.map((_, i) => wanted.map((w) => (JSON.parse(w) as string[])[i]));
  const cols = keys.map((k) => `${quote(r.byField.get(k)!.column)}::text`);
  // one key: `= ANY` (an index scan of ensureKeyIndex's index); several: the pairs from unnest
  if (cols.length === 1) cond.add(`${cols[0]} = ANY(${cond.param(lists[0])}::text[])`);
  else cond.add(`(${cols.join(', ')}) IN (SELECT * FROM unnest(${lists.map((l) => `${cond.param(l)}::text[]`).join(', ')}))`);
  if (!whole) {
    // the key as keyOf builds it: each value's text, which is what the condition matched (`::text = ANY`)
    const rows = await engine.query<Row>(`SELECT ${cols.map((c, i) => `${c} AS k${i}`).join(', ')} FROM ${quote(r.schema.table)} WHERE ${cond.sql()}`, cond.params, trx);
    for (const row of rows) out.set(JSON.stringify(keys.map((_, i) => String(row[`k${i}`]))), {});
    return out;
  }
  const rows = await engine.query(`SELECT ${engine.selectList(r)} FROM ${quote(r.schema.table)} WHERE ${cond.sql()}`, cond.params, trx);
  for (const row of rows) {
    const rec = engine.toRecord(r, row);
    const k = keyOf(keys, rec);
    if (k) out.set(k, rec);
  }
  return out;
}

/** Marks rows whose top-level `x-ref` values do not exist, live, in the caller's tenant (one query per field). */
async function refFaults(engine: ResourceEngine, user: AuthUser, t: LoadedTemplate, ready: Array<{ p: Parsed; values: Row }>, trx: Db, res: ImportResult): Promise<void> {
  for (const f of t.resource.fields) {
    const ref = f.node['x-ref'];
    if (typeof ref !== 'string') continue;
    const target = ref === 'dept' || ref === 'user' ? null : engine.registry.resources.get(ref);
    const table = ref === 'dept' ? 'blade_dept' : ref === 'user' ? 'blade_user' : target?.schema.table;
    const keyCol = target ? target.keyColumn : 'id';
    const bigint = target ? target.byField.get(target.key)!.sqlType === 'bigint' : true;
    const tenant = target ? target.tenantScoped : true;
    const idsOf = (v: unknown) => (v === null || v === undefined || v === '' ? [] : (Array.isArray(v) ? v : String(v).split(',')).map((x) => String(x).trim()).filter(Boolean));
    const all = [...new Set(ready.flatMap((x) => idsOf(x.values[f.name])))].filter((id) => !bigint || isId(id));
    const found = new Set<string>();
    if (table && all.length) {
      const params: unknown[] = [all];
      let q = `SELECT ${quote(keyCol)}::text AS k FROM ${quote(table)} WHERE ${quote(keyCol)} = ANY($1::${bigint ? 'bigint' : 'text'}[]) AND is_deleted = 0`;
      if (tenant) {
        params.push(user.tenantId);
        q += ' AND tenant_id = $2';
      }
      for (const row of await engine.query<{ k: string }>(q, params, trx)) found.add(row.k);
    }
    for (const x of ready) {
      if (x.p.faults.length || idsOf(x.values[f.name]).every((id) => found.has(id))) continue;
      const m = { zh: msg('refMissing', 'zh', { label: labelOf(f.node, f.name, 'zh') }), en: msg('refMissing', 'en', { label: labelOf(f.node, f.name, 'en') }) };
      x.p.faults.push(fault(x.p.row, t, f.name, m));
      res.failed++;
      res.faults.push(...x.p.faults);
    }
  }
}
