/**
 * The resource schemas (DESIGN §4, §7) and their lifecycle from the embedded designer. The React runtime
 * renders every screen from a schema it takes from here, so what the server validates with is what the form
 * shows; the designer saves drafts, publishes them and rolls back. The store behind it: resources/store.ts.
 *
 * | endpoint                                   | who            | answer                                               |
 * | ------------------------------------------ | -------------- | ---------------------------------------------------- |
 * | GET  /api/system/schema/list               | signed in      | `[{name, title, titleEn, api, table}]`, by name      |
 * | GET  /api/system/schema/detail?name=       | signed in      | the schema served now (published, else the folder's) |
 * | GET  /api/system/schema/detail?name=&version= | signed in   | that version's schema (0 = the folder's; drafts too) |
 * | GET  /api/system/schema/versions?name=     | signed in      | versions, newest first, the folder's (0) last        |
 * | GET  /api/system/schema/history?name=      | signed in      | publishes and rollbacks, newest first                |
 * | POST /api/system/schema/submit             | platform admin | body `{schema, remark?, name?}`: saves a draft       |
 * | POST /api/system/schema/publish?name=&version=  | platform admin | makes that version current              |
 * | POST /api/system/schema/rollback?name=&version= | platform admin | re-publishes an earlier published version (or 0) |
 *
 * A version entry: `{name, version, state: draft|published|archived, current, source: folder|store, remark,
 * createUser, createUserName, createTime, updateTime, publishUser, publishUserName, publishTime}`; submit
 * answers it with `schema`, publish and rollback with `sync: {created, added, widened}`.
 *
 * Who may change schemas: administrators of the platform tenant 000000 only. Schemas are global — the same
 * screens and the same tables for every tenant — so the administrator of another tenant (whose
 * `administrator` role governs that tenant's data) may read them but not change them (403), as for the
 * system dictionaries. Reading is for every signed-in user: schemas hold no tenant data, and the data
 * behind them stays guarded by the resource endpoints.
 *
 * Errors: 400 naming the fault for a schema the meta-schema or the registry refuses (资源定义 … 不合法: …),
 * for a change of name, api, table, key or tenant scope, and for a lossy table change (naming the field;
 * nothing changes); 404 for an unknown name or version; 401 without a user; 403 for non-administrators.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import { DEFAULT_TENANT } from '../../core/auth/routes.js';
import type { SchemaStore } from '../../resources/store.js';

const BASE = '/api/system/schema';
const tags = ['schema'];

type Params = Record<string, unknown>;

/** The query parameters, with those of a JSON or form body as fallback for the POST endpoints. */
function params(req: FastifyRequest): Params {
  const query = (req.query ?? {}) as Params;
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Params) : {};
  return { ...body, ...query };
}

function nameParam(p: Params): string {
  const name = p.name;
  if (name === undefined || name === '') throw new ApiError(400, 'missingParam', { param: 'name' });
  if (typeof name !== 'string' || name.length > 200) throw new ApiError(400, 'badParam', { param: 'name' });
  return name;
}

function versionParam(p: Params, required: true): number;
function versionParam(p: Params, required: false): number | undefined;
function versionParam(p: Params, required: boolean): number | undefined {
  const v = p.version;
  if (v === undefined || v === '') {
    if (required) throw new ApiError(400, 'missingParam', { param: 'version' });
    return undefined;
  }
  const text = typeof v === 'number' ? String(v) : v;
  if (typeof text !== 'string' || !/^\d{1,9}$/.test(text)) throw new ApiError(400, 'badParam', { param: 'version' });
  return Number(text);
}

function signedIn(req: FastifyRequest): AuthUser {
  if (!req.user) throw new ApiError(401, 'unauthorized');
  return req.user;
}

/** Administrators of the platform tenant only (see the file comment). */
function platformAdmin(req: FastifyRequest): AuthUser {
  const user = signedIn(req);
  if (!user.isAdmin || user.tenantId !== DEFAULT_TENANT) throw new ApiError(403, 'schemaAdminOnly');
  return user;
}

export function registerSchemaRoutes(app: FastifyInstance, store: SchemaStore): void {
  const registry = store.registry;
  const nameQuery = { type: 'object', properties: { name: { type: 'string' }, version: { type: 'string' } } };

  app.get(`${BASE}/list`, { schema: { tags, summary: 'The resource schemas (name, titles, api, table)' } }, async (req) => {
    signedIn(req);
    const list = [...registry.resources.values()]
      .map(({ schema: s }) => ({ name: s.name, title: s.title, titleEn: s.titleEn, api: s.api, table: s.table }))
      .sort((a, b) => a.name.localeCompare(b.name));
    return ok(list, undefined, req.lang);
  });

  app.get(`${BASE}/detail`, { schema: { tags, summary: 'One resource schema, whole: the served version, or the version asked for', querystring: nameQuery } }, async (req) => {
    signedIn(req);
    const p = params(req);
    const name = nameParam(p);
    const version = versionParam(p, false);
    if (version === undefined) {
      const r = registry.resources.get(name);
      if (!r) throw new ApiError(404, 'schemaNotFound', { name });
      return ok(r.schema, undefined, req.lang);
    }
    const v = await store.version(name, version);
    if (!v) throw new ApiError(404, 'schemaVersionNotFound', { name, version });
    return ok(v.schema, undefined, req.lang);
  });

  app.get(`${BASE}/versions`, { schema: { tags, summary: 'The versions of a resource schema, newest first', querystring: nameQuery } }, async (req) => {
    signedIn(req);
    const name = nameParam(params(req));
    const list = await store.versions(name);
    if (!list) throw new ApiError(404, 'schemaNotFound', { name });
    return ok(list, undefined, req.lang);
  });

  app.get(`${BASE}/history`, { schema: { tags, summary: 'The publishes and rollbacks of a resource schema, newest first', querystring: nameQuery } }, async (req) => {
    signedIn(req);
    const name = nameParam(params(req));
    if (!(await store.versions(name))) throw new ApiError(404, 'schemaNotFound', { name });
    return ok(await store.history(name), undefined, req.lang);
  });

  app.post(`${BASE}/submit`, { schema: { tags, summary: 'Save a draft of a resource schema (platform administrators)', body: { type: 'object' } } }, async (req) => {
    const user = platformAdmin(req);
    return ok(await store.submit(user, req.body), undefined, req.lang);
  });

  for (const action of ['publish', 'rollback'] as const) {
    const summary = action === 'publish' ? 'Publish a version of a resource schema' : 'Roll a resource schema back to a version published before';
    app.post(`${BASE}/${action}`, { schema: { tags, summary: `${summary} (platform administrators)`, querystring: nameQuery } }, async (req) => {
      const user = platformAdmin(req);
      const p = params(req);
      const name = nameParam(p);
      const version = versionParam(p, true);
      if (!(await store.versions(name))) throw new ApiError(404, 'schemaNotFound', { name });
      return ok(await store.publish(user, name, version, action), undefined, req.lang);
    });
  }
}
