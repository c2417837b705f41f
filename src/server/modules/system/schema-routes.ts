/**
 * The resource schemas for the client runtime (DESIGN §4, §7): the React runtime renders every screen from a
 * schema, and takes it from the server so that what the server validates with is what the form shows.
 *
 * - `GET /api/system/schema/list` — `[{name, title, titleEn, api, table}]`, one per resource, sorted by name.
 * - `GET /api/system/schema/detail?name=basic/patent` — the whole schema JSON; 400 without a name, 404 for an
 *   unknown one.
 *
 * Signed-in users only (the pipeline answers 401 otherwise). Schemas are platform-wide metadata, the same for
 * every tenant: they hold no tenant data, and the data behind them stays guarded by the resource endpoints.
 * DESIGN §4: the registry serves the published version when there is one, else the folder's — publishing from
 * the designer is a later issue, so today this is the folder's version, as loaded (and checked) at start.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError, ok } from '../../core/envelope.js';
import type { Registry } from '../../resources/registry.js';

export function registerSchemaRoutes(app: FastifyInstance, registry: Registry): void {
  app.get('/api/system/schema/list', { schema: { tags: ['schema'], summary: 'The resource schemas (name, titles, api, table)' } }, async (req) => {
    if (!req.user) throw new ApiError(401, 'unauthorized');
    const list = [...registry.resources.values()]
      .map(({ schema: s }) => ({ name: s.name, title: s.title, titleEn: s.titleEn, api: s.api, table: s.table }))
      .sort((a, b) => a.name.localeCompare(b.name));
    return ok(list, undefined, req.lang);
  });

  app.get(
    '/api/system/schema/detail',
    { schema: { tags: ['schema'], summary: 'One resource schema, whole', querystring: { type: 'object', properties: { name: { type: 'string' } } } } },
    async (req) => {
      if (!req.user) throw new ApiError(401, 'unauthorized');
      const name = (req.query as Record<string, unknown>).name;
      if (name === undefined || name === '') throw new ApiError(400, 'missingParam', { param: 'name' });
      if (typeof name !== 'string' || name.length > 200) throw new ApiError(400, 'badParam', { param: 'name' });
      const r = registry.resources.get(name);
      if (!r) throw new ApiError(404, 'schemaNotFound', { name });
      return ok(r.schema, undefined, req.lang);
    },
  );
}
