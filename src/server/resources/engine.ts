/**
 * The generic resource engine (DESIGN §4, §5): what every resource gets from its schema alone. This file is
 * the read path and the engine's shared state; the rest is split by concern:
 *
 * - access.ts: grants per operation, platform resources, tenant and data-scope conditions;
 * - write.ts: submit and remove, with every schema key enforced (x-server-only, actions.locked, rules,
 *   x-ref) and module hooks inside the transaction;
 * - validate.ts: the one validation of values against a form (records and workflow dialogs);
 * - routes.ts: the generic endpoints and their OpenAPI description;
 * - actions.ts: the schema's workflow actions; status.ts: a record's status; stats.ts: counts by `stats`.
 *
 * Reads: `page` answers `{records, total, size, current, pages}` (+ `totalBounded: true` past the bound):
 * the page runs as a named prepared statement whose name depends on the SQL's shape only (LIMIT and OFFSET
 * are parameters, DESIGN §13), and the count runs over a LIMITed subquery, cached 5 s per (SQL, parameters)
 * in `counts` (count-cache.ts). `findOne` answers one visible record, `tree` tree nodes.
 *
 * `changed(table)` is the one "table changed" notifier: every write (generic, workflow action, module code)
 * calls it, and it drops the table's cached counts here and, through `kc_cache` NOTIFY, on every node.
 *
 * Module code hooks in with `engine.hooks(name, {...})` (one resource, by name — its own module's) or
 * `engine.hooksAll({...})` (every resource; a hook decides from the schema, e.g. a flow handler acting on
 * resources whose `actions.flow` names it). Hooks run inside the write's transaction, except `afterCommit`
 * (after the commit).
 *
 * Schemas change at run time (the designer publishes a version, store.ts): entry points resolve the current
 * version of the resource they are given (`current`) once per call and use that one object throughout.
 */
import { CompiledQuery } from 'kysely';
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../core/db/index.js';
import { ApiError } from '../core/envelope.js';
import type { AuthUser, GrantCache, OrgCache } from '../core/context.js';
import type { Lang } from '../../shared/i18n/messages.js';
import type { Registry, Resource } from './registry.js';
import { Access, type Operation } from './access.js';
import { addFilters, Conditions, orderBy, paging, quote, writeOnlyFields } from './query.js';
import { CountCache } from './count-cache.js';
import { assertValid } from './validate.js';
import { isId } from '../../shared/contract/ids.js';
import { coerceScalars } from '../../shared/schema/coerce.js';
import { removeRecords, submitRecord, submitRecords } from './write.js';
import { ResourceRoutes } from './routes.js';

export type { Operation } from './access.js';

type Row = Record<string, unknown>;

export interface SubmitHookContext {
  user: AuthUser;
  resource: Resource;
  trx: Db;
  lang: Lang;
  isNew: boolean;
  /** The record about to be stored (data fields; hooks may change it). */
  record: Row;
  /** The stored record before an update. */
  existing?: Row;
}

export interface RemoveHookContext {
  user: AuthUser;
  resource: Resource;
  trx: Db;
  lang: Lang;
  ids: string[];
}

/**
 * A write that committed (`afterCommit`): what was done to which records. Runs outside the transaction, after
 * the commit, for effects that must not happen unless the write stands (deleting a stored file, revoking
 * sessions); a failure there does not undo the write, so such a hook handles its own errors.
 */
export interface CommitHookContext {
  user: AuthUser;
  resource: Resource;
  lang: Lang;
  action: 'add' | 'edit' | 'remove';
  ids: string[];
  /** The saved record (add, edit). */
  saved?: Row;
}

export interface ResourceHooks {
  beforeSubmit?(c: SubmitHookContext): Promise<void> | void;
  afterSubmit?(c: SubmitHookContext & { saved: Row }): Promise<void> | void;
  beforeRemove?(c: RemoveHookContext): Promise<void> | void;
  afterRemove?(c: RemoveHookContext): Promise<void> | void;
  afterCommit?(c: CommitHookContext): Promise<void> | void;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
    lang: Lang;
  }
}

