/**
 * Dictionaries (spec 000 §5, 002 §3–§7): the system dictionary `system/dict` (table blade_dict, platform-wide)
 * and the business dictionary `system/dictbiz` (table blade_dict_biz, one set per tenant) are generic
 * resources (schemas/system/dict.json, dictbiz.json); this module adds the rules their schemas cannot state
 * and the endpoints of the original beside the generic ones, for both APIs (`/api/blade-system/dict` and
 * `/api/blade-system/dict-biz`):
 *
 * | endpoint                      | answer                                                                          |
 * | ----------------------------- | ------------------------------------------------------------------------------- |
 * | GET parent-list               | a page of the dictionaries themselves (parentId 0), filters as list           |
 * | GET child-list?parentId=      | a page of the entries under `parentId` (required), filters as list            |
 * | POST submitChild              | as submit, but `parentId` is required and the entry takes the parent's code   |
 * | GET dictionary-tree?code=     | the entries of dictionary `code` as a tree (roots = its direct entries);      |
 * |                               | without `code`, every dictionary with its entries as `children`; a public    |
 * |                               | system dictionary (`isPublic` 1: help_tip) without signing in, else 401      |
 *
 * (`dictionary?code=`, the flat entry list the forms use, is in routes.ts.) A dictionary is a row with
 * parentId 0 (its dictKey is '-1' by BladeX convention); its entries are rows whose parentId is the
 * dictionary's id and whose code is the dictionary's code; an entry may have entries of its own.
 *
 * Rules, checked on the server (hooks of the generic engine, inside its transaction):
 * - an empty parentId means 0 (a dictionary); a given parent must be visible to the caller (same tenant for
 *   dict-biz), and an entry cannot be its own ancestor; an entry always carries its parent's code, and a
 *   dictionary's change of code is carried down to its entries;
 * - a dictionary's code is unique among dictionaries (字典编号已存在), and an entry's key is unique within its
 *   dictionary (当前字典键值已存在, BladeX's rule), among the live rows of the tenant;
 * - a sealed entry (isSealed 1) cannot be removed (已封存的字典不能删除), nor can an entry whose entries are not
 *   removed with it (请先删除子节点, BladeX's rule);
 * - system dictionaries are shared by every tenant (`scope.platform`): the engine lets only administrators of
 *   the platform tenant (000000) write them; reading is open to every signed-in user (`permissions.read:
 *   null`); business dictionaries need the `dictbiz_*` buttons (seeded for the administrators).
 */
import { nestRecords } from '../../resources/tree.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ValidationError, ok } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Resource } from '../../resources/registry.js';
import { t, type MessageKey } from '../../../shared/i18n/messages.js';

export const DICT_RESOURCES = ['system/dict', 'system/dictbiz'] as const;

const ID_RE = /^(0|[1-9]\d{0,17}|[1-8]\d{18})$/;
type Row = Record<string, unknown>;

const fieldError = (field: string, key: MessageKey) => new ValidationError([{ field, message: t(key, 'zh'), messageEn: t(key, 'en') }]);

/** `AND tenant_id = …` for tenant-scoped dictionaries, nothing for the system one. */
const tenantCond = (r: Resource, user: AuthUser) => (r.tenantScoped ? sql`AND tenant_id = ${user.tenantId}` : sql``);


interface DictRow {
  id: string;
  parent_id: string;
  code: string;
}

/** The live row `id` of `r` that `user` may see, or undefined. */
async function visibleRow(db: Db, r: Resource, user: AuthUser, id: string): Promise<DictRow | undefined> {
  const res = await sql<DictRow>`SELECT id, parent_id, code FROM ${sql.table(r.schema.table)}
                                  WHERE id = ${id}::bigint AND is_deleted = 0 ${tenantCond(r, user)}`.execute(db);
  return res.rows[0];
}

