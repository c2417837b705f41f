/**
 * The tenant's user directory for pickers (`GET /api/blade-user/user-select`; the user picker of forms — a
 * project's leader, a chapter's writer, an inventor who is a platform user — and of the bidding screens). The user
 * administration lists (`list`, `user-list`, `select`) need the user menu's grant; picking a colleague does not, so
 * this answers any signed-in user of the tenant, and only what a picker shows: `[{id, realName, account, deptName}]`.
 *
 * - `keyword`: live users of the caller's tenant whose name or account contains it (case-insensitive), at most
 *   `size` (default 20, at most 50), by name; registrations still waiting for approval are left out;
 * - `ids` (comma-separated, at most 100): those users, in the order asked (the picker's labels for stored values);
 *   ids of another tenant, removed or unknown are left out.
 * Neither: the first `size` users by name. A malformed id or size answers 400 参数 … 的值无效; no session 401.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import { isId } from '../../../shared/contract/ids.js';

type Row = Record<string, unknown>;

/** At most this many users per answer. */
export const USER_SELECT_MAX = 50;

export function registerUserDirectory(app: FastifyInstance, db: Db): void {
  app.get('/api/blade-user/user-select', { schema: { tags: ['blade-user'], summary: 'Users of my tenant for a picker: by name or account, or by ids' } }, async (req) => {
    const user = req.user;
    if (!user) throw new ApiError(401, 'unauthorized');
    const q = req.query as Row;
    const size = q.size === undefined || q.size === '' ? 20 : Number(q.size);
    if (!Number.isInteger(size) || size < 1 || size > USER_SELECT_MAX) throw new ApiError(400, 'badParam', { param: 'size' });
    const rawIds = typeof q.ids === 'string' && q.ids !== '' ? q.ids.split(',').map((s) => s.trim()).filter(Boolean) : null;
    if (rawIds && (rawIds.length > 100 || rawIds.some((i) => !isId(i)))) throw new ApiError(400, 'badParam', { param: 'ids' });
    const keyword = typeof q.keyword === 'string' ? q.keyword.trim().slice(0, 50) : '';
    const like = '%' + keyword.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
    const rows = (await sql<Row>`
      SELECT u.id::text AS id, u.real_name AS "realName", u.account, d.dept_name AS "deptName"
        FROM blade_user u LEFT JOIN blade_dept d ON d.id = u.dept_id AND d.tenant_id = u.tenant_id
       WHERE u.tenant_id = ${user.tenantId} AND u.is_deleted = 0 AND COALESCE(u.register_status, 0) = 0
         ${rawIds ? sql`AND u.id = ANY(${rawIds}::bigint[])` : keyword ? sql`AND (u.real_name ILIKE ${like} OR u.account ILIKE ${like})` : sql``}
       ORDER BY u.real_name, u.id LIMIT ${rawIds ? rawIds.length : size}`.execute(db)).rows;
    if (!rawIds) return ok(rows, undefined, req.lang);
    const byId = new Map(rows.map((r) => [String(r.id), r]));
    return ok(rawIds.map((i) => byId.get(i)).filter(Boolean), undefined, req.lang);
  });
}