export class ResourceEngine {
  private readonly hookMap = new Map<string, ResourceHooks>();
  private readonly globalHooks: ResourceHooks[] = [];
  readonly counts = new CountCache();
  readonly access: Access;

  constructor(
    readonly db: Db,
    readonly registry: Registry,
    readonly org: OrgCache,
    grants: GrantCache,
    private readonly countBound: number,
    /** The pool, for named (prepared) statements on the list path; lists use `db` when absent. */
    private readonly pool?: pg.Pool,
    /** Tells the other API nodes that a table changed (drops their cached counts). */
    private readonly notify: (payload: string) => void = () => undefined,
  ) {
    this.access = new Access(registry, org, grants);
  }

  /** Runs a read on the list path as a named prepared statement (parsed and planned once per connection). */
  private async prepared<T extends Row>(text: string, params: unknown[]): Promise<T[]> {
    if (!this.pool) return this.query<T>(text, params);
    const name = 'kc_' + createHash('sha1').update(text).digest('hex').slice(0, 20);
    return (await this.pool.query<T>({ name, text, values: params })).rows;
  }

  /** A table changed (any write, by anyone): drop its cached counts here and on every other node. */
  changed(table: string): void {
    this.counts.invalidate(table);
    this.notify(`count:${table}`);
  }

  /** Registers module hooks for the resource `name` (its own module's resource). */
  hooks(name: string, h: ResourceHooks): void {
    this.hookMap.set(name, { ...this.hookMap.get(name), ...h });
  }

  /** Registers hooks that run for every resource (they decide from the schema whether to act). */
  hooksAll(h: ResourceHooks): void {
    this.globalHooks.push(h);
  }

  /** The hooks a write of resource `name` runs: every-resource hooks first, then the resource's own. */
  hooksOf(name: string): ResourceHooks[] {
    const own = this.hookMap.get(name);
    return own ? [...this.globalHooks, own] : [...this.globalHooks];
  }

  /** See Access.authorize: the caller when they may `op` `r`, else 401 / 403. */
  authorize(user: AuthUser | null, r: Resource, op: Operation): Promise<AuthUser> {
    return this.access.authorize(user, r, op);
  }

  /** See Access.scope: tenant, live-row and data-scope conditions of `r` for `user`. */
  scope(r: Resource, user: AuthUser, cond: Conditions, withDataScope = true): Promise<void> {
    return this.access.scope(r, user, cond, withDataScope);
  }

  /** Validates a whole record against the resource's form; throws ValidationError listing every fault. */
  validate(r: Resource, values: Row): void {
    coerceScalars(r.schema.form, values);
    assertValid(r.schema.form, r.validate, values);
  }

  /** Insert or update from a request body; answers the saved record (write.ts). */
  submit(r: Resource, user: AuthUser, body: unknown, lang: Lang): Promise<Row> {
    return submitRecord(this, r, user, body, lang);
  }

  /** Several submits in one transaction, all or none (write.ts `submitRecords`). */
  submitMany(r: Resource, user: AuthUser, bodies: unknown[], lang: Lang): Promise<Row[]> {
    return submitRecords(this, r, user, bodies, lang);
  }

  /** Logical delete of the comma list `ids` (write.ts); `set` (field → value) is written with the delete. */
  remove(r: Resource, user: AuthUser, ids: unknown, lang: Lang, set?: Row): Promise<number> {
    return removeRecords(this, r, user, ids, lang, set);
  }

  /** Mounts the generic endpoints of every resource (routes.ts). */
  mount(app: FastifyInstance): void {
    new ResourceRoutes(this).mount(app);
  }

  /** Maps a row (snake_case) to a record (camelCase) with the value conventions of DESIGN §6; `x-write-only` fields are left out. */
  toRecord(r: Resource, row: Row): Row {
    const out: Row = {};
    const hidden = writeOnlyFields(r);
    for (const c of r.columns) {
      if (c.column === 'is_deleted' || hidden.has(c.field)) continue;
      let v = row[c.column];
      if (v !== null && v !== undefined && c.kind === 'integer' && !c.system && !c.idText && c.sqlType === 'bigint') v = Number(v);
      out[c.field] = v ?? null;
    }
    return out;
  }

