/**
 * User administration (issue 9, spec 002 §2 'user (with grant of roles, reset password, set expert)', §6, §7
 * User; spec 000 §5 phone and ID card rules). The user is the generic resource `system/user`
 * (schemas/system/user.json, table blade_user): its form, validation (the shared `phone` and `idcard` formats,
 * src/shared/validators), `x-ref: dept`, tenant scope and grants (menu `user`, buttons `user_add`, `user_edit`,
 * `user_delete`) are the engine's. The password hash, `fail_count`, `lock_until` and `must_change_password` are
 * not fields of the form, so no generic endpoint reads or writes them; this module does, in the calls below.
 *
 * | call (under /api/blade-user)          | what                                                                      |
 * | ------------------------------------- | ------------------------------------------------------------------------- |
 * | GET list, GET page                    | a page of the tenant's users (`current`, `size`, list filters); `deptId`   |
 * |                                       | = that department and those below it (the tree beside the list)         |
 * | GET user-list                         | the matching users, not paged (at most 1000; filters as list)             |
 * | GET select                            | generic options (engine)                                                  |
 * | GET detail?id=                        | one user of the tenant (404 otherwise)                                    |
 * | POST submit                           | insert (no id) or update (id); an insert answers `initialPassword` once   |
 * | POST update                           | update (id required)                                                      |
 * | POST remove?ids=                      | generic logical delete; not the caller's own account                     |
 * | GET platform-detail?id=               | a user of any tenant, with `tenantId` — administrators of 000000 only     |
 * | POST update-platform {id, userType}   | the user's platform (1 web, 2 app, 3 other), any tenant — 000000 admins   |
 * | POST grant (userIds, roleIds)         | replaces the users' roles with `roleIds` (all roles of the caller's tenant)|
 * | POST reset-password (userIds)         | a new random password per user, answered once `[{id, account, realName, |
 * |                                       | password}]`; the user must change it at the next login                   |
 * | POST setExpert (userIds, isExpert)    | `is_expert` and the expert role (parameter `expert_role`)                 |
 * | POST unlock (userIds)                 | ends a lock of 5 failed logins (fail_count 0, lock_until NULL)            |
 * | GET export-user                       | the filtered users as an xlsx workbook, streamed (users-export.ts)       |
 * | GET check-user-by-phone?phone=        | `true` when a live user of the tenant has this phone number              |
 *
 * Every list and detail answer adds, per user: `roleId` (comma list), `roleName`, `deptName`, `locked` (a lock
 * of 5 failed logins is in force), `lockUntil` (yyyy-MM-dd HH:mm:ss while locked, else null),
 * `mustChangePassword` and `registerPending` (a self-registration awaiting approve-register, spec 000 §2.7).
 *
 * Access (spec 002 §6; DESIGN §1.3 'the server enforces'): every call needs the menu `user` (reading) and,
 * for a change, its button — `user_add` / `user_edit` / `user_delete` (generic), `user_role` (grant),
 * `user_reset` (reset-password), `user_expert` (setExpert), `user_unlock` (unlock), `user_export`
 * (export-user); administrators of the tenant pass. Users of another tenant do not exist for the caller (404,
 * nothing changes); platform-detail and update-platform are for administrators of tenant 000000 only (403).
 *
 * Rules (hooks in user-state.ts, in the submit's transaction, after the form's own rules): the account is unique among the live users
 * of the tenant (账号已存在, field `account`; one writer per tenant at a time, so two submits cannot race);
 * a valid ID number sets sex and birthday (spec 000 §5 'derived from it') and is stored with an upper-case X.
 *
 * Audit (issue 9): grant, reset-password (never the password), setExpert, unlock and update-platform each write
 * a usual-log row in their transaction (resources/audit.ts: `system/user:<call>`, the users, what was set).
 *
 * Sessions (DESIGN §11, sessions.ts): a reset password, a disabled account (`status` 0 in submit / update,
 * user-state.ts) and a removed user end every session of the user at once (refresh families and their access
 * tokens revoked). A new user beyond the tenant's account quota is refused (user-state.ts).
 *
 * Passwords: an administrator never chooses or sees a stored password. A new account and a reset get a random
 * password (16 characters of four classes, core/auth/password.ts `generatePassword`), stored as its argon2id
 * hash, answered once in the envelope's data, and `must_change_password` is set (migration 0007) so the
 * password-change flow of the next login asks for a new one; a reset also ends a lock. Decisions where the
 * spec is silent: setExpert does not move the user to the `expert_dept` department (that parameter names where
 * experts are filed, the administrator chooses the department); the expert role is the role `expert_role`
 * names when it belongs to the caller's tenant, else the tenant's role with the same alias, else none (only
 * `is_expert` changes).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ValidationError, ok } from '../../core/envelope.js';
import type { AuthUser, GrantCache, OrgCache } from '../../core/context.js';
import { generatePassword, hashPassword } from '../../core/auth/password.js';
import { nextId } from '../../core/ids.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Resource } from '../../resources/registry.js';
import { isId } from '../../../shared/contract/ids.js';
import { PLATFORM_TENANT } from '../../../shared/contract/tenancy.js';
import { buttonCode } from '../../../shared/contract/grants.js';
import type { Lang } from '../../../shared/i18n/messages.js';
import { phoneFault } from '../../../shared/validators/index.js';
import type { TokenService } from '../../core/auth/tokens.js';
import { revokeUserSessions } from './sessions.js';
import { sendUserWorkbook } from './users-export.js';
import { writeAudit } from '../../resources/audit.js';
import { initialPasswords, registerUserRules, statusOf, userSubmitState, type UserSubmitState } from './user-state.js';

export const USER_RESOURCE = 'system/user';

/** Button codes of the user screen beyond the generic add / edit / delete (seeded under the `user` menu). */
export const USER_BUTTONS = {
  grant: 'user_role',
  reset: 'user_reset',
  expert: 'user_expert',
  unlock: 'user_unlock',
  export: buttonCode('user', 'export'),
} as const;

