/**
 * Achievement statistics (spec 001 §3 'achievement statistics', §7 'GET achievement/statistics and
 * statisticsByAuthor'), and the counting the dashboards share (../dashboard).
 *
 * What is counted: every live (not logically deleted) record of the six achievement types, in the caller's
 * tenant, that the caller may see — per type, only types the caller's role may read, and rows through the
 * same conditions as the list the figure stands for (statistics: the generic list, so data scopes apply: a
 * researcher counts their own records, a declaring unit its departments, research management the tenant).
 * Records of every examination status are counted, with a breakdown `byStatus` (examine_status: 0 草稿,
 * 1 待审核, 2 审核通过, 3 已驳回); `examineStatus=2` (a comma list is allowed) counts approved records only.
 *
 * The year of a record is its type's natural date when it has one, else the year it was registered
 * (create_time); `yearBy=createTime` uses the registration year for every record. Natural dates
 * (`YEAR_FIELDS`): patent 授权公告日 (else 申请日), thesis 出版年份, software copyright 首次发表日期 (else
 * 开发完成日期), book 出版时间, award 获奖年份 (else 发证日期), standard 发布日期.
 *
 * The company of a record is the company of its create_dept (as list-for-myCompany and the examination).
 *
 * `GET /api/basic/achievement/statistics` (filters `type` = short names or resource names, comma list;
 * `examineStatus`; `year`; `yearBy`) answers
 * `{total, byStatus, byType: [{type, resource, name, nameEn, total, byStatus}], byYear: [{year, total, byType}],
 *   byCompany: [{companyId, companyName, total, byType}], yearBy}` (years ascending, companies by total).
 *
 * `GET /api/basic/achievement/statisticsByAuthor` (same filters, plus `name` (contains) and `top` (1–100,
 * default 10; `size` too)) counts, per author name as written in the records' author lists (patent, software
 * copyright, book, award, standard: userNamesDetailForm[].userName; thesis: authorDetailForm[].name; names
 * trimmed, a name listed twice in one record counted once), the records naming them: `{authors, top,
 * records: [{name, total, byType}]}`, most records first, then by name.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser, OrgCache } from '../../core/context.js';
import type { Operation, ResourceEngine } from '../../resources/engine.js';
import type { Resource } from '../../resources/registry.js';
import { Conditions, quote } from '../../resources/query.js';
import { ACHIEVEMENT_RESOURCES } from './index.js';
import { statusOf } from '../flow/actions.js';

type Row = Record<string, unknown>;

/** The natural date of each type, first present field wins (see the module comment). */
export const YEAR_FIELDS: Record<string, string[]> = {
  'basic/patent': ['authorizationDate', 'applyDate'],
  'basic/thesis': ['publishDate'],
  'basic/softwarecopyright': ['firstPublishTime', 'devEndTime'],
  'basic/book': ['publishTime'],
  'basic/award': ['year', 'certificateDate'],
  'basic/standard': ['publishTime'],
};

/** The author list of each type: the array field and the name property of its items. */
export const AUTHOR_FIELDS: Record<string, { field: string; name: string }> = {
  'basic/patent': { field: 'userNamesDetailForm', name: 'userName' },
  'basic/thesis': { field: 'authorDetailForm', name: 'name' },
  'basic/softwarecopyright': { field: 'userNamesDetailForm', name: 'userName' },
  'basic/book': { field: 'userNamesDetailForm', name: 'userName' },
  'basic/award': { field: 'userNamesDetailForm', name: 'userName' },
  'basic/standard': { field: 'userNamesDetailForm', name: 'userName' },
};

export type YearBy = 'natural' | 'createTime';

export interface StatFilters {
  /** Requested types (current resources); all achievement types by default. */
  types: Resource[];
  statuses?: string[];
  year?: string;
  yearBy: YearBy;
}

/** One group of counted records. */
export interface CountRow {
  type: string;
  year: string;
  dept: string | null;
  status: string;
  n: number;
}

/** The short name of a type: `basic/patent` → `patent`. */
export const shortName = (r: Resource) => r.schema.name.split('/').pop()!;

/** The achievement types served now. */
export function achievementTypes(engine: ResourceEngine): Resource[] {
  return ACHIEVEMENT_RESOURCES.map((n) => engine.registry.resources.get(n)).filter((r): r is Resource => r !== undefined);
}