  /** The columns a record is read with (all but is_deleted), quoted, comma-separated. */
  selectList(r: Resource): string {
    return r.columns.filter((c) => c.column !== 'is_deleted').map((c) => quote(c.column)).join(', ');
  }

  async query<T extends Row = Row>(text: string, params: unknown[], db: Db = this.db): Promise<T[]> {
    const res = await db.executeQuery<T>(CompiledQuery.raw(text, params));
    return res.rows;
  }

  /**
   * The SQL of one page of `r` for `user` with the filters of `query`: the page query, the bounded count
   * query and their shared parameters. `extra` adds conditions (myList ...). Exposed so the API benchmark's
   * bare server runs exactly the SQL this engine runs.
   */
  async buildPageQuery(r: Resource, user: AuthUser, query: Record<string, unknown>, extra?: (c: Conditions) => Promise<void> | void, withDataScope = true) {
    const { current, size } = paging(query);
    const cond = new Conditions();
    await this.scope(r, user, cond, withDataScope);
    if (extra) await extra(cond);
    addFilters(r, query, cond);
    const where = cond.sql();
    const order = orderBy(r, query);
    const tbl = quote(r.schema.table);
    // LIMIT and OFFSET are parameters: the SQL text (and so the prepared statement's name) depends only on the
    // query's shape, never on the page asked for (DESIGN §13: one statement per page would grow every connection)
    const pageParams = [...cond.params, size, (current - 1) * size];
    const n = cond.params.length;
    const pageSql = `SELECT ${this.selectList(r)} FROM ${tbl} WHERE ${where} ORDER BY ${order} LIMIT $${n + 1}::int OFFSET $${n + 2}::int`;
    const countSql = `SELECT count(*)::int AS c FROM (SELECT 1 FROM ${tbl} WHERE ${where} LIMIT ${this.countBound + 1}) s`;
    return { pageSql, countSql, params: cond.params, pageParams, current, size };
  }

  /** One page: `{records, total, size, current, pages}`, plus `totalBounded: true` when total hit the bound. */
  async page(r: Resource, user: AuthUser, query: Record<string, unknown>, extra?: (c: Conditions) => Promise<void> | void, withDataScope = true) {
    r = this.current(r);
    const { pageSql, countSql, params, pageParams, current, size } = await this.buildPageQuery(r, user, query, extra, withDataScope);
    const table = r.schema.table;
    const countKey = countSql + '\u0000' + JSON.stringify(params);
    const cached = this.counts.get(table, countKey);
    const [rows, counted] = await Promise.all([
      this.prepared(pageSql, pageParams),
      cached !== undefined
        ? cached
        : this.prepared<{ c: number }>(countSql, params).then((c) => {
            this.counts.set(table, countKey, c[0].c);
            return c[0].c;
          }),
    ]);
    const total = Math.min(counted, this.countBound);
    const result: Row = {
      records: rows.map((row) => this.toRecord(r, row)),
      total,
      size,
      current,
      pages: Math.ceil(total / size),
    };
    if (counted > this.countBound) result.totalBounded = true;
    return result;
  }

  /** The visible record with key `key`, or null. */
  async findOne(r: Resource, user: AuthUser, key: string, db: Db = this.db, forUpdate = false): Promise<Row | null> {
    const cond = new Conditions();
    await this.scope(r, user, cond);
    const keyCol = r.byField.get(r.key)!;
    cond.add(`${quote(r.keyColumn)} = ${cond.param(key)}${keyCol.sqlType === 'bigint' ? '::bigint' : ''}`);
    const rows = await this.query(`SELECT ${this.selectList(r)} FROM ${quote(r.schema.table)} WHERE ${cond.sql()}${forUpdate ? ' FOR UPDATE' : ''}`, cond.params, db);
    return rows[0] ? this.toRecord(r, rows[0]) : null;
  }

