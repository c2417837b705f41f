/**
 * The HTTP face of the resource engine (DESIGN §5): for every resource of the registry it mounts, under the
 * schema's `api`, the generic endpoints the schema lists, each described in the OpenAPI document
 * (`/api/docs`, tag = the resource name):
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
 * | GET <userLists endpoint>  | as list, rows whose `field` holds the caller's id (equal, or in an array)  |
 *
 * Schemas change at run time (the designer publishes a version, store.ts): the handlers know their resource
 * by name and look it up per request, and a catch-all route serves endpoints and resources that did not
 * exist when the routes were mounted. Access (grants, tenant, data scope) is the engine's (access.ts), the
 * writes are write.ts's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, ok } from '../core/envelope.js';
import type { EndpointName } from '../../shared/schema/types.js';
import { isId } from '../../shared/contract/ids.js';
import type { ResourceEngine } from './engine.js';
import type { Resource } from './registry.js';
import { quote as quoteIdent } from './query.js';

/** The HTTP method of each generic endpoint. */
export const ENDPOINT_METHOD: Record<EndpointName, 'GET' | 'POST'> = {
  list: 'GET',
  page: 'GET',
  detail: 'GET',
  submit: 'POST',
  remove: 'POST',
  select: 'GET',
  myList: 'GET',
  myPage: 'GET',
  'list-for-myCompany': 'GET',
  tree: 'GET',
  'lazy-tree': 'GET',
};

/** Mounts the generic endpoints of the engine's resources on a Fastify app. */
export class ResourceRoutes {
  constructor(private readonly engine: ResourceEngine) {}

  /**
   * Mounts the endpoints of every resource on `app`, and the dispatcher for endpoints that appear at run
   * time (see `mountDispatcher`).
   */
  mount(app: FastifyInstance): void {
    for (const r of this.engine.registry.resources.values()) this.mountResource(app, r);
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
          const cur = this.engine.registry.resources.get(name);
          if (!cur || cur.schema.api !== base || !cur.schema.endpoints.includes(ep)) return reply.callNotFound();
          return this.handle(cur, ep, req);
        },
      });
    }
    for (const { endpoint } of r.schema.userLists ?? []) {
      app.route({
        method: 'GET',
        url: `${base}/${endpoint}`,
        schema: { tags: [name], summary: `${r.schema.titleEn}: the records that name me (${endpoint})`, querystring: { type: 'object', additionalProperties: true } },
        handler: async (req, reply) => {
          const cur = this.engine.registry.resources.get(name);
          const list = cur?.schema.api === base ? cur.schema.userLists?.find((l) => l.endpoint === endpoint) : undefined;
          if (!cur || !list) return reply.callNotFound();
          return this.userList(cur, list.field, req);
        },
      });
    }
  }

  /**
   * A `userLists` list (schema key): the page of `r`'s records whose `field` holds the caller's user id — equal
   * to it, or, for an array (jsonb) field, containing it; the myList grant, tenant and live rows, no data scope
   * (being named on the record is the reason to see it). An unknown field (a published schema that dropped it)
   * answers nothing.
   */
  private async userList(r: Resource, field: string, req: FastifyRequest): Promise<unknown> {
    const user = await this.engine.authorize(req.user, r, 'myList');
    const col = r.byField.get(field);
    const query = (req.query ?? {}) as Record<string, unknown>;
    const page = await this.engine.page(r, user, query, (c) => {
      if (!col) c.add('FALSE');
      else if (col.sqlType === 'jsonb') c.add(`${quoteIdent(col.column)} @> jsonb_build_array(${c.param(user.userId)}::text)`);
      else c.add(`${quoteIdent(col.column)}::text = ${c.param(user.userId)}`);
    }, false);
    return ok(page, undefined, req.lang);
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
        for (const r of this.engine.registry.resources.values()) {
          if (r.schema.api === base && r.schema.endpoints.includes(ep) && ENDPOINT_METHOD[ep] === req.method) return this.handle(r, ep, req);
          const list = r.schema.api === base && req.method === 'GET' ? r.schema.userLists?.find((l) => l.endpoint === (ep as string)) : undefined;
          if (list) return this.userList(r, list.field, req);
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
      case 'myPage':
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
        const user = await this.engine.authorize(req.user, r, 'read');
        return ok(await this.engine.page(r, user, query), undefined, req.lang);
      }
      case 'myList':
      case 'myPage': {
        // myPage (system/userinput, spec 001 §7) is myList under the name that resource's calls use
        const user = await this.engine.authorize(req.user, r, 'myList');
        return ok(await this.engine.page(r, user, query, (c) => c.add(`create_user = ${c.param(user.userId)}::bigint`), false), undefined, req.lang);
      }
      case 'list-for-myCompany': {
        const user = await this.engine.authorize(req.user, r, 'list-for-myCompany');
        const company = await this.engine.org.companyOf(user.tenantId, user.deptId);
        const depts = company ? await this.engine.org.companyDepts(user.tenantId, company) : [];
        return ok(await this.engine.page(r, user, query, (c) => c.add(`create_dept = ANY(${c.param(depts)}::bigint[])`), false), undefined, req.lang);
      }
      case 'detail': {
        const user = await this.engine.authorize(req.user, r, 'read');
        const key = query[r.key] ?? query.id;
        if (typeof key !== 'string' || key === '') throw new ApiError(400, 'missingParam', { param: r.key });
        if (r.byField.get(r.key)!.sqlType === 'bigint' && !isId(key)) throw new ApiError(400, 'badParam', { param: r.key });
        const rec = await this.engine.findOne(r, user, key);
        if (!rec) throw new ApiError(404, 'notFound');
        return ok(rec, undefined, req.lang);
      }
      case 'submit':
        if (!req.user) throw new ApiError(401, 'unauthorized');
        return ok(await this.engine.submit(r, req.user, req.body, req.lang), undefined, req.lang);
      case 'remove': {
        const user = await this.engine.authorize(req.user, r, 'remove');
        await this.engine.remove(r, user, query.ids ?? query.id, req.lang);
        return ok(null, undefined, req.lang);
      }
      case 'select': {
        const user = await this.engine.authorize(req.user, r, 'read');
        return ok(await this.engine.select(r, user, query), undefined, req.lang);
      }
      case 'tree':
      case 'lazy-tree': {
        const user = await this.engine.authorize(req.user, r, 'read');
        return ok(await this.engine.tree(r, user, query, ep === 'lazy-tree'), undefined, req.lang);
      }
    }
  }
}
