/**
 * The information-portal link of the top bar (spec 000 §2.5 'An information-portal link and a help-centre
 * link'; issue 18): where the link leads — the public pages of the caller's tenant's own portal sites
 * (public.ts serves them at `/site/{id}` without login).
 *
 * `GET /api/portal/site/portalLink` (any signed-in user: the pages are public, so no grant is needed to learn
 * their address; 401 without a session) → `[{id, title, path, url}]`, the tenant's enabled, live sites, oldest
 * first (the first is the link's target; the client offers a choice when there are several): `path` is
 * `/site/{id}` on this server, `url` the site's own domain (`http://{domain}/`) when it has one, else null.
 * Another tenant's sites are never answered; a tenant without a site gets `[]`.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';

/** One site the link may open. */
export interface PortalLink {
  id: string;
  title: string;
  path: string;
  url: string | null;
}

/** Registers portalLink (see the module comment). */
export function registerPortalLink(app: FastifyInstance, db: Db): void {
  app.get('/api/portal/site/portalLink', { schema: { tags: ['portal/site'], summary: 'The tenant’s public portal sites (the top bar’s portal link)' } }, async (req) => {
    const user = req.user;
    if (!user) throw new ApiError(401, 'unauthorized');
    const r = await sql<{ id: string; title: string; domain: string | null }>`
      SELECT id::text AS id, title, domain FROM portal_site
       WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND enabled = true ORDER BY create_time, id LIMIT 50`.execute(db);
    const links: PortalLink[] = r.rows.map((s) => ({ id: s.id, title: s.title, path: `/site/${s.id}`, url: s.domain ? `http://${s.domain.trim()}/` : null }));
    return ok(links, undefined, req.lang);
  });
}
