/**
 * Counting the records of a group of resources for statistics and dashboards (DESIGN §4 `stats`), for every
 * resource whose schema declares `stats: { group, yearField?, authorField?, companyField? }` — the
 * achievement types declare group `achievement`; a resource published with the same group is counted too.
 *
 * What is counted: every live record of the group's resources, in the caller's tenant, that the caller may
 * see — per resource, only those the caller's role may read (or `op`), and rows through the same conditions
 * as the list the figure stands for (data scopes apply unless `withDataScope` is false). Records of every
 * status are counted with a breakdown `byStatus` (the resource's `actions.statusField`; an empty status
 * counts as the field's default); a `statuses` filter keeps only those.
 *
 * - year of a record: its `stats.yearField` (a field or a list, first present wins: a date → its year, a
 *   yyyy text → itself), else the year of create_time; `yearBy: 'createTime'` uses create_time for all;
 * - company of a record: the company (nearest category-1 department, OrgCache) of its `stats.companyField`
 *   (a department field, default createDept);
 * - authors: `stats.authorField` = `<array field>.<name property>`; names trimmed, a name listed twice in one
 *   record counted once.
 *
 * Filters (`parseFilters`): `type` / `businessType` (short names or resource names, comma list),
 * `examineStatus` (comma list), `year` (yyyy), `yearBy` (natural | createTime); unknown ones are a 400.
 */
import { sql } from '../core/db/index.js';
import { ApiError } from '../core/envelope.js';
import type { AuthUser, OrgCache } from '../core/context.js';
import type { Operation, ResourceEngine } from './engine.js';
import type { Resource } from './registry.js';
import { Conditions, quote } from './query.js';
import { statusOf } from './status.js';

type Row = Record<string, unknown>;

/** The year fields of `r` (`stats.yearField`, first present wins). */
export function yearFields(r: Resource): string[] {
  const y = r.schema.stats?.yearField;
  return y === undefined ? [] : Array.isArray(y) ? y : [y];
}

/** The author list of `r` (`stats.authorField` = `<array field>.<name property>`), if it declares one. */
export function authorField(r: Resource): { field: string; name: string } | undefined {
  const a = r.schema.stats?.authorField;
  if (!a) return undefined;
  const [field, name] = a.split('.');
  return name ? { field, name } : undefined;
}

/** The department column a record's company is taken from (`stats.companyField`, default create_dept). */
export function companyColumn(r: Resource): string {
  const f = r.schema.stats?.companyField;
  const c = f ? r.byField.get(f) : undefined;
  return c ? quote(c.column) : 'create_dept';
}

export type YearBy = 'natural' | 'createTime';

export interface StatFilters {
  /** Requested types (current resources); all the group's resources by default. */
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

/** The resources of statistics group `group` served now, by name. */
export function groupResources(engine: ResourceEngine, group: string): Resource[] {
  return [...engine.registry.resources.values()].filter((r) => r.schema.stats?.group === group).sort((a, b) => a.schema.name.localeCompare(b.schema.name));
}

/** Reads the common filters; `extra` names further parameters the caller reads itself. 400 for unknown ones. */
export function parseFilters(engine: ResourceEngine, group: string, query: Record<string, unknown>, extra: string[] = []): StatFilters {
  const all = groupResources(engine, group);
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
    for (const f of yearFields(r)) {
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

/** Counts the visible records of the requested types, grouped by type, year, company department and status. */
export async function countGroup(engine: ResourceEngine, user: AuthUser, opts: CountOptions, f: StatFilters): Promise<{ types: Resource[]; rows: CountRow[] }> {
  const types = await visibleTypes(engine, user, opts.op, f.types);
  if (types.length === 0) return { types, rows: [] };
  const params: unknown[] = [];
  const parts: string[] = [];
  for (const r of types) {
    const cond = new Conditions(params);
    await conditionsOf(engine, user, r, cond, opts, f);
    const type = cond.param(r.schema.name);
    parts.push(
      `SELECT ${type}::text AS type, ${yearExpr(r, f.yearBy)} AS year, ${companyColumn(r)}::text AS dept, ${statusExpr(r, cond)} AS status, count(*)::int AS n
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
    const a = authorField(r);
    return a !== undefined && r.byField.get(a.field)?.kind === 'json';
  });
  if (types.length === 0) return null;
  const params: unknown[] = [];
  const parts: string[] = [];
  for (const r of types) {
    const a = authorField(r)!;
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