/** Reads the common filters; `extra` names further parameters the caller reads itself. 400 for unknown ones. */
export function parseFilters(engine: ResourceEngine, query: Record<string, unknown>, extra: string[] = []): StatFilters {
  const all = achievementTypes(engine);
  const out: StatFilters = { types: all, yearBy: 'natural' };
  for (const [k, raw] of Object.entries(query)) {
    if (k.startsWith('_') || extra.includes(k)) continue;
    if (typeof raw !== 'string') throw new ApiError(400, 'badParam', { param: k });
    const v = raw.trim();
    if (v === '') continue;
    switch (k) {
      case 'type':
      case 'businessType': {
        const picked = v.split(',').map((s) => s.trim()).filter(Boolean).map((t) => {
          const r = all.find((x) => x.schema.name === t || shortName(x) === t);
          if (!r) throw new ApiError(400, 'badParam', { param: k });
          return r;
        });
        out.types = all.filter((r) => picked.includes(r)); // in the types' own order
        break;
      }
      case 'examineStatus': {
        const list = v.split(',').map((s) => s.trim()).filter(Boolean);
        if (list.some((s) => !/^[0-9A-Za-z_-]{1,8}$/.test(s))) throw new ApiError(400, 'badParam', { param: k });
        out.statuses = list;
        break;
      }
      case 'year':
        if (!/^\d{4}$/.test(v)) throw new ApiError(400, 'badParam', { param: k });
        out.year = v;
        break;
      case 'yearBy':
        if (v !== 'natural' && v !== 'createTime') throw new ApiError(400, 'badParam', { param: k });
        out.yearBy = v;
        break;
      default:
        throw new ApiError(400, 'unknownFilter', { field: k });
    }
  }
  return out;
}

/** The types among `types` that `user` may `op`. */
export async function visibleTypes(engine: ResourceEngine, user: AuthUser, op: Operation, types: Resource[]): Promise<Resource[]> {
  const out: Resource[] = [];
  for (const r of types) {
    try {
      await engine.authorize(user, r, op);
      out.push(r);
    } catch {
      // not granted: not counted
    }
  }
  return out;
}

/** The SQL of a record's year (see the module comment); unqualified columns. */
export function yearExpr(r: Resource, yearBy: YearBy): string {
  const parts: string[] = [];
  if (yearBy === 'natural') {
    for (const f of YEAR_FIELDS[r.schema.name] ?? []) {
      const c = r.byField.get(f);
      if (!c) continue;
      if (c.kind === 'date' || c.kind === 'timestamp') parts.push(`to_char(${quote(c.column)}, 'YYYY')`);
      else if (c.kind === 'text') parts.push(`NULLIF(substring(${quote(c.column)} from 1 for 4), '')`);
    }
  }
  parts.push(`to_char(create_time, 'YYYY')`);
  return `COALESCE(${parts.join(', ')})`;
}

/** The SQL of a record's status as text, an empty one counting as the field's default. */
function statusExpr(r: Resource, cond: Conditions): string {
  const field = r.schema.actions?.statusField;
  const col = field ? r.byField.get(field) : undefined;
  const def = cond.param(statusOf(r, {}));
  return col ? `COALESCE(NULLIF(${quote(col.column)}::text, ''), ${def}::text)` : `${def}::text`;
}

export interface CountOptions {
  /** The permission a type needs to be counted. */
  op: Operation;
  /** Apply the caller's data scopes (as the generic list does). */
  withDataScope: boolean;
  /** More conditions (created by me, of my company ...). */
  extra?: (cond: Conditions, r: Resource) => void | Promise<void>;
}

/** Adds the tenant, scope, extra and filter conditions of `r` to `cond`. */
async function conditionsOf(engine: ResourceEngine, user: AuthUser, r: Resource, cond: Conditions, opts: CountOptions, f: StatFilters): Promise<void> {
  await engine.scope(r, user, cond, opts.withDataScope);
  if (opts.extra) await opts.extra(cond, r);
  if (f.statuses) cond.add(`${statusExpr(r, cond)} = ANY(${cond.param(f.statuses)}::text[])`);
  if (f.year) cond.add(`${yearExpr(r, f.yearBy)} = ${cond.param(f.year)}`);
}

