/**
 * A user account's rules and state beyond its form (issue 9; users.ts mounts the calls, this file holds the
 * record's hooks, `registerUserRules`, below):
 *
 * - Enabled or disabled (`status` 1 / 0, the record's system field, which a generic submit never writes):
 *   `POST /api/blade-user/submit|update` with `status` in the body (what the detail answered, or the
 *   administrator's switch) sets it in the same transaction as the rest of the edit; anything but 0 or 1 is
 *   400 请选择账号状态; an administrator cannot disable their own account (400 不能禁用当前登录用户). A
 *   change is audited (`system/user:disable` / `:enable`). A disabled account cannot log in or refresh
 *   (core/auth/routes.ts, 账号已被禁用), and disabling it ends its sessions at once (sessions.ts).
 * - The tenant's account quota (`blade_tenant.account_number`, set by tenant/setting; -1 = unlimited): a new
 *   user beyond it is refused with 400 账号额度已满，最多 {n} 个账号 and nothing is stored. Live users count
 *   (removed ones free their place); the check runs under the per-tenant user lock of users.ts, so two
 *   creations cannot both take the last place.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ValidationError } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import { writeAudit } from '../../resources/audit.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { TokenService } from '../../core/auth/tokens.js';
import { generatePassword, hashPassword } from '../../core/auth/password.js';
import { idCardInfo, normaliseIdCard } from '../../../shared/validators/index.js';
import { revokeUserSessions } from './sessions.js';

type Row = Record<string, unknown>;

const M = {
  accountExists: { zh: '账号已存在', en: 'This account already exists' },
  removeSelf: { zh: '不能删除当前登录用户', en: 'You cannot remove the account you are signed in with' },
  status: { zh: '请选择账号状态', en: 'Please choose the account state' },
  disableSelf: { zh: '不能禁用当前登录用户', en: 'You cannot disable the account you are signed in with' },
  quota: { zh: '账号额度已满，最多 {n} 个账号', en: 'The account quota is used up: at most {n} accounts' },
};

/** The state a user submit asks for, and the users whose sessions must end once it committed. */
export interface UserSubmitState {
  status?: 0 | 1;
  revoke: string[];
}

/** Plain-text passwords of accounts created in this process, keyed by the saved record (read once by users.ts's submit). */
export const initialPasswords = new WeakMap<object, string>();

/** The state of the submit running in this async context (set by users.ts around `engine.submit`). */
export const userSubmitState = new AsyncLocalStorage<UserSubmitState>();

/** The `status` a user submit body asks for (undefined when it names none); 400 when it is not 0 or 1. */
export function statusOf(body: Row): 0 | 1 | undefined {
  const v = body.status;
  if (v === undefined || v === null || v === '') return undefined;
  if (v === 1 || v === '1') return 1;
  if (v === 0 || v === '0') return 0;
  throw new ValidationError([{ field: 'status', message: M.status.zh, messageEn: M.status.en }]);
}

/**
 * Applies the submit's asked-for status to the saved user (in the submit's transaction `trx`): writes it,
 * audits a change and marks a disabled user's sessions for revocation. `existing` is the record before an
 * update (undefined for a new user).
 */
export async function applyStatus(trx: Db, user: AuthUser, saved: Row, existing: Row | undefined): Promise<void> {
  const state = userSubmitState.getStore();
  if (state?.status === undefined) return;
  const before = existing ? Number(existing.status ?? 1) : 1;
  if (state.status === before) return;
  const id = String(saved.id);
  if (state.status === 0 && id === user.userId) throw new ApiError(400, M.disableSelf);
  await sql`UPDATE blade_user SET status = ${state.status} WHERE id = ${id}::bigint`.execute(trx);
  saved.status = state.status;
  await writeAudit(trx, user, {
    resource: 'system/user', title: '用户管理', titleEn: 'Users', action: state.status === 0 ? 'disable' : 'enable', ids: [id],
    changes: { status: { from: before, to: state.status } }, requestUri: '/api/blade-user/submit',
  });
  if (state.status === 0) state.revoke.push(id);
}

/** Refuses a new user of `tenantId` beyond its account quota (see the module comment). */
export async function checkQuota(trx: Db, tenantId: string): Promise<void> {
  const r = await sql<{ quota: number; used: number }>`
    SELECT t.account_number AS quota, (SELECT count(*)::int FROM blade_user u WHERE u.tenant_id = t.tenant_id AND u.is_deleted = 0) AS used
      FROM blade_tenant t WHERE t.tenant_id = ${tenantId} AND t.is_deleted = 0`.execute(trx);
  const row = r.rows[0];
  if (!row || row.quota < 0 || row.used < row.quota) return;
  throw new ApiError(400, { zh: M.quota.zh.replace('{n}', String(row.quota)), en: M.quota.en.replace('{n}', String(row.quota)) });
}

/**
 * The rules of the user record the form cannot state, as engine hooks on `system/user` (users.ts's module
 * comment): the account unique in the tenant (账号已存在; one user writer per tenant at a time), the quota, a
 * valid ID number sets sex and birthday and is stored with an upper-case X, a new user gets a generated
 * password (answered once through `initialPasswords`), the asked-for state is applied, an administrator
 * cannot remove themselves, and a removed user's sessions end once the removal committed.
 */
export function registerUserRules(engine: ResourceEngine, tokens: TokenService): void {
  engine.hooks('system/user', {
    async beforeSubmit({ user, trx, record, existing, isNew }) {
      // one user writer per tenant at a time: the uniqueness check below cannot race
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`blade_user:${user.tenantId}`}))`.execute(trx);
      const self = isNew ? sql`` : sql`AND id <> ${String(existing!.id)}::bigint`;
      const dup = await sql`SELECT 1 FROM blade_user WHERE tenant_id = ${user.tenantId} AND account = ${record.account} AND is_deleted = 0 ${self} LIMIT 1`.execute(trx);
      if (dup.rows.length) throw new ValidationError([{ field: 'account', message: M.accountExists.zh, messageEn: M.accountExists.en }]);
      if (isNew) await checkQuota(trx, user.tenantId); // the tenant's account quota (user-state.ts)
      if (typeof record.idcard === 'string' && record.idcard !== '') {
        const idcard = normaliseIdCard(record.idcard);
        record.idcard = idcard;
        const info = idCardInfo(idcard);
        if (info) {
          record.sex = info.sex;
          record.birthday = info.birthday;
        }
      }
    },
    async afterSubmit({ trx, saved, isNew, user, existing }) {
      await applyStatus(trx, user, saved, existing);
      if (!isNew) return;
      const plain = generatePassword();
      await sql`UPDATE blade_user SET password = ${await hashPassword(plain)}, must_change_password = true, password_time = now()
                 WHERE id = ${String(saved.id)}::bigint`.execute(trx);
      initialPasswords.set(saved, plain);
    },
    beforeRemove({ user, ids }) {
      if (ids.includes(user.userId)) throw new ApiError(400, M.removeSelf);
    },
    async afterCommit({ action, ids }) {
      if (action === 'remove') await revokeUserSessions(tokens, engine.db, ids); // a removed user's sessions end
    },
  });
}
