/**
 * Departments and posts (spec 002 §2 机构 / 岗位, §7 Department and Post; issue 9): what their schemas
 * (schemas/system/dept.json, post.json) cannot say. The generic engine serves list, detail, submit, remove,
 * select, tree and lazy-tree; the removal refusals (a department with child departments or users, a post
 * users hold) are the schemas' `removeGuard`, and every change is audited (`audit: true`).
 *
 * Department rules (hooks on `system/dept`, inside the write's transaction):
 * - the parent is `0` (a top-level department of the tenant) or a live department of the caller's tenant,
 *   never the department itself nor one below it (400 上级机构不存在 / 上级机构不能是自身或其下级机构);
 * - `ancestors` is derived: the parent's ancestors plus the parent's id ('0' for a top-level one); moving a
 *   department rewrites the ancestors of everything below it;
 * - the tenant's organisation cache (OrgCache: companies, subtrees, data scopes) is dropped on every API
 *   node: `NOTIFY kc_cache 'org:<tenantId>'` in the transaction (delivered on commit), and here at once.
 *
 * Endpoints (envelope answers):
 * - `GET /api/blade-system/dept/lazy-list?parentId=` — the departments directly under `parentId` (default
 *   0) as records with `hasChildren`, for the tree table; read grant as the list.
 * - `GET /api/blade-system/dept/lazy-tree-no-auth?parentId=&tenantId=` — public (the registration dialog
 *   runs before a login): nodes `{id, key, value, title, parentId, hasChildren}` of tenant `tenantId`
 *   (parameter, or the `Tenant-Id` header; required), live tenants only.
 * - `GET /api/blade-system/post/select?tenantId=` — the posts of a tenant `[record]`: the caller's own
 *   tenant; a platform administrator (tenant 000000) may name any tenant, anyone else naming another
 *   tenant gets an empty list.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from '../../core/db/index.js';
import { ApiError, ok, ValidationError } from '../../core/envelope.js';
import { CHANNEL, notify } from '../../core/channels.js';
import type { AuthUser, OrgCache } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { isId } from '../../../shared/contract/ids.js';
import { PLATFORM_TENANT } from '../../../shared/contract/tenancy.js';
import { t } from '../../../shared/i18n/messages.js';

const TENANT_ID = /^[A-Za-z0-9]{1,12}$/;

/** Registers the department hooks and the extra department and post endpoints. */
export function registerOrgModule(app: FastifyInstance, engine: ResourceEngine, org: OrgCache): void {
  const changed = async (trx: Parameters<typeof notify>[0], user: AuthUser) => {
    await notify(trx, CHANNEL.cache, `org:${user.tenantId}`);
    org.invalidate(user.tenantId);
  };

  engine.hooks('system/dept', {
    async beforeSubmit({ record, existing, user, trx }) {
      const parentId = String(record.parentId ?? '0') || '0';
      record.parentId = parentId;
      const fault = (key: 'deptParentMissing' | 'deptParentCycle') => new ValidationError([{ field: 'parentId', message: t(key, 'zh'), messageEn: t(key, 'en') }]);
      let ancestors = '0';
      if (parentId !== '0') {
        const r = await sql<{ id: string; ancestors: string }>`
          SELECT id::text AS id, ancestors FROM blade_dept WHERE id = ${parentId}::bigint AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(trx);
        const parent = r.rows[0];
        if (!parent) throw fault('deptParentMissing');
        if (existing && (parent.id === String(existing.id) || parent.ancestors.split(',').includes(String(existing.id)))) throw fault('deptParentCycle');
        ancestors = `${parent.ancestors},${parent.id}`;
      }
      record.ancestors = ancestors;
      if (existing && existing.ancestors !== ancestors) {
        // everything below moves with it: its ancestors start with the old chain + its id
        const oldPrefix = `${String(existing.ancestors)},${String(existing.id)}`;
        const newPrefix = `${ancestors},${String(existing.id)}`;
        await sql`UPDATE blade_dept SET ancestors = ${newPrefix} || substr(ancestors, ${oldPrefix.length + 1})
                   WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND (ancestors = ${oldPrefix} OR ancestors LIKE ${oldPrefix + ',%'})`.execute(trx);
      }
    },
    async afterSubmit({ trx, user }) {
      await changed(trx, user);
    },
    async afterRemove({ trx, user }) {
      await changed(trx, user);
    },
  });

  const dept = () => engine.registry.resources.get('system/dept')!;
  const post = () => engine.registry.resources.get('system/post')!;

  app.get('/api/blade-system/dept/lazy-list', { schema: { tags: ['system/dept'], summary: 'Departments directly under parentId, with hasChildren' } }, async (req) => {
    const r = dept();
    const user = await engine.authorize(req.user, r, 'read');
    const q = req.query as Record<string, unknown>;
    if (q.parentId !== undefined && q.parentId !== '' && !isId(q.parentId) && q.parentId !== '0') throw new ApiError(400, 'badParam', { param: 'parentId' });
    return ok(await engine.tree(r, user, { parentId: q.parentId ?? '0' }, true), undefined, req.lang);
  });

  app.get(
    '/api/blade-system/dept/lazy-tree-no-auth',
    { config: { public: true }, schema: { tags: ['system/dept'], summary: 'Public: departments directly under parentId of a tenant (registration)' } },
    async (req) => {
      const q = req.query as Record<string, unknown>;
      const headerTenant = req.headers['tenant-id'];
      const tenantId = q.tenantId ?? (Array.isArray(headerTenant) ? headerTenant[0] : headerTenant);
      if (tenantId === undefined || tenantId === '') throw new ApiError(400, 'missingParam', { param: 'tenantId' });
      if (typeof tenantId !== 'string' || !TENANT_ID.test(tenantId)) throw new ApiError(400, 'badParam', { param: 'tenantId' });
      const parentId = q.parentId === undefined || q.parentId === '' ? '0' : q.parentId;
      if (parentId !== '0' && !isId(parentId)) throw new ApiError(400, 'badParam', { param: 'parentId' });
      const rows = await sql<{ id: string; parent_id: string; dept_name: string; has_children: boolean }>`
        SELECT d.id::text AS id, d.parent_id::text AS parent_id, d.dept_name,
               EXISTS (SELECT 1 FROM blade_dept c WHERE c.parent_id = d.id AND c.is_deleted = 0) AS has_children
          FROM blade_dept d JOIN blade_tenant tn ON tn.tenant_id = d.tenant_id AND tn.is_deleted = 0 AND tn.status = 1
                                                  AND (tn.expire_time IS NULL OR tn.expire_time > now())
         WHERE d.tenant_id = ${tenantId} AND d.parent_id = ${parentId as string}::bigint AND d.is_deleted = 0
         ORDER BY d.sort, d.id`.execute(engine.db);
      return ok(
        rows.rows.map((d) => ({ id: d.id, key: d.id, value: d.id, title: d.dept_name, parentId: d.parent_id, hasChildren: d.has_children })),
        undefined,
        req.lang,
      );
    },
  );

  app.get('/api/blade-system/post/select', { schema: { tags: ['system/post'], summary: 'Posts of a tenant (options)' } }, async (req) => {
    const r = post();
    const user = await engine.authorize(req.user, r, 'read');
    const q = req.query as Record<string, unknown>;
    const wanted = q.tenantId === undefined || q.tenantId === '' ? user.tenantId : q.tenantId;
    if (typeof wanted !== 'string' || !TENANT_ID.test(wanted)) throw new ApiError(400, 'badParam', { param: 'tenantId' });
    if (wanted !== user.tenantId && !(user.tenantId === PLATFORM_TENANT && user.isAdmin)) return ok([], undefined, req.lang);
    const rows = await engine.query(`SELECT ${engine.selectList(r)} FROM blade_post WHERE tenant_id = $1 AND is_deleted = 0 ORDER BY sort, id LIMIT 1000`, [wanted]);
    return ok(rows.map((row) => engine.toRecord(r, row)), undefined, req.lang);
  });
}