/** Counts the visible records of the requested types, grouped by type, year, create_dept and status. */
export async function countAchievements(engine: ResourceEngine, user: AuthUser, opts: CountOptions, f: StatFilters): Promise<{ types: Resource[]; rows: CountRow[] }> {
  const types = await visibleTypes(engine, user, opts.op, f.types);
  if (types.length === 0) return { types, rows: [] };
  const params: unknown[] = [];
  const parts: string[] = [];
  for (const r of types) {
    const cond = new Conditions(params);
    await conditionsOf(engine, user, r, cond, opts, f);
    const type = cond.param(r.schema.name);
    parts.push(
      `SELECT ${type}::text AS type, ${yearExpr(r, f.yearBy)} AS year, create_dept::text AS dept, ${statusExpr(r, cond)} AS status, count(*)::int AS n
         FROM ${quote(r.schema.table)} WHERE ${cond.sql()} GROUP BY 2, 3, 4`,
    );
  }
  const rows = await engine.query<Row>(parts.join('\nUNION ALL\n'), params);
  return { types, rows: rows.map((x) => ({ type: String(x.type), year: String(x.year), dept: (x.dept as string | null) ?? null, status: String(x.status), n: Number(x.n) })) };
}

/** The statuses the breakdowns list (every status the types' actions name, and the default), in order. */
export function statusKeys(types: Resource[]): string[] {
  const out = new Set<string>();
  for (const r of types) {
    if (!r.schema.actions?.statusField) continue;
    out.add(statusOf(r, {}));
    for (const a of r.schema.actions.items) {
      for (const s of a.from ?? []) out.add(s);
      if (a.to !== undefined) out.add(a.to);
    }
  }
  return [...out].sort();
}

const zeros = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<string, number>;

/** Totals, by status and by type. */
export function summarize(types: Resource[], rows: CountRow[]) {
  const keys = statusKeys(types);
  const byStatus = zeros(keys);
  const byType = types.map((r) => ({ type: shortName(r), resource: r.schema.name, name: r.schema.title, nameEn: r.schema.titleEn, total: 0, byStatus: zeros(keys) }));
  const index = new Map(byType.map((t) => [t.resource, t]));
  let total = 0;
  for (const row of rows) {
    total += row.n;
    byStatus[row.status] = (byStatus[row.status] ?? 0) + row.n;
    const t = index.get(row.type);
    if (t) {
      t.total += row.n;
      t.byStatus[row.status] = (t.byStatus[row.status] ?? 0) + row.n;
    }
  }
  return { total, byStatus, byType };
}

/** Per year (ascending): the total and the count per type (short names). */
export function byYear(types: Resource[], rows: CountRow[]) {
  const years = new Map<string, { year: string; total: number; byType: Record<string, number> }>();
  for (const row of rows) {
    let y = years.get(row.year);
    if (!y) years.set(row.year, (y = { year: row.year, total: 0, byType: zeros(types.map(shortName)) }));
    y.total += row.n;
    const key = row.type.split('/').pop()!;
    y.byType[key] = (y.byType[key] ?? 0) + row.n;
  }
  return [...years.values()].sort((a, b) => a.year.localeCompare(b.year));
}

/** The names of departments `ids`. */
export async function deptNames(engine: ResourceEngine, tenantId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const res = await sql<{ id: string; dept_name: string }>`SELECT id, dept_name FROM blade_dept WHERE tenant_id = ${tenantId} AND id = ANY(${ids}::bigint[])`.execute(engine.db);
  return new Map(res.rows.map((r) => [r.id, r.dept_name]));
}

/** Per company of the records' create_dept (most records first): the total and the count per type. */
export async function byCompany(engine: ResourceEngine, org: OrgCache, user: AuthUser, types: Resource[], rows: CountRow[]) {
  const companies = new Map<string, { companyId: string | null; companyName: string | null; total: number; byType: Record<string, number> }>();
  const companyOfDept = new Map<string, string | null>();
  for (const row of rows) {
    let company: string | null = null;
    if (row.dept) {
      if (!companyOfDept.has(row.dept)) companyOfDept.set(row.dept, await org.companyOf(user.tenantId, row.dept));
      company = companyOfDept.get(row.dept)!;
    }
    const key = company ?? '';
    let c = companies.get(key);
    if (!c) companies.set(key, (c = { companyId: company, companyName: null, total: 0, byType: zeros(types.map(shortName)) }));
    c.total += row.n;
    const t = row.type.split('/').pop()!;
    c.byType[t] = (c.byType[t] ?? 0) + row.n;
  }
  const names = await deptNames(engine, user.tenantId, [...companies.values()].map((c) => c.companyId).filter((x): x is string => x !== null));
  for (const c of companies.values()) c.companyName = c.companyId ? (names.get(c.companyId) ?? null) : null;
  return [...companies.values()].sort((a, b) => b.total - a.total || String(a.companyName).localeCompare(String(b.companyName)));
}