/** The most users one grant, reset, unlock or setExpert may name. */
const MAX_IDS = 1000;
/** The most users a reset may name (each costs one argon2id hash). */
const MAX_RESET = 100;

type Row = Record<string, unknown>;

const M = {
  roleMissing: { zh: '所选角色不存在', en: 'A selected role does not exist' },
  rolesRequired: { zh: '请选择至少一个角色', en: 'Please select at least one role' },
  tooMany: { zh: '一次最多处理 {n} 个用户', en: 'At most {n} users at a time' },
  userType: { zh: '请选择用户平台', en: 'Please select the platform' },
} as const;

const fill = (m: { zh: string; en: string }, p: Record<string, unknown>) => ({
  zh: m.zh.replace(/\{(\w+)\}/g, (_, k) => String(p[k])),
  en: m.en.replace(/\{(\w+)\}/g, (_, k) => String(p[k])),
});

/** The fields reads add to a user record (`decorate`, and the initial password of a submit): never written. */
const READ_ONLY = ['roleId', 'roleName', 'deptName', 'locked', 'lockUntil', 'mustChangePassword', 'registerPending', 'initialPassword'];


/**
 * A comma list of ids (`userIds`, `roleIds`) from the query or the body (a string, a number or an array);
 * 400 when it is missing, malformed or longer than `max`. Answers the distinct ids in order.
 */
export function idList(src: Row, param: string, max = MAX_IDS, required = true): string[] {
  let v = src[param];
  if (Array.isArray(v)) v = v.join(',');
  if (typeof v === 'number') v = String(v);
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
    if (required) throw new ApiError(400, 'missingParam', { param });
    return [];
  }
  if (typeof v !== 'string') throw new ApiError(400, 'badParam', { param });
  const ids = [...new Set(v.split(',').map((s) => s.trim()).filter(Boolean))];
  if (!ids.every(isId)) throw new ApiError(400, 'badParam', { param });
  if (ids.length > max) throw new ApiError(400, fill(M.tooMany, { n: max }));
  return ids;
}

