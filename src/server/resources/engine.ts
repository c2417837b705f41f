/**
 * The generic resource engine (DESIGN §4, §5): for every resource of the registry it mounts, under the
 * schema's `api`, the endpoints the schema lists:
 *
 * | endpoint                  | answer                                                                     |
 * | ------------------------- | -------------------------------------------------------------------------- |
 * | GET list, GET page        | `{records, total, size, current, pages}` (+ `totalBounded` past the bound)  |
 * | GET detail?id=            | the record, 404 when not visible to the caller                            |
 * | POST submit               | insert (no key) or update (key); answers the saved record                 |
 * | POST remove?ids=1,2       | logical delete of all the ids or none (404 when one is not visible)        |
 * | GET select                | `[record]` (at most 1000), filters as list                                |
 * | GET myList                | as list, rows created by the caller                                       |
 * | GET list-for-myCompany    | as list, rows whose create_dept is a department of the caller's company   |
 * | GET tree, GET lazy-tree   | tree nodes `{id, key, value, title, parentId, hasChildren, children}`       |
 *
 * Every query carries the caller's tenant (tenant-scoped resources) and, when the schema says
 * `scope.dataScope`, the data scopes of the caller's active roles, in the SQL itself (DESIGN §1.3).
 * Permissions: see `ResourceSchema.permissions`; administrators pass. Counting is bounded (`countBound`):
 * the count runs over a LIMITed subquery, so a list over a large table stays fast.
 *
 * Module code hooks in with `engine.hooks(name, {...})` (before/after submit and remove, inside the
 * transaction) and mounts custom actions beside the generic ones with the Fastify instance.
 *
 * Schemas change at run time (the designer publishes a version, store.ts): routes look their resource up by
 * name per request, the entry points (`authorize`, `page`, `submit`, `remove`, `tree`) resolve the current
 * version of the resource they are given, and a catch-all route serves endpoints and resources that did not
 * exist when the routes were mounted.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CompiledQuery } from 'kysely';
import type { Db } from '../core/db/index.js';
import { ApiError, ValidationError, ok } from '../core/envelope.js';
import { nextId } from '../core/ids.js';
import type { AuthUser, GrantCache, OrgCache } from '../core/context.js';
import { checkRequired, DATE_FORMAT_TEXT, labelOf, nodeAtPath, ruleMessage, SYSTEM_FIELDS, type ColumnDef } from '../../shared/schema/derive.js';
import type { Lang } from '../../shared/i18n/messages.js';
import type { EndpointName } from '../../shared/schema/types.js';
import { t } from '../../shared/i18n/messages.js';
import { coerceScalars } from '../../shared/schema/coerce.js';
import type { Registry, Resource } from './registry.js';
import { addFilters, Conditions, orderBy, paging, quote } from './query.js';
import { CountCache } from './count-cache.js';
import { createHash } from 'node:crypto';
import type pg from 'pg';

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

export interface ResourceHooks {
  beforeSubmit?(c: SubmitHookContext): Promise<void> | void;
  afterSubmit?(c: SubmitHookContext & { saved: Row }): Promise<void> | void;
  beforeRemove?(c: RemoveHookContext): Promise<void> | void;
  afterRemove?(c: RemoveHookContext): Promise<void> | void;
}

export type Operation = 'read' | 'myList' | 'list-for-myCompany' | 'add' | 'edit' | 'remove';

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
    lang: Lang;
  }
}

const ADMIN_ONLY = Symbol('admin-only');

/** The HTTP method of each generic endpoint. */
const ENDPOINT_METHOD: Record<EndpointName, 'GET' | 'POST'> = {
  list: 'GET',
  page: 'GET',
  detail: 'GET',
  submit: 'POST',
  remove: 'POST',
  select: 'GET',
  myList: 'GET',
  'list-for-myCompany': 'GET',
  tree: 'GET',
  'lazy-tree': 'GET',
};

export class ResourceEngine {
  private readonly hookMap = new Map<string, ResourceHooks>();
  readonly counts = new CountCache();

  constructor(
    readonly db: Db,
    readonly registry: Registry,
    private readonly org: OrgCache,
    private readonly grants: GrantCache,
    private readonly countBound: number,
    /** The pool, for named (prepared) statements on the list path; lists use `db` when absent. */
    private readonly pool?: pg.Pool,
    /** Tells the other API nodes that a table changed (drops their cached counts). */
    private readonly notify: (payload: string) => void = () => undefined,
  ) {}