/** Counts per author name (see the module comment). */
export async function authorCounts(engine: ResourceEngine, user: AuthUser, f: StatFilters, name: string | undefined, top: number) {
  const types = (await visibleTypes(engine, user, 'read', f.types)).filter((r) => {
    const a = AUTHOR_FIELDS[r.schema.name];
    return a && r.byField.get(a.field)?.kind === 'json';
  });
  if (types.length === 0) return null;
  const params: unknown[] = [];
  const parts: string[] = [];
  for (const r of types) {
    const a = AUTHOR_FIELDS[r.schema.name];
    const col = `t.${quote(r.byField.get(a.field)!.column)}`;
    const cond = new Conditions(params);
    await conditionsOf(engine, user, r, cond, { op: 'read', withDataScope: true }, f);
    parts.push(
      `SELECT DISTINCT ${cond.param(shortName(r))}::text AS type, t.id, btrim(a ->> ${cond.param(a.name)}::text) AS name
         FROM ${quote(r.schema.table)} t
         CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(${col}) = 'array' THEN ${col} ELSE '[]'::jsonb END) a
        WHERE ${cond.sql()}`,
    );
  }
  const outer = new Conditions(params);
  outer.add(`name IS NOT NULL AND name <> ''`);
  if (name) outer.add(`name ILIKE ${outer.param('%' + name.replace(/[\\%_]/g, (c) => '\\' + c) + '%')}`);
  const rows = await engine.query<{ name: string; total: number; by_type: Record<string, number>; authors: number }>(
    `SELECT name, sum(n)::int AS total, jsonb_object_agg(type, n) AS by_type, count(*) OVER ()::int AS authors
       FROM (SELECT name, type, count(*)::int AS n FROM (${parts.join('\nUNION ALL\n')}) x WHERE ${outer.sql()} GROUP BY name, type) y
      GROUP BY name ORDER BY total DESC, name LIMIT ${top}`,
    params,
  );
  const keys = types.map(shortName);
  return {
    authors: rows[0]?.authors ?? 0,
    top,
    records: rows.map((r) => ({ name: r.name, total: r.total, byType: { ...zeros(keys), ...r.by_type } })),
  };
}

export function registerStatisticsRoutes(app: FastifyInstance, engine: ResourceEngine, org: OrgCache): void {
  const tags = ['basic/achievement'];

  app.get('/api/basic/achievement/statistics', { schema: { tags, summary: 'Achievement counts by type, status, year and company' } }, async (req) => {
    const user = req.user!;
    const f = parseFilters(engine, req.query as Record<string, unknown>);
    const { types, rows } = await countAchievements(engine, user, { op: 'read', withDataScope: true }, f);
    if (types.length === 0) throw new ApiError(403, 'forbidden');
    return ok({ ...summarize(types, rows), byYear: byYear(types, rows), byCompany: await byCompany(engine, org, user, types, rows), yearBy: f.yearBy }, undefined, req.lang);
  });

  app.get('/api/basic/achievement/statisticsByAuthor', { schema: { tags, summary: 'Achievement counts per author name (top N)' } }, async (req) => {
    const user = req.user!;
    const q = req.query as Record<string, unknown>;
    const f = parseFilters(engine, q, ['name', 'top', 'size', 'current']);
    let top = 10;
    for (const p of ['top', 'size']) {
      const v = q[p];
      if (v === undefined || v === '') continue;
      if (typeof v !== 'string' || !/^\d{1,3}$/.test(v) || Number(v) < 1 || Number(v) > 100) throw new ApiError(400, 'badParam', { param: p });
      top = Number(v);
    }
    const name = q.name;
    if (name !== undefined && (typeof name !== 'string' || name.length > 50)) throw new ApiError(400, 'badParam', { param: 'name' });
    const result = await authorCounts(engine, user, f, typeof name === 'string' && name.trim() ? name.trim() : undefined, top);
    if (!result) throw new ApiError(403, 'forbidden');
    return ok(result, undefined, req.lang);
  });
}