function registerHooks(engine: ResourceEngine, r: Resource): void {
  const table = sql.table(r.schema.table);
  engine.hooks(r.schema.name, {
    async beforeSubmit({ user, trx, record, existing, isNew }) {
      // one writer per dictionary table and tenant at a time, so the uniqueness checks below cannot race
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`${r.schema.table}:${r.tenantScoped ? user.tenantId : ''}`}))`.execute(trx);
      const parentId = record.parentId === undefined || record.parentId === null || record.parentId === '' ? '0' : String(record.parentId);
      record.parentId = parentId;
      if (parentId !== '0') {
        const parent = await visibleRow(trx, r, user, parentId);
        if (!parent) throw fieldError('parentId', 'dictParentMissing');
        if (!isNew) {
          // the new parent must not be the entry itself or one of its descendants
          const cycle = await sql<{ id: string }>`
            WITH RECURSIVE up AS (
              SELECT id, parent_id FROM ${table} WHERE id = ${parentId}::bigint
              UNION
              SELECT d.id, d.parent_id FROM ${table} d JOIN up ON d.id = up.parent_id WHERE up.parent_id <> 0
            ) SELECT id FROM up WHERE id = ${String(existing!.id)}::bigint`.execute(trx);
          if (cycle.rows.length) throw fieldError('parentId', 'dictParentCycle');
        }
        record.code = parent.code;
      }
      const self = isNew ? sql`` : sql`AND id <> ${String(existing!.id)}::bigint`;
      if (parentId === '0') {
        const dup = await sql`SELECT 1 FROM ${table} WHERE parent_id = 0 AND code = ${record.code} AND is_deleted = 0 ${tenantCond(r, user)} ${self} LIMIT 1`.execute(trx);
        if (dup.rows.length) throw fieldError('code', 'dictCodeExists');
      } else {
        const dup = await sql`SELECT 1 FROM ${table} WHERE parent_id <> 0 AND code = ${record.code} AND dict_key = ${record.dictKey}
                                 AND is_deleted = 0 ${tenantCond(r, user)} ${self} LIMIT 1`.execute(trx);
        if (dup.rows.length) throw fieldError('dictKey', 'dictKeyExists');
      }
    },
    async afterSubmit({ user, trx, saved, existing }) {
      // a dictionary renamed (code changed): its entries, at every depth, follow
      if (!existing || saved.parentId !== '0' || existing.code === saved.code) return;
      await sql`
        WITH RECURSIVE down AS (
          SELECT id FROM ${table} WHERE parent_id = ${String(saved.id)}::bigint AND is_deleted = 0 ${tenantCond(r, user)}
          UNION
          SELECT d.id FROM ${table} d JOIN down ON d.parent_id = down.id WHERE d.is_deleted = 0
        ) UPDATE ${table} SET code = ${saved.code}, update_user = ${user.userId}::bigint, update_time = now()
           WHERE id IN (SELECT id FROM down)`.execute(trx);
    },
    async beforeRemove({ user, trx, ids }) {
      const sealed = await sql`SELECT 1 FROM ${table} WHERE id = ANY(${ids}::bigint[]) AND is_sealed = 1 AND is_deleted = 0 ${tenantCond(r, user)} LIMIT 1`.execute(trx);
      if (sealed.rows.length) throw new ApiError(400, 'dictSealed');
      const children = await sql`SELECT 1 FROM ${table} WHERE parent_id = ANY(${ids}::bigint[]) AND NOT (id = ANY(${ids}::bigint[]))
                                    AND is_deleted = 0 ${tenantCond(r, user)} LIMIT 1`.execute(trx);
      if (children.rows.length) throw new ApiError(400, 'dictHasChildren');
    },
  });
}


function registerRoutes(app: FastifyInstance, engine: ResourceEngine, r: Resource): void {
  const base = r.schema.api;
  const tags = [r.schema.name];
  const query = (req: FastifyRequest) => ({ ...((req.query ?? {}) as Record<string, unknown>) });
  const pageSchema = { type: 'object', additionalProperties: true, properties: { current: { type: 'string' }, size: { type: 'string' } } };

  app.get(`${base}/parent-list`, { schema: { tags, summary: `${r.schema.titleEn}: a page of dictionaries (parentId 0)`, querystring: pageSchema } }, async (req) => {
    const user = await engine.authorize(req.user, r, 'read');
    const q = query(req);
    delete q.parentId;
    return ok(await engine.page(r, user, q, (c) => c.add('parent_id = 0')), undefined, req.lang);
  });

  app.get(`${base}/child-list`, { schema: { tags, summary: `${r.schema.titleEn}: a page of the entries under parentId`, querystring: pageSchema } }, async (req) => {
    const user = await engine.authorize(req.user, r, 'read');
    const q = query(req);
    const parentId = q.parentId;
    if (parentId === undefined || parentId === '') throw new ApiError(400, 'missingParam', { param: 'parentId' });
    if (typeof parentId !== 'string' || !ID_RE.test(parentId)) throw new ApiError(400, 'badParam', { param: 'parentId' });
    delete q.parentId;
    return ok(await engine.page(r, user, q, (c) => c.add(`parent_id = ${c.param(parentId)}::bigint`)), undefined, req.lang);
  });

  app.post(`${base}/submitChild`, { schema: { tags, summary: `${r.schema.titleEn}: insert or update an entry of a dictionary`, body: { type: 'object' } } }, async (req) => {
    if (!req.user) throw new ApiError(401, 'unauthorized');
    const body = { ...(req.body as Row) };
    const parentId = body.parentId;
    if (parentId === undefined || parentId === null || parentId === '' || parentId === '0' || parentId === 0) throw fieldError('parentId', 'dictParentRequired');
    if (typeof parentId !== 'string' || !ID_RE.test(parentId)) throw fieldError('parentId', 'dictParentMissing');
    const parent = await visibleRow(engine.db, r, req.user, parentId);
    if (!parent) throw fieldError('parentId', 'dictParentMissing');
    body.code = parent.code;
    return ok(await engine.submit(r, req.user, body, req.lang), undefined, req.lang);
  });

  // public for the system dictionary: a visitor reads the tree of one public dictionary (help_tip for the help centre)
  const config = { public: !r.tenantScoped };
  app.get(`${base}/dictionary-tree`, { config, schema: { tags, summary: `${r.schema.titleEn}: the entries of a dictionary as a tree` } }, async (req) => {
    const res = engine.current(r); // the published version's columns, not the ones at start
    const code = (req.query as Row).code;
    if (code !== undefined && (typeof code !== 'string' || code.length > 255)) throw new ApiError(400, 'badParam', { param: 'code' });
    if (!req.user && !(await isPublicDict(engine.db, res, code))) throw new ApiError(401, 'unauthorized');
    const user = req.user ? await engine.authorize(req.user, res, 'read') : null;
    const cols = res.columns.filter((c) => c.column !== 'is_deleted').map((c) => `"${c.column}"`).join(', ');
    const byCode = code ? sql`AND code = ${code} AND parent_id <> 0` : sql``;
    const rows = await sql<Row>`SELECT ${sql.raw(cols)} FROM ${sql.table(res.schema.table)}
                                 WHERE is_deleted = 0 ${user ? tenantCond(res, user) : sql``} ${byCode} ORDER BY sort, id`.execute(engine.db);
    const records = rows.rows.map((row) => engine.toRecord(res, row));
    // a visitor gets the entries' own words only (no authors, times or remarks)
    const shown = user ? records : records.map((x) => pick(x, ['id', 'parentId', 'code', 'dictKey', 'dictValue', 'dictValueEn', 'sort']));
    return ok(nestRecords(shown), undefined, req.lang);
  });
}

const pick = (x: Row, keys: string[]): Row => Object.fromEntries(keys.filter((k) => k in x).map((k) => [k, x[k]]));

/**
 * True when `code` names a live top-level dictionary of the platform-wide `r` marked `isPublic` 1 (readable
 * without signing in: spec 000 §2.2, the help centre is public). A tenant's dictionaries are never public.
 */
async function isPublicDict(db: Db, r: Resource, code: unknown): Promise<boolean> {
  if (r.tenantScoped || typeof code !== 'string' || code === '') return false;
  const row = await sql`SELECT 1 FROM ${sql.table(r.schema.table)} WHERE parent_id = 0 AND code = ${code} AND is_public = 1 AND is_deleted = 0 LIMIT 1`.execute(db);
  return row.rows.length > 0;
}

/** Hooks and endpoints of both dictionaries. */
export function registerDictModule(app: FastifyInstance, engine: ResourceEngine): void {
  for (const name of DICT_RESOURCES) {
    const r = engine.registry.get(name);
    registerHooks(engine, r);
    registerRoutes(app, engine, r);
  }
}