  /** Runs a read on the list path as a named prepared statement (parsed and planned once per connection). */
  private async prepared<T extends Row>(text: string, params: unknown[]): Promise<T[]> {
    if (!this.pool) return this.query<T>(text, params);
    const name = 'kc_' + createHash('sha1').update(text).digest('hex').slice(0, 20);
    return (await this.pool.query<T>({ name, text, values: params })).rows;
  }

  /** A table changed: drop its cached counts here and on every other node. */
  private changed(table: string): void {
    this.counts.invalidate(table);
    this.notify(`count:${table}`);
  }

  /** Registers module hooks for the resource `name`. */
  hooks(name: string, h: ResourceHooks): void {
    this.hookMap.set(name, { ...this.hookMap.get(name), ...h });
  }

  /** The grant code an operation needs: a code, null (any signed-in user) or admin only. */
  private requiredCode(r: Resource, op: Operation): string | null | typeof ADMIN_ONLY {
    const p = r.schema.permissions ?? {};
    if (op in p) return p[op] ?? null;
    const menu = r.schema.menu;
    const read = 'read' in p ? (p.read ?? null) : (menu ?? null);
    switch (op) {
      case 'read':
        return read;
      case 'myList':
      case 'list-for-myCompany':
        return read;
      case 'add':
        return menu ? `${menu}_add` : ADMIN_ONLY;
      case 'edit':
        return menu ? `${menu}_edit` : ADMIN_ONLY;
      case 'remove':
        return menu ? `${menu}_delete` : ADMIN_ONLY;
    }
  }

  /** Throws 401 without a user and 403 when the active roles lack the grant for `op`. */
  async authorize(user: AuthUser | null, r: Resource, op: Operation): Promise<AuthUser> {
    if (!user) throw new ApiError(401, 'unauthorized');
    r = this.current(r);
    if (user.isAdmin) return user;
    const code = this.requiredCode(r, op);
    if (code === null) return user;
    if (code === ADMIN_ONLY || !(await this.grants.hasCode(user.activeRoleIds, code))) throw new ApiError(403, 'forbidden');
    return user;
  }

  /** Adds tenant, live-row and (when the schema asks) data-scope conditions for `user`. */
  async scope(r: Resource, user: AuthUser, cond: Conditions, withDataScope = true): Promise<void> {
    if (r.tenantScoped) cond.add(`tenant_id = ${cond.param(user.tenantId)}`);
    cond.add('is_deleted = 0');
    if (!withDataScope || !r.schema.scope?.dataScope) return;
    const scopes = await this.grants.dataScopes(user.activeRoleIds, r.schema.name);
    if (scopes.length === 0) return;
    const ors: string[] = [];
    for (const s of scopes) {
      const col = r.byColumn.get(s.scopeColumn) ? quote(s.scopeColumn) : 'create_dept';
      switch (s.scopeType) {
        case 2:
          ors.push(`create_user = ${cond.param(user.userId)}::bigint`);
          break;
        case 3:
          ors.push(`${col} = ${cond.param(user.deptId)}::bigint`);
          break;
        case 4:
          ors.push(`${col} = ANY(${cond.param(await this.org.subtree(user.tenantId, user.deptId))}::bigint[])`);
          break;
        case 5: {
          const ids = (s.scopeValue ?? '').split(',').map((x) => x.trim()).filter((x) => /^\d{1,19}$/.test(x));
          ors.push(`${col} = ANY(${cond.param(ids)}::bigint[])`);
          break;
        }
        default:
          ors.push('FALSE');
      }
    }
    cond.add(`(${ors.join(' OR ')})`);
  }

  /** Maps a row (snake_case) to a record (camelCase) with the value conventions of DESIGN §6. */
  toRecord(r: Resource, row: Row): Row {
    const out: Row = {};
    for (const c of r.columns) {
      if (c.column === 'is_deleted') continue;
      let v = row[c.column];
      if (v !== null && v !== undefined && c.kind === 'integer' && !c.system && !c.idText && c.sqlType === 'bigint') v = Number(v);
      out[c.field] = v ?? null;
    }
    return out;
  }