/** Query and body parameters together (the original posts `userIds`/`roleIds` as query parameters). */
function params(req: FastifyRequest): Row {
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Row) : {};
  return { ...body, ...((req.query ?? {}) as Row) };
}

/** Dependencies of the user module (parts of the kernel). */
export interface UserModuleDeps {
  engine: ResourceEngine;
  grants: GrantCache;
  org: OrgCache;
  /** Ends users' sessions (reset password, disable, remove: sessions.ts). */
  tokens: TokenService;
}

/** Registers the hooks and the calls of the user administration (see the module comment). */
export function registerUserModule(app: FastifyInstance, deps: UserModuleDeps): void {
  const { engine, grants, org, tokens } = deps;
  const db = engine.db;
  const resource = (): Resource => engine.registry.get(USER_RESOURCE);

  /** The caller when they may read users and, with `code`, hold that button (administrators pass). */
  const caller = async (req: FastifyRequest, code?: string): Promise<AuthUser> => {
    const user = await engine.authorize(req.user, resource(), 'read');
    if (code && !user.isAdmin && !(await grants.hasCode(user.activeRoleIds, code))) throw new ApiError(403, 'forbidden');
    return user;
  };

  /** An administrator of the platform tenant 000000, else 401 / 403. */
  const platformAdmin = (req: FastifyRequest): AuthUser => {
    if (!req.user) throw new ApiError(401, 'unauthorized');
    if (req.user.tenantId !== PLATFORM_TENANT || !req.user.isAdmin) throw new ApiError(403, 'platformAdminOnly');
    return req.user;
  };

  /** The live users `ids` of `tenantId`, locked for update; 404 (nothing changes) when one is not among them. */
  const tenantUsers = async (trx: Db, tenantId: string, ids: string[]) => {
    const rows = await sql<{ id: string; account: string; real_name: string | null }>`
      SELECT id::text AS id, account, real_name FROM blade_user
       WHERE id = ANY(${ids}::bigint[]) AND tenant_id = ${tenantId} AND is_deleted = 0 ORDER BY id FOR UPDATE`.execute(trx);
    if (rows.rows.length !== ids.length) throw new ApiError(404, 'notFound');
    return rows.rows;
  };

  registerUserRules(engine, tokens); // the record's rules, state and sessions (user-state.ts)

  /** The audit row of an administration call on users `ids` (resources/audit.ts; never a password). */
  const audit = (trx: Db, user: AuthUser, req: FastifyRequest, action: string, ids: string[], detail?: Row) =>
    writeAudit(trx, user, { resource: USER_RESOURCE, title: resource().schema.title, titleEn: resource().schema.titleEn, action, ids, detail, requestUri: req.url.split('?')[0] }, req);

  /** Adds roles, department, lock state and the must-change flag to user records. */
  const decorate = async (records: Row[], lang: Lang): Promise<Row[]> => {
    if (records.length === 0) return records;
    const ids = records.map((r) => String(r.id));
    const rows = await sql<{
      id: string; dept_name: string | null; lock_until: string | null; locked: boolean; must_change_password: boolean; register_pending: boolean;
      role_ids: string | null; role_names: string | null; role_names_en: string | null;
    }>`
      SELECT u.id::text AS id, d.dept_name, u.lock_until, COALESCE(u.lock_until > now(), false) AS locked, u.must_change_password,
             u.register_status = 1 AS register_pending,
             string_agg(r.id::text, ',' ORDER BY r.sort, r.id) AS role_ids,
             string_agg(r.role_name, ',' ORDER BY r.sort, r.id) AS role_names,
             string_agg(COALESCE(r.role_name_en, r.role_name), ',' ORDER BY r.sort, r.id) AS role_names_en
        FROM blade_user u
        LEFT JOIN blade_dept d ON d.id = u.dept_id AND d.is_deleted = 0
        LEFT JOIN blade_user_role ur ON ur.user_id = u.id
        LEFT JOIN blade_role r ON r.id = ur.role_id AND r.is_deleted = 0 AND r.tenant_id = u.tenant_id
       WHERE u.id = ANY(${ids}::bigint[])
       GROUP BY u.id, d.dept_name`.execute(db);
    const by = new Map(rows.rows.map((r) => [r.id, r]));
    return records.map((rec) => {
      const x = by.get(String(rec.id));
      return {
        ...rec,
        roleId: x?.role_ids ?? '',
        roleName: (lang === 'en' ? x?.role_names_en : x?.role_names) ?? '',
        deptName: x?.dept_name ?? null,
        locked: x?.locked ?? false,
        lockUntil: x?.locked ? x.lock_until : null,
        mustChangePassword: x?.must_change_password ?? false,
        registerPending: x?.register_pending ?? false,
      };
    });
  };

  /** The list filters of `req` with `deptId` widened to the department and those below it. */
  const listQuery = async (req: FastifyRequest, user: AuthUser) => {
    const q: Row = { ...((req.query ?? {}) as Row) };
    const dept = q.deptId;
    delete q.deptId;
    if (dept === undefined || dept === '') return { q, extra: undefined };
    if (typeof dept !== 'string' || !isId(dept)) throw new ApiError(400, 'badParam', { param: 'deptId' });
    const depts = await org.subtree(user.tenantId, dept);
    return { q, extra: (c: { add(s: string): void; param(v: unknown): string }) => c.add(`dept_id = ANY(${c.param(depts.length ? depts : [dept])}::bigint[])`) };
  };

  const tags = ['system/user'];
  const listSchema = { type: 'object', additionalProperties: true, properties: { current: { type: 'string' }, size: { type: 'string' }, deptId: { type: 'string' } } };

  for (const ep of ['list', 'page']) {
    app.get(`/api/blade-user/${ep}`, { schema: { tags, summary: 'Users: a page (deptId = that department and below)', querystring: listSchema } }, async (req) => {
      const user = await caller(req);
      const { q, extra } = await listQuery(req, user);
      const page = await engine.page(resource(), user, q, extra);
      return ok({ ...page, records: await decorate(page.records as Row[], req.lang) }, undefined, req.lang);
    });
  }

  app.get('/api/blade-user/user-list', { schema: { tags, summary: 'Users: every match, not paged (at most 1000)' } }, async (req) => {
    const user = await caller(req);
    const { q, extra } = await listQuery(req, user);
    const page = await engine.page(resource(), user, { ...q, current: '1', size: '500' }, extra);
    const records = [...(page.records as Row[])];
    for (let current = 2; records.length < Math.min(page.total as number, 1000); current++) {
      const more = await engine.page(resource(), user, { ...q, current: String(current), size: '500' }, extra);
      if ((more.records as Row[]).length === 0) break;
      records.push(...(more.records as Row[]));
    }
    return ok(await decorate(records.slice(0, 1000), req.lang), undefined, req.lang);
  });

  app.get('/api/blade-user/detail', { schema: { tags, summary: 'Users: one user of the tenant' } }, async (req) => {
    const user = await caller(req);
    const id = (req.query as Row).id;
    if (typeof id !== 'string' || id === '') throw new ApiError(400, 'missingParam', { param: 'id' });
    if (!isId(id)) throw new ApiError(400, 'badParam', { param: 'id' });
    const rec = await engine.findOne(resource(), user, id);
    if (!rec) throw new ApiError(404, 'notFound');
    return ok((await decorate([rec], req.lang))[0], undefined, req.lang);
  });

  const submit = async (req: FastifyRequest, needId: boolean) => {
    if (!req.user) throw new ApiError(401, 'unauthorized');
    const body = req.body;
    if (needId) {
      const id = body && typeof body === 'object' && !Array.isArray(body) ? (body as Row).id : undefined;
      if (id === undefined || id === null || id === '') throw new ApiError(400, 'missingParam', { param: 'id' });
    }
    let input = body;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      // what the reads add beside the form (see `decorate`) comes back with an edited record: read-only, dropped
      input = { ...(body as Row) };
      for (const k of READ_ONLY) delete (input as Row)[k];
    }
    // the account state (status) is set in the same transaction (user-state.ts); a disabled user's sessions end after it
    const state: UserSubmitState = { status: input && typeof input === 'object' && !Array.isArray(input) ? statusOf(input as Row) : undefined, revoke: [] };
    const saved = await userSubmitState.run(state, () => engine.submit(resource(), req.user!, input, req.lang));
    if (state.revoke.length) await revokeUserSessions(tokens, db, state.revoke);
    const [rec] = await decorate([saved], req.lang);
    const initial = initialPasswords.get(saved);
    if (initial !== undefined) {
      initialPasswords.delete(saved);
      rec.initialPassword = initial;
    }
    return ok(rec, undefined, req.lang);
  };
  app.post('/api/blade-user/submit', { schema: { tags, summary: 'Users: insert (answers the initial password once) or update', body: { type: 'object' } } }, (req) => submit(req, false));
  app.post('/api/blade-user/update', { schema: { tags, summary: 'Users: update (id required)', body: { type: 'object' } } }, (req) => submit(req, true));

  app.get('/api/blade-user/platform-detail', { schema: { tags, summary: 'Users: one user of any tenant (platform administrators)' } }, async (req) => {
    platformAdmin(req);
    const id = (req.query as Row).id;
    if (typeof id !== 'string' || id === '') throw new ApiError(400, 'missingParam', { param: 'id' });
    if (!isId(id)) throw new ApiError(400, 'badParam', { param: 'id' });
    const r = engine.current(resource());
    const rows = await engine.query(`SELECT ${engine.selectList(r)} FROM blade_user WHERE id = $1::bigint AND is_deleted = 0`, [id]);
    if (!rows[0]) throw new ApiError(404, 'notFound');
    return ok((await decorate([engine.toRecord(r, rows[0])], req.lang))[0], undefined, req.lang);
  });

  app.post('/api/blade-user/update-platform', { schema: { tags, summary: 'Users: set the platform (userType) of a user of any tenant', body: { type: 'object' } } }, async (req) => {
    const user = platformAdmin(req);
    const p = params(req);
    const id = p.id;
    if (id === undefined || id === null || id === '') throw new ApiError(400, 'missingParam', { param: 'id' });
    if ((typeof id !== 'string' && typeof id !== 'number') || !isId(String(id))) throw new ApiError(400, 'badParam', { param: 'id' });
    const userType = Number(p.userType);
    if (![1, 2, 3].includes(userType) || (typeof p.userType !== 'number' && typeof p.userType !== 'string')) {
      throw new ValidationError([{ field: 'userType', message: M.userType.zh, messageEn: M.userType.en }]);
    }
    await db.transaction().execute(async (trx) => {
      const done = await sql`UPDATE blade_user SET user_type = ${userType}, update_user = ${user.userId}::bigint, update_time = now()
                               WHERE id = ${String(id)}::bigint AND is_deleted = 0 RETURNING id`.execute(trx);
      if (done.rows.length === 0) throw new ApiError(404, 'notFound');
      await audit(trx, user, req, 'update-platform', [String(id)], { userType });
    });
    engine.changed('blade_user');
    return ok(null, undefined, req.lang);
  });

  app.post('/api/blade-user/grant', { schema: { tags, summary: 'Users: replace the roles of userIds with roleIds' } }, async (req) => {
    const user = await caller(req, USER_BUTTONS.grant);
    const p = params(req);
    const userIds = idList(p, 'userIds');
    const roleIds = idList(p, 'roleIds', MAX_IDS, false);
    if (roleIds.length === 0) throw new ApiError(400, M.rolesRequired);
    await db.transaction().execute(async (trx) => {
      await tenantUsers(trx, user.tenantId, userIds);
      const roles = await sql<{ id: string }>`SELECT id::text AS id FROM blade_role
        WHERE id = ANY(${roleIds}::bigint[]) AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(trx);
      if (roles.rows.length !== roleIds.length) throw new ApiError(400, M.roleMissing);
      await sql`DELETE FROM blade_user_role WHERE user_id = ANY(${userIds}::bigint[])`.execute(trx);
      const pairs = userIds.flatMap((u) => roleIds.map((r) => ({ id: nextId(), user_id: u, role_id: r })));
      await trx.insertInto('blade_user_role' as never).values(pairs as never).execute();
      await sql`UPDATE blade_user SET update_user = ${user.userId}::bigint, update_time = now() WHERE id = ANY(${userIds}::bigint[])`.execute(trx);
      await audit(trx, user, req, 'grant', userIds, { roleIds });
    });
    engine.changed('blade_user');
    return ok(null, undefined, req.lang);
  });

  app.post('/api/blade-user/reset-password', { schema: { tags, summary: 'Users: new random passwords, answered once; changed at the next login' } }, async (req) => {
    const user = await caller(req, USER_BUTTONS.reset);
    const userIds = idList(params(req), 'userIds', MAX_RESET);
    const plain = new Map(userIds.map((id) => [id, generatePassword()]));
    const hashes = new Map(await Promise.all([...plain].map(async ([id, pw]) => [id, await hashPassword(pw)] as const)));
    const out = await db.transaction().execute(async (trx) => {
      const rows = await tenantUsers(trx, user.tenantId, userIds);
      for (const u of rows) {
        await sql`UPDATE blade_user SET password = ${hashes.get(u.id)!}, must_change_password = true, password_time = now(),
                    fail_count = 0, lock_until = NULL, update_user = ${user.userId}::bigint, update_time = now()
                   WHERE id = ${u.id}::bigint`.execute(trx);
      }
      await audit(trx, user, req, 'reset-password', userIds);
      return rows.map((u) => ({ id: u.id, account: u.account, realName: u.real_name, password: plain.get(u.id)! }));
    });
    engine.changed('blade_user');
    await revokeUserSessions(tokens, db, userIds); // the old password's sessions end (DESIGN §11)
    return ok(out, undefined, req.lang);
  });

  app.post('/api/blade-user/unlock', { schema: { tags, summary: 'Users: end the lock of failed logins' } }, async (req) => {
    const user = await caller(req, USER_BUTTONS.unlock);
    const userIds = idList(params(req), 'userIds');
    await db.transaction().execute(async (trx) => {
      await tenantUsers(trx, user.tenantId, userIds);
      await sql`UPDATE blade_user SET fail_count = 0, lock_until = NULL, update_user = ${user.userId}::bigint, update_time = now()
                 WHERE id = ANY(${userIds}::bigint[])`.execute(trx);
      await audit(trx, user, req, 'unlock', userIds);
    });
    engine.changed('blade_user');
    return ok(null, undefined, req.lang);
  });

  app.post('/api/blade-user/setExpert', { schema: { tags, summary: 'Users: mark userIds as expert reviewers (isExpert 1) or not (0)' } }, async (req) => {
    const user = await caller(req, USER_BUTTONS.expert);
    const p = params(req);
    const userIds = idList(p, 'userIds');
    const flag = p.isExpert;
    let isExpert = true;
    if (flag !== undefined && flag !== null && flag !== '') {
      if (flag === true || flag === 1 || flag === '1' || flag === 'true') isExpert = true;
      else if (flag === false || flag === 0 || flag === '0' || flag === 'false') isExpert = false;
      else throw new ApiError(400, 'badParam', { param: 'isExpert' });
    }
    const roleId = await db.transaction().execute(async (trx) => {
      await tenantUsers(trx, user.tenantId, userIds);
      const role = await expertRole(trx, user.tenantId);
      await sql`UPDATE blade_user SET is_expert = ${isExpert}, update_user = ${user.userId}::bigint, update_time = now()
                 WHERE id = ANY(${userIds}::bigint[])`.execute(trx);
      if (role && isExpert) {
        const missing = await sql<{ id: string }>`SELECT u::text AS id FROM unnest(${userIds}::bigint[]) u
          WHERE NOT EXISTS (SELECT 1 FROM blade_user_role ur WHERE ur.user_id = u AND ur.role_id = ${role}::bigint)`.execute(trx);
        if (missing.rows.length) {
          await trx.insertInto('blade_user_role' as never).values(missing.rows.map((m) => ({ id: nextId(), user_id: m.id, role_id: role })) as never).execute();
        }
      } else if (role) {
        await sql`DELETE FROM blade_user_role WHERE user_id = ANY(${userIds}::bigint[]) AND role_id = ${role}::bigint`.execute(trx);
      }
      await audit(trx, user, req, 'setExpert', userIds, { isExpert, roleId: role });
      return role;
    });
    engine.changed('blade_user');
    return ok({ isExpert, roleId }, undefined, req.lang);
  });

  app.get('/api/blade-user/check-user-by-phone', { schema: { tags, summary: 'Users: whether a user of the tenant has this phone number' } }, async (req) => {
    const user = await caller(req);
    const phone = (req.query as Row).phone;
    if (phone !== undefined && typeof phone !== 'string') throw new ApiError(400, 'badParam', { param: 'phone' });
    const fault = phoneFault(phone);
    if (fault) throw new ValidationError([{ field: 'phone', message: fault.zh, messageEn: fault.en }]);
    const r = await sql`SELECT 1 FROM blade_user WHERE tenant_id = ${user.tenantId} AND phone = ${phone} AND is_deleted = 0 LIMIT 1`.execute(db);
    return ok(r.rows.length > 0, undefined, req.lang);
  });

  app.get('/api/blade-user/export-user', { schema: { tags, summary: 'Users: the filtered users as an xlsx workbook (streamed)', querystring: listSchema } }, async (req, reply) => {
    const user = await caller(req, USER_BUTTONS.export);
    const { q, extra } = await listQuery(req, user);
    delete q.current;
    delete q.size;
    const r = resource();
    const page = async (current: number, size: number) => decorate((await engine.page(r, user, { ...q, current: String(current), size: String(size) }, extra)).records as Row[], req.lang);
    return sendUserWorkbook(req, reply, page);
  });
}

/**
 * The expert role of `tenantId` (see the module comment): the role the `expert_role` parameter names when it is
 * a live role of the tenant, else the tenant's live role with that role's alias; null when there is none.
 */
async function expertRole(trx: Db, tenantId: string): Promise<string | null> {
  const p = await sql<{ v: string }>`SELECT param_value AS v FROM blade_param WHERE param_key = 'expert_role' AND is_deleted = 0 LIMIT 1`.execute(trx);
  const named = p.rows[0]?.v?.trim();
  if (!named || !isId(named)) return null;
  const r = await sql<{ id: string }>`
    SELECT id::text AS id FROM blade_role
     WHERE tenant_id = ${tenantId} AND is_deleted = 0
       AND (id = ${named}::bigint OR role_alias = (SELECT role_alias FROM blade_role WHERE id = ${named}::bigint))
     ORDER BY (id = ${named}::bigint) DESC, parent_id, id LIMIT 1`.execute(trx);
  return r.rows[0]?.id ?? null;
}