  /** Tree nodes under `parent` (lazy) or the whole tree (nested). */
  async tree(r: Resource, user: AuthUser, query: Record<string, unknown>, lazy: boolean): Promise<Row[]> {
    r = this.current(r);
    const spec = r.schema.tree!;
    const parentCol = r.byField.get(spec.parentField)!;
    const labelCol = r.byField.get(spec.labelField)!;
    const cond = new Conditions();
    await this.scope(r, user, cond);
    const tbl = quote(r.schema.table);
    const key = quote(r.keyColumn);
    const sort = r.byField.get('sort') ? 'sort, ' : '';
    if (lazy) {
      const param = spec.lazyParam ?? spec.parentField;
      const raw = query[param];
      if (raw !== undefined && typeof raw !== 'string') throw new ApiError(400, 'badParam', { param });
      const parent = raw === undefined || raw === '' ? spec.rootValue : raw;
      if (parent.length > 100 || (parentCol.sqlType === 'bigint' && parent !== spec.rootValue && !isId(parent))) throw new ApiError(400, 'badParam', { param });
      const parentParam = cond.param(parent);
      // unqualified names inside the subquery resolve to its own table (c), so the scope applies to children too
      const childCond = cond.sql();
      cond.add(`${quote(parentCol.column)}::text = ${parentParam}`);
      const rows = await this.query(
        `SELECT ${this.selectList(r)}, EXISTS (SELECT 1 FROM ${tbl} c WHERE ${childCond} AND c.${quote(parentCol.column)}::text = t.${key}::text) AS has_children
           FROM ${tbl} t WHERE ${cond.sql()} ORDER BY ${sort}${key}`,
        cond.params,
      );
      return rows.map((row) => {
        const rec = this.toRecord(r, row);
        const k = String(rec[r.key]);
        return { ...rec, id: k, key: k, value: k, title: rec[spec.labelField], parentId: rec[spec.parentField], hasChildren: row.has_children === true };
      });
    }
    const rows = await this.query<Row>(
      `SELECT ${this.selectList(r)}, ${key}::text AS kc_k, ${quote(parentCol.column)}::text AS kc_p, ${quote(labelCol.column)} AS kc_l FROM ${tbl} WHERE ${cond.sql()} ORDER BY ${sort}${key}`,
      cond.params,
    );
    // every node carries its record (as lazy-tree's do: a department's deptCategory …) besides the tree keys
    const nodes = new Map<string, Row & { children: Row[] }>();
    for (const row of rows) nodes.set(row.kc_k as string, { ...this.toRecord(r, row), id: row.kc_k, key: row.kc_k, value: row.kc_k, title: row.kc_l, parentId: row.kc_p, children: [], hasChildren: false });
    const roots: Row[] = [];
    for (const n of nodes.values()) {
      const parent = nodes.get(n.parentId as string);
      if (parent) {
        parent.children.push(n);
        parent.hasChildren = true;
      } else roots.push(n);
    }
    return roots;
  }

  /**
   * The visible records of `r` matching the list filters of `query` (at most 1000), for `select` — only those
   * holding the values of the schema's `selectWhere` (field → value, compared as text: approved suppliers …).
   */
  async select(r: Resource, user: AuthUser, query: Record<string, unknown>): Promise<Row[]> {
    r = this.current(r);
    const cond = new Conditions();
    await this.scope(r, user, cond);
    for (const [field, value] of Object.entries(r.schema.selectWhere ?? {})) {
      const col = r.byField.get(field);
      cond.add(col ? `${quote(col.column)}::text = ${cond.param(String(value))}` : 'FALSE');
    }
    addFilters(r, query, cond);
    const rows = await this.query(`SELECT ${this.selectList(r)} FROM ${quote(r.schema.table)} WHERE ${cond.sql()} ORDER BY ${orderBy(r, query)} LIMIT 1000`, cond.params);
    return rows.map((row) => this.toRecord(r, row));
  }

  /**
   * The resource `r` names, as served now. Resources are known by name: publishing a schema (store.ts)
   * replaces the registry's `Resource` object, and module code that kept the one it saw at start still
   * reaches the current version through the engine's entry points.
   */
  current(r: Resource): Resource {
    return this.registry.resources.get(r.schema.name) ?? r;
  }
}