  private selectList(r: Resource): string {
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
    const pageSql = `SELECT ${this.selectList(r)} FROM ${tbl} WHERE ${where} ORDER BY ${order} LIMIT ${size} OFFSET ${(current - 1) * size}`;
    const countSql = `SELECT count(*)::int AS c FROM (SELECT 1 FROM ${tbl} WHERE ${where} LIMIT ${this.countBound + 1}) s`;
    return { pageSql, countSql, params: cond.params, current, size };
  }

  /** One page: `{records, total, size, current, pages}`, plus `totalBounded: true` when total hit the bound. */
  async page(r: Resource, user: AuthUser, query: Record<string, unknown>, extra?: (c: Conditions) => Promise<void> | void, withDataScope = true) {
    r = this.current(r);
    const { pageSql, countSql, params, current, size } = await this.buildPageQuery(r, user, query, extra, withDataScope);
    const table = r.schema.table;
    const countKey = countSql + '\u0000' + JSON.stringify(params);
    const cached = this.counts.get(table, countKey);
    const [rows, counted] = await Promise.all([
      this.prepared(pageSql, params),
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

  /** Validates `values` (a whole record) against the schema; throws ValidationError listing every fault. */
  validate(r: Resource, values: Row): void {
    coerceScalars(r.schema.form, values);
    const faults: Array<{ field: string; message: string; messageEn: string; order: number }> = [];
    const orderOf = (path: string) => {
      const i = r.fields.findIndex((f) => f.name === path.split('.')[0]);
      return i < 0 ? r.fields.length : i;
    };
    const seen = new Set<string>();
    const push = (path: string, m: { zh: string; en: string }) => {
      if (seen.has(path)) return;
      seen.add(path);
      faults.push({ field: path, message: m.zh, messageEn: m.en, order: orderOf(path) });
    };
    for (const f of checkRequired(r.schema.form, values)) push(f.path, ruleMessage(f.node, f.name, 'required'));
    if (!r.validate(values)) {
      for (const e of r.validate.errors ?? []) {
        let path = e.instancePath.split('/').filter(Boolean).join('.');
        if (e.keyword === 'additionalProperties') {
          const extra = (e.params as { additionalProperty: string }).additionalProperty;
          path = path ? `${path}.${extra}` : extra;
          push(path, { zh: t('unknownField', 'zh', { field: path }), en: t('unknownField', 'en', { field: path }) });
          continue;
        }
        if (path === 'id') {
          push('id', { zh: t('badParam', 'zh', { param: 'id' }), en: t('badParam', 'en', { param: 'id' }) });
          continue;
        }
        const at = nodeAtPath(r.schema.form, path);
        if (!at) continue;
        const p = e.params as Record<string, unknown>;
        const fmt = typeof p.format === 'string' ? (DATE_FORMAT_TEXT[p.format.replace(/^kc-/, '')] ?? p.format) : undefined;
        const type = Array.isArray(p.type) ? p.type[0] : p.type;
        push(path, ruleMessage(at.node, at.name, e.keyword, { limit: p.limit, format: fmt, type }));
      }
    }
    if (faults.length) {
      faults.sort((a, b) => a.order - b.order);
      throw new ValidationError(faults.map(({ field, message, messageEn }) => ({ field, message, messageEn })));
    }
  }

  /** Insert or update from a request body; answers the saved record. */
  async submit(r: Resource, user: AuthUser, body: unknown, lang: Lang): Promise<Row> {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'bodyNotObject');
    r = this.current(r);
    const input: Row = { ...(body as Row) };
    for (const f of SYSTEM_FIELDS) delete input[f];
    const hooks = this.hookMap.get(r.schema.name) ?? {};
    return this.db.transaction().execute(async (trx) => {
      const keyValue = input[r.key];
      let existing: Row | null = null;
      if (keyValue !== undefined && keyValue !== null && keyValue !== '') {
        if (typeof keyValue !== 'string' && typeof keyValue !== 'number') throw new ApiError(400, 'badParam', { param: r.key });
        const k = String(keyValue);
        if (r.key === 'id' && !/^\d{1,19}$/.test(k)) throw new ApiError(400, 'badParam', { param: 'id' });
        existing = await this.findOne(r, user, k, trx, true);
        if (!existing && r.key === 'id') throw new ApiError(404, 'notFound');
      }
      const isNew = !existing;
      await this.authorize(user, r, isNew ? 'add' : 'edit');
      let values: Row;
      if (existing) {
        values = {};
        for (const f of r.fields) values[f.name] = existing[f.name];
        Object.assign(values, input);
        if (r.key === 'id') values.id = existing.id;
      } else {
        values = { ...input };
        if (r.key === 'id') delete values.id;
        for (const f of r.fields) if (values[f.name] === undefined && f.node.default !== undefined) values[f.name] = structuredClone(f.node.default);
      }
      this.validate(r, values);
      const ctx: SubmitHookContext = { user, resource: r, trx, lang, isNew, record: values, existing: existing ?? undefined };
      await hooks.beforeSubmit?.(ctx);
      const data = ctx.record;
      const params: unknown[] = [];
      const p = (v: unknown, c: ColumnDef) => {
        params.push(c.kind === 'json' && v !== null && v !== undefined ? JSON.stringify(v) : (v ?? null));
        return `$${params.length}${c.kind === 'json' ? '::jsonb' : ''}`;
      };
      const dataCols = r.fields.map((f) => r.byField.get(f.name)!).filter((c) => c.field !== r.key || isNew);
      let row: Row;
      if (isNew) {
        const cols: string[] = [];
        const vals: string[] = [];
        const set = (column: string, v: string) => {
          cols.push(quote(column));
          vals.push(v);
        };
        if (r.key === 'id') {
          params.push(nextId());
          set('id', `$${params.length}::bigint`);
        }
        if (r.tenantScoped) {
          params.push(user.tenantId);
          set('tenant_id', `$${params.length}`);
        }
        for (const c of dataCols) if (data[c.field] !== undefined) set(c.column, p(data[c.field], c));
        params.push(user.userId, user.deptId || null);
        set('create_user', `$${params.length - 1}::bigint`);
        set('create_dept', `$${params.length}::bigint`);
        set('update_user', `$${params.length - 1}::bigint`);
        if (r.key !== 'id') {
          // a user-given key freed by a logical delete can be used again: the deleted row gives way
          const keyParam = [String(data[r.key])];
          await this.query(`DELETE FROM ${quote(r.schema.table)} WHERE ${quote(r.keyColumn)} = $1 AND is_deleted = 1`, keyParam, trx);
        }
        try {
          [row] = await this.query(`INSERT INTO ${quote(r.schema.table)} (${cols.join(', ')}) VALUES (${vals.join(', ')}) RETURNING *`, params, trx);
        } catch (e) {
          if ((e as { code?: string }).code === '23505') {
            const node = r.fields.find((f) => f.name === r.key)?.node ?? {};
            throw new ValidationError([
              { field: r.key, message: t('duplicateKey', 'zh', { label: labelOf(node, r.key, 'zh') }), messageEn: t('duplicateKey', 'en', { label: labelOf(node, r.key, 'en') }) },
            ]);
          }
          throw e;
        }
      } else {
        const sets = dataCols.map((c) => `${quote(c.column)} = ${p(data[c.field], c)}`);
        params.push(user.userId);
        sets.push(`update_user = $${params.length}::bigint`, 'update_time = now()');
        params.push(String(existing![r.key]));
        const keyCast = r.byField.get(r.key)!.sqlType === 'bigint' ? '::bigint' : '';
        [row] = await this.query(
          `UPDATE ${quote(r.schema.table)} SET ${sets.join(', ')} WHERE ${quote(r.keyColumn)} = $${params.length}${keyCast} RETURNING *`,
          params,
          trx,
        );
      }
      const saved = this.toRecord(r, row);
      await hooks.afterSubmit?.({ ...ctx, saved });
      return saved;
    }).finally(() => this.changed(r.schema.table));
  }

  /** Logical delete of `ids` (all visible to the user, or 404 and nothing changes). */
  async remove(r: Resource, user: AuthUser, idsParam: unknown, lang: Lang): Promise<number> {
    if (typeof idsParam !== 'string' || idsParam.trim() === '') throw new ApiError(400, 'idsRequired');
    r = this.current(r);
    const ids = [...new Set(idsParam.split(',').map((s) => s.trim()).filter(Boolean))];
    const keyIsId = r.byField.get(r.key)!.sqlType === 'bigint';
    if (ids.length > 1000 || ids.some((id) => (keyIsId ? !/^\d{1,19}$/.test(id) : id.length > 100))) throw new ApiError(400, 'badParam', { param: 'ids' });
    const hooks = this.hookMap.get(r.schema.name) ?? {};
    return this.db.transaction().execute(async (trx) => {
      const cond = new Conditions();
      await this.scope(r, user, cond);
      cond.add(`${quote(r.keyColumn)} = ANY(${cond.param(ids)}${keyIsId ? '::bigint[]' : '::text[]'})`);
      const ctx: RemoveHookContext = { user, resource: r, trx, lang, ids };
      await hooks.beforeRemove?.(ctx);
      const params = [...cond.params, user.userId];
      const done = await this.query(
        `UPDATE ${quote(r.schema.table)} SET is_deleted = 1, update_user = $${params.length}::bigint, update_time = now() WHERE ${cond.sql()} RETURNING ${quote(r.keyColumn)}`,
        params,
        trx,
      );
      if (done.length !== ids.length) throw new ApiError(404, 'notFound'); // rolls back: all or nothing
      await hooks.afterRemove?.(ctx);
      return done.length;
    }).finally(() => this.changed(r.schema.table));
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
      if (parent.length > 100) throw new ApiError(400, 'badParam', { param });
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
      `SELECT ${key}::text AS k, ${quote(parentCol.column)}::text AS p, ${quote(labelCol.column)} AS l FROM ${tbl} WHERE ${cond.sql()} ORDER BY ${sort}${key}`,
      cond.params,
    );
    const nodes = new Map<string, Row & { children: Row[] }>();
    for (const row of rows) nodes.set(row.k as string, { id: row.k, key: row.k, value: row.k, title: row.l, parentId: row.p, children: [], hasChildren: false });
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
   * The resource `r` names, as served now. Resources are known by name: publishing a schema (store.ts)
   * replaces the registry's `Resource` object, and module code that kept the one it saw at start (the
   * dictionary routes ...) still reaches the current version through the engine's entry points, which
   * resolve it once per call and then use that one object throughout (one consistent version per request).
   */
  current(r: Resource): Resource {
    return this.registry.resources.get(r.schema.name) ?? r;
  }

  /**
   * Mounts the endpoints of every resource on `app`, and the dispatcher for endpoints that appear at run
   * time (see `mountDispatcher`).
   */
  mount(app: FastifyInstance): void {
    for (const r of this.registry.resources.values()) this.mountResource(app, r);
    this.mountDispatcher(app);
  }

  /**
   * Mounts the endpoints `r` lists. The handlers know the resource by name and look it up per request, so a
   * schema published at run time takes effect at once without new routes; an endpoint the published version
   * no longer lists answers 404 as an unknown route does.
   */
  mountResource(app: FastifyInstance, r: Resource): void {
    const name = r.schema.name;
    const base = r.schema.api;
    for (const ep of r.schema.endpoints) {
      app.route({
        method: ENDPOINT_METHOD[ep],
        url: `${base}/${ep}`,
        schema: this.routeSchema(r, ep),
        handler: async (req, reply) => {
          const cur = this.registry.resources.get(name);
          if (!cur || cur.schema.api !== base || !cur.schema.endpoints.includes(ep)) return reply.callNotFound();
          return this.handle(cur, ep, req);
        },
      });
    }
  }

  /**
   * Fastify cannot add routes once the app is ready, but a schema published at run time may be a resource no
   * route was mounted for (a new name) or list an endpoint its start-time version did not. One catch-all
   * route under /api serves those: Fastify matches every mounted route first (static paths win over the
   * wildcard), so the dispatcher only sees paths nothing else claims; it answers the generic endpoint of the
   * current resource whose `api` the path names, and 404 (the not-found handler) otherwise. It is public so
   * that an unknown path answers 404 and not 401 — the generic handlers authorise the caller themselves.
   */
  private mountDispatcher(app: FastifyInstance): void {
    app.route({
      method: ['GET', 'POST'],
      url: '/api/*',
      config: { public: true },
      schema: { hide: true },
      handler: async (req, reply) => {
        const rest = String((req.params as Record<string, unknown>)['*'] ?? '').replace(/\/+$/, '');
        const cut = rest.lastIndexOf('/');
        if (cut < 0) return reply.callNotFound();
        const base = `/api/${rest.slice(0, cut)}`;
        const ep = rest.slice(cut + 1) as EndpointName;
        for (const r of this.registry.resources.values()) {
          if (r.schema.api === base && r.schema.endpoints.includes(ep) && ENDPOINT_METHOD[ep] === req.method) return this.handle(r, ep, req);
        }
        return reply.callNotFound();
      },
    });
  }

  /** The OpenAPI description of one generic endpoint. */
  private routeSchema(r: Resource, ep: EndpointName): Record<string, unknown> {
    const tags = [r.schema.name];
    const t = r.schema.titleEn;
    const listQuery = { type: 'object', additionalProperties: true, properties: { current: { type: 'string' }, size: { type: 'string' } } };
    switch (ep) {
      case 'list':
      case 'page':
        return { tags, summary: `${t}: a page of records`, querystring: listQuery };
      case 'myList':
        return { tags, summary: `${t}: my records`, querystring: listQuery };
      case 'list-for-myCompany':
        return { tags, summary: `${t}: my company's records`, querystring: listQuery };
      case 'detail':
        return { tags, summary: `${t}: one record` };
      case 'submit':
        return { tags, summary: `${t}: insert or update`, body: { type: 'object' } };
      case 'remove':
        return { tags, summary: `${t}: logical delete` };
      case 'select':
        return { tags, summary: `${t}: options` };
      case 'tree':
      case 'lazy-tree':
        return { tags, summary: `${t}: ${ep}` };
    }
  }

  /** Answers the generic endpoint `ep` of `r` (the current version of the resource) for `req`. */
  private async handle(r: Resource, ep: EndpointName, req: FastifyRequest): Promise<unknown> {
    const query = (req.query ?? {}) as Record<string, unknown>;
    switch (ep) {
      case 'list':
      case 'page': {
        const user = await this.authorize(req.user, r, 'read');
        return ok(await this.page(r, user, query), undefined, req.lang);
      }
      case 'myList': {
        const user = await this.authorize(req.user, r, 'myList');
        return ok(await this.page(r, user, query, (c) => c.add(`create_user = ${c.param(user.userId)}::bigint`), false), undefined, req.lang);
      }
      case 'list-for-myCompany': {
        const user = await this.authorize(req.user, r, 'list-for-myCompany');
        const company = await this.org.companyOf(user.tenantId, user.deptId);
        const depts = company ? await this.org.companyDepts(user.tenantId, company) : [];
        return ok(await this.page(r, user, query, (c) => c.add(`create_dept = ANY(${c.param(depts)}::bigint[])`), false), undefined, req.lang);
      }
      case 'detail': {
        const user = await this.authorize(req.user, r, 'read');
        const key = query[r.key] ?? query.id;
        if (typeof key !== 'string' || key === '') throw new ApiError(400, 'missingParam', { param: r.key });
        if (r.byField.get(r.key)!.sqlType === 'bigint' && !/^\d{1,19}$/.test(key)) throw new ApiError(400, 'badParam', { param: r.key });
        const rec = await this.findOne(r, user, key);
        if (!rec) throw new ApiError(404, 'notFound');
        return ok(rec, undefined, req.lang);
      }
      case 'submit':
        if (!req.user) throw new ApiError(401, 'unauthorized');
        return ok(await this.submit(r, req.user, req.body, req.lang), undefined, req.lang);
      case 'remove': {
        const user = await this.authorize(req.user, r, 'remove');
        await this.remove(r, user, query.ids ?? query.id, req.lang);
        return ok(null, undefined, req.lang);
      }
      case 'select': {
        const user = await this.authorize(req.user, r, 'read');
        const cond = new Conditions();
        await this.scope(r, user, cond);
        addFilters(r, query, cond);
        const rows = await this.query(`SELECT ${this.selectList(r)} FROM ${quote(r.schema.table)} WHERE ${cond.sql()} ORDER BY ${orderBy(r, query)} LIMIT 1000`, cond.params);
        return ok(rows.map((row) => this.toRecord(r, row)), undefined, req.lang);
      }
      case 'tree':
      case 'lazy-tree': {
        const user = await this.authorize(req.user, r, 'read');
        return ok(await this.tree(r, user, query, ep === 'lazy-tree'), undefined, req.lang);
      }
    }
  }
}
