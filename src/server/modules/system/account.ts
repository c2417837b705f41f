/**
 * The signed-in user's own account (issue 10; spec 000 §2.9–§2.11, §3.3–§3.4, §4, §5, §7 Users/Onboarding;
 * spec 002 §3 personal info form, §7 User). Every call acts on the caller only (the token's tenant and user):
 * another tenant's or user's data is never read or written.
 *
 * | call                                        | what                                                              |
 * | ------------------------------------------- | ----------------------------------------------------------------- |
 * | GET  /api/blade-user/info                   | the caller: the §3.3 fields (read-only ones included: account,    |
 * |                                             | companyName, deptName, phone, birthday), isPerfect, signTemplate, |
 * |                                             | passwordTime, mustChangePassword, roles                           |
 * | POST /api/blade-user/update-info            | changes the caller's personal info (below); answers info          |
 * | POST /api/blade-user/update-password        | oldPassword, newPassword, newPassword1 (two character classes)    |
 * | GET  /api/blade-user/checkPasswordTime      | `{remind, months, passwordTime}`: remind when the password is     |
 * |                                             | older than parameter `password_update_time` months (§2.10)       |
 * | GET  /api/blade-user/checkInit              | onboarding status `{step, hasStep, desc}` (§3.4, §4)             |
 * | GET  /api/blade-user/showInitPassWord       | true while the caller still has a generated or reset password    |
 * | GET  /api/system/wechatEndpoint/log-off-by-userId?userId= | unbinds the messaging app (own account; |
 * |                                             | an administrator may name a user of the tenant): wechat_bound    |
 * |                                             | false and the account's third-party identities dropped (bound by |
 * |                                             | onboarding step 1 or a social registration, social-routes.ts)   |
 *
 * update-info (spec 000 §3.3, §4 'Saving personal info sets isPerfect to true … Skipping sends only id and
 * isPerfect true'): the body's fields of the form `schemas/_pages/userinfo.json` — the same page schema the
 * client renders (one schema, every layer, DESIGN §1) — plus `isPerfect` and `signTemplate` (the signature
 * image's link, onboarding step 2). Read-only fields (`x-pattern: readOnly`: account, company, department,
 * phone, birthday) and `id` are ignored. When any form field is sent, the caller's record with the sent fields
 * over it is validated against the form (required, lengths, formats: ID number GB 11643, e-mail), so the
 * messages are the schema's; a valid ID number sets sex and birthday (spec 000 §5 'derived'). Only
 * `{id, isPerfect}` skips the form. Bad input: 400 with the field errors, nothing stored.
 *
 * checkInit — pending steps (0 password, 1 binding, 2 signature, 3 personal info):
 * - 0 when `must_change_password` (an administrator created the account or reset its password: users.ts);
 * - 1 when parameter `onboarding_bind` is `1` and the account is not bound to the messaging app;
 * - 2 when parameter `onboarding_sign` is `1` and the account has no signature image;
 * - 3 when `is_perfect` is false.
 * `hasStep` is what the current role (header `Role-Id`; all the user's roles without it) is shown (§4 'who
 * sees which onboarding steps'): a role whose alias starts with projectMan — every pending step; majorMan —
 * step 0 only; any other role — steps 0, 1, 2 (3 is ignored). `step` is the first of `hasStep`, or 4 when none
 * remains (the binding poll proceeds once `step` ≥ 3). `desc` says what remains, in the caller's language.
 * Binding and signature are off unless an administrator sets those parameters: without a messaging app there is
 * nothing to bind to, and a tenant decides whether documents need signatures.
 *
 * A generated or reset password is changed before anything else (spec 000 §2.9 step 0; DESIGN §1.3 'the server
 * enforces'): while `must_change_password` is set, every signed-in API call other than `BEFORE_PASSWORD_CHANGE`
 * (API_SCOPE_EXEMPT: what the shell needs to start, plus checkInit, showInitPassWord, checkPasswordTime and
 * the password-change calls) answers 403 请先修改初始密码 before the route runs. The flag is read per user with a
 * 10-second cache (`MustChangeCache`); this node's password change drops the entry at once. Public routes are
 * not affected.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ValidationError, ok } from '../../core/envelope.js';
import { hashPassword, verifyPassword } from '../../core/auth/password.js';
import { API_SCOPE_EXEMPT } from '../../core/api-scope.js';
import type { Kernel } from '../../app.js';
import { assertValid, formValidator } from '../../resources/validate.js';
import { dataFields } from '../../../shared/schema/derive.js';
import type { FormNode } from '../../../shared/schema/types.js';
import type { Lang } from '../../../shared/i18n/messages.js';
import { idCardInfo, normaliseIdCard } from '../../../shared/validators/index.js';
import { PASSWORD_MESSAGES, newPasswordFault } from '../../../shared/validators/password.js';
import { registerOauthProviderHooks } from './account-social.js';
import userinfoPage from '../../../../schemas/_pages/userinfo.json' with { type: 'json' };

type Row = Record<string, unknown>;

/** The personal-info form (spec 000 §3.3) shared with the client. */
export const USERINFO_FORM = (userinfoPage as unknown as { schema: FormNode }).schema;

/** Form field → blade_user column. */
const COLUMNS: Record<string, string> = {
  realName: 'real_name', sex: 'sex', email: 'email', idcard: 'idcard', zcLevel: 'zc_level', zc: 'zc', zw: 'zw',
  education: 'education', job: 'job', school: 'school', graduationDate: 'graduation_date', address: 'address',
  postalCode: 'postal_code', remark: 'remark', researchProject: 'research_project', awards: 'awards', thesis: 'thesis',
};

/** The fields a user may write: the form's, minus the read-only ones. */
const WRITABLE = dataFields(USERINFO_FORM)
  .filter((f) => f.node['x-pattern'] !== 'readOnly' && f.node['x-pattern'] !== 'readPretty')
  .map((f) => f.name);

export const ACCOUNT_MESSAGES = {
  oldWrong: { zh: '原密码不正确', en: 'The old password is wrong' },
  samePassword: { zh: '新密码不能与原密码相同', en: 'The new password must differ from the old one' },
  passwordChanged: { zh: '修改密码成功', en: 'password changed successfully' },
  infoChanged: { zh: '修改信息成功', en: 'information modified successfully' },
  signTemplate: { zh: '签名图片地址无效', en: 'The signature image link is invalid' },
  isPerfect: { zh: '参数 isPerfect 只能是 true 或 false', en: 'isPerfect must be true or false' },
  step0: { zh: '请修改初始密码', en: 'Please change the initial password' },
  step1: { zh: '请扫码绑定账号', en: 'Please scan the QR code to bind your account' },
  step2: { zh: '请完成电子签名', en: 'Please complete your signature' },
  step3: { zh: '请完善个人信息', en: 'Please complete your personal information' },
  done: { zh: '已完成', en: 'Complete' },
  changeFirst: { zh: '请先修改初始密码', en: 'Please change the initial password first' },
} as const;

/** `METHOD url` of the signed-in calls an account with a generated or reset password may make. */
export const BEFORE_PASSWORD_CHANGE: ReadonlySet<string> = new Set([
  // what the shell needs to start, and the account's own onboarding and password calls (api-scope.ts)
  ...API_SCOPE_EXEMPT.map((e) => `${e.method} ${e.url}`),
]);

/** Per user `must_change_password`, cached 10 s (at most 10,000 users; then it starts over). */
class MustChangeCache {
  private readonly entries = new Map<string, { must: boolean; at: number }>();
  async get(db: Db, tenantId: string, userId: string): Promise<boolean> {
    const key = `${tenantId}:${userId}`;
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < 10_000) return hit.must;
    const r = await sql<{ must: boolean }>`SELECT must_change_password AS must FROM blade_user WHERE id = ${userId}::bigint AND tenant_id = ${tenantId}`.execute(db);
    const must = r.rows[0]?.must === true;
    if (this.entries.size >= 10_000) this.entries.clear();
    this.entries.set(key, { must, at: Date.now() });
    return must;
  }
  forget(tenantId: string, userId: string): void {
    this.entries.delete(`${tenantId}:${userId}`);
  }
}

const mustChange = new MustChangeCache();

/** Role aliases with a meaning for onboarding (spec 000 §4, §6). */
export const PROJECT_MAN = 'projectMan';
export const MAJOR_MAN = 'majorMan';

/**
 * The steps a role is shown (spec 000 §4) of the `pending` ones: projectMan… all, majorMan… only 0, others 0–2.
 * With several active roles (no `Role-Id`), the most demanding one decides.
 */
export function stepsFor(aliases: readonly string[], pending: readonly number[]): number[] {
  if (aliases.some((a) => a.startsWith(PROJECT_MAN))) return [...pending];
  if (aliases.length > 0 && aliases.every((a) => a.startsWith(MAJOR_MAN))) return pending.filter((s) => s === 0);
  return pending.filter((s) => s <= 2);
}

/** A system parameter's value, or undefined. */
export async function paramValue(db: Db, key: string): Promise<string | undefined> {
  const r = await sql<{ v: string }>`SELECT param_value AS v FROM blade_param WHERE param_key = ${key} AND is_deleted = 0 LIMIT 1`.execute(db);
  return r.rows[0]?.v;
}

const me = (req: FastifyRequest) => {
  const u = req.user;
  if (!u) throw new ApiError(401, 'unauthorized');
  return u;
};

const body = (req: FastifyRequest): Row => (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Row) : {});
const msg = (m: { zh: string; en: string }, lang: Lang) => m[lang];

/** Registers the calls of the module comment. */
export function registerAccountModule(app: FastifyInstance, k: Kernel): void {
  const db = k.database.db;
  const tags = ['user/account'];
  registerOauthProviderHooks(k); // the sign-in providers of social login (account-social.ts)

  app.addHook('preHandler', async (req) => {
    const u = req.user;
    if (!u || req.routeOptions.config?.public || !req.url.startsWith('/api/')) return;
    if (BEFORE_PASSWORD_CHANGE.has(`${req.method} ${req.routeOptions.url}`)) return;
    if (await mustChange.get(db, u.tenantId, u.userId)) throw new ApiError(403, ACCOUNT_MESSAGES.changeFirst);
  });

  async function info(tenantId: string, userId: string): Promise<Row> {
    const r = await sql<Row & { deptId: string | null }>`
      SELECT u.id::text AS id, u.tenant_id AS "tenantId", u.account, u.name AS "nickName", u.real_name AS "realName", u.avatar,
             u.sex, u.email, u.phone, u.idcard, to_char(u.birthday, 'YYYY-MM-DD') AS birthday, u.zc_level AS "zcLevel", u.zc, u.zw,
             u.education, u.job, u.school, to_char(u.graduation_date, 'YYYY-MM-DD') AS "graduationDate", u.address,
             u.postal_code AS "postalCode", u.remark, u.research_project AS "researchProject", u.awards, u.thesis,
             u.is_perfect AS "isPerfect", u.sign_template AS "signTemplate", u.is_expert AS "isExpert",
             u.dept_id::text AS "deptId", d.dept_name AS "deptName", u.must_change_password AS "mustChangePassword",
             u.wechat_bound AS "wechatBound", to_char(u.password_time, 'YYYY-MM-DD HH24:MI:SS') AS "passwordTime"
        FROM blade_user u LEFT JOIN blade_dept d ON d.id = u.dept_id
       WHERE u.id = ${userId}::bigint AND u.tenant_id = ${tenantId} AND u.is_deleted = 0`.execute(db);
    const row = r.rows[0];
    if (!row) throw new ApiError(401, 'unauthorized');
    const companyId = row.deptId ? await k.org.companyOf(tenantId, row.deptId) : null;
    const company = companyId
      ? (await sql<{ name: string }>`SELECT dept_name AS name FROM blade_dept WHERE id = ${companyId}::bigint AND tenant_id = ${tenantId}`.execute(db)).rows[0]?.name
      : undefined;
    const roles = await sql<Row>`
      SELECT r.id::text AS id, r.role_name AS "roleName", r.role_name_en AS "roleNameEn", r.role_alias AS "roleAlias" FROM blade_user_role ur
        JOIN blade_role r ON r.id = ur.role_id WHERE ur.user_id = ${userId}::bigint AND r.is_deleted = 0 ORDER BY r.sort, r.id`.execute(db);
    return { ...row, userId: row.id, companyName: company ?? null, roles: roles.rows };
  }

  app.get('/api/blade-user/info', { schema: { tags, summary: 'The signed-in user, with the personal info of spec 000 §3.3' } }, async (req) => {
    const u = me(req);
    return ok(await info(u.tenantId, u.userId), undefined, req.lang);
  });

  app.post('/api/blade-user/update-info', { schema: { tags, summary: 'Change my personal info (spec 000 §3.3)', body: { type: 'object' } } }, async (req) => {
    const u = me(req);
    const b = body(req);
    const sent = WRITABLE.filter((f) => Object.hasOwn(b, f));
    const set: Row = {};
    if (b.isPerfect !== undefined) {
      if (typeof b.isPerfect !== 'boolean') throw new ValidationError([{ field: 'isPerfect', message: ACCOUNT_MESSAGES.isPerfect.zh, messageEn: ACCOUNT_MESSAGES.isPerfect.en }]);
      set.is_perfect = b.isPerfect;
    }
    if (b.signTemplate !== undefined) {
      const s = b.signTemplate;
      const good = s === null || s === '' || (typeof s === 'string' && s.length <= 500 && /^(\/|https?:\/\/)[^\s<>"']*$/.test(s));
      if (!good) throw new ValidationError([{ field: 'signTemplate', message: ACCOUNT_MESSAGES.signTemplate.zh, messageEn: ACCOUNT_MESSAGES.signTemplate.en }]);
      set.sign_template = s || null;
    }
    if (sent.length) {
      const current = await info(u.tenantId, u.userId);
      const values: Row = {};
      for (const f of WRITABLE) values[f] = Object.hasOwn(b, f) ? b[f] : (current[f] ?? null);
      if (typeof values.idcard === 'string' && values.idcard) values.idcard = normaliseIdCard(values.idcard);
      assertValid(USERINFO_FORM, formValidator(USERINFO_FORM), values);
      for (const f of WRITABLE) set[COLUMNS[f]] = values[f] === '' ? null : values[f];
      const derived = typeof values.idcard === 'string' ? idCardInfo(values.idcard) : null;
      if (derived) {
        set.sex = derived.sex;
        set.birthday = derived.birthday;
      }
    }
    if (Object.keys(set).length) {
      const assignments = Object.entries(set).map(([c, v]) => sql`${sql.ref(c)} = ${v}`);
      await sql`UPDATE blade_user SET ${sql.join(assignments)}, update_user = ${u.userId}::bigint, update_time = now()
                 WHERE id = ${u.userId}::bigint AND tenant_id = ${u.tenantId} AND is_deleted = 0`.execute(db);
    }
    return ok(await info(u.tenantId, u.userId), msg(ACCOUNT_MESSAGES.infoChanged, req.lang), req.lang);
  });

  app.post('/api/blade-user/update-password', { schema: { tags, summary: 'Change my password (oldPassword, newPassword, newPassword1)' } }, async (req) => {
    const u = me(req);
    const p = { ...(req.query as Row), ...body(req) };
    if (typeof p.oldPassword !== 'string' || p.oldPassword === '') {
      throw new ValidationError([{ field: 'oldPassword', message: PASSWORD_MESSAGES.oldRequired.zh, messageEn: PASSWORD_MESSAGES.oldRequired.en }]);
    }
    const fault = newPasswordFault(p.newPassword, p.newPassword1, 'two');
    if (fault) throw new ValidationError([{ field: fault.field, message: fault.reason.zh, messageEn: fault.reason.en }]);
    const r = await sql<{ password: string | null }>`SELECT password FROM blade_user WHERE id = ${u.userId}::bigint AND tenant_id = ${u.tenantId} AND is_deleted = 0`.execute(db);
    const stored = r.rows[0]?.password;
    if (!stored || !(await verifyPassword(stored, p.oldPassword))) {
      throw new ValidationError([{ field: 'oldPassword', message: ACCOUNT_MESSAGES.oldWrong.zh, messageEn: ACCOUNT_MESSAGES.oldWrong.en }]);
    }
    if (p.oldPassword === p.newPassword) {
      throw new ValidationError([{ field: 'newPassword', message: ACCOUNT_MESSAGES.samePassword.zh, messageEn: ACCOUNT_MESSAGES.samePassword.en }]);
    }
    await setPassword(db, u.tenantId, u.userId, p.newPassword as string);
    return ok(true, msg(ACCOUNT_MESSAGES.passwordChanged, req.lang), req.lang);
  });

  app.get('/api/blade-user/checkPasswordTime', { schema: { tags, summary: 'Whether my password is older than password_update_time months' } }, async (req) => {
    const u = me(req);
    const raw = await paramValue(db, 'password_update_time');
    const months = raw !== undefined && /^\d{1,4}$/.test(raw.trim()) ? Number(raw.trim()) : 0;
    const r = await sql<{ remind: boolean; passwordTime: string }>`
      SELECT (${months} > 0 AND password_time < now() - make_interval(months => ${months}) AND NOT must_change_password) AS remind,
             to_char(password_time, 'YYYY-MM-DD HH24:MI:SS') AS "passwordTime"
        FROM blade_user WHERE id = ${u.userId}::bigint AND tenant_id = ${u.tenantId} AND is_deleted = 0`.execute(db);
    if (!r.rows[0]) throw new ApiError(401, 'unauthorized');
    return ok({ remind: r.rows[0].remind, months, passwordTime: r.rows[0].passwordTime }, undefined, req.lang);
  });

  app.get('/api/blade-user/checkInit', { schema: { tags, summary: 'Onboarding status {step, hasStep, desc}' } }, async (req) => {
    const u = me(req);
    const r = await sql<{ must: boolean; bound: boolean; signed: boolean; perfect: boolean }>`
      SELECT must_change_password AS must, wechat_bound AS bound, (sign_template IS NOT NULL AND sign_template <> '') AS signed,
             is_perfect AS perfect FROM blade_user WHERE id = ${u.userId}::bigint AND tenant_id = ${u.tenantId} AND is_deleted = 0`.execute(db);
    const row = r.rows[0];
    if (!row) throw new ApiError(401, 'unauthorized');
    const [bind, sign] = await Promise.all([paramValue(db, 'onboarding_bind'), paramValue(db, 'onboarding_sign')]);
    const pending: number[] = [];
    if (row.must) pending.push(0);
    if (bind === '1' && !row.bound) pending.push(1);
    if (sign === '1' && !row.signed) pending.push(2);
    if (!row.perfect) pending.push(3);
    const hasStep = stepsFor(u.activeRoleAliases, pending);
    const texts = hasStep.map((s) => ACCOUNT_MESSAGES[`step${s}` as 'step0'][req.lang]);
    return ok({ step: hasStep[0] ?? 4, hasStep, desc: texts.length ? texts.join(req.lang === 'en' ? '; ' : '；') : ACCOUNT_MESSAGES.done[req.lang] }, undefined, req.lang);
  });

  app.get('/api/blade-user/showInitPassWord', { schema: { tags, summary: 'Whether I still have a generated or reset password' } }, async (req) => {
    const u = me(req);
    const r = await sql<{ must: boolean }>`SELECT must_change_password AS must FROM blade_user WHERE id = ${u.userId}::bigint AND tenant_id = ${u.tenantId} AND is_deleted = 0`.execute(db);
    return ok(r.rows[0]?.must === true, undefined, req.lang);
  });

  app.get('/api/system/wechatEndpoint/log-off-by-userId', { schema: { tags, summary: 'Unbind the messaging app (mine; administrators: a user of the tenant)' } }, async (req) => {
    const u = me(req);
    const q = req.query as Row;
    const userId = q.userId === undefined || q.userId === '' ? u.userId : q.userId;
    if (typeof userId !== 'string' || !/^\d{1,19}$/.test(userId)) throw new ApiError(400, 'badParam', { param: 'userId' });
    if (userId !== u.userId && !u.isAdmin) throw new ApiError(403, 'forbidden');
    const done = await db.transaction().execute(async (trx) => {
      const r = await sql`UPDATE blade_user SET wechat_bound = false, update_time = now() WHERE id = ${userId}::bigint AND tenant_id = ${u.tenantId} AND is_deleted = 0`.execute(trx);
      if (!Number(r.numAffectedRows ?? 0)) return false;
      // every identity bound to the account: binding goes through the configured sign-in providers, whatever their source
      await sql`DELETE FROM blade_user_oauth WHERE user_id = ${userId}::bigint AND tenant_id = ${u.tenantId}`.execute(trx);
      return true;
    });
    if (!done) throw new ApiError(404, 'notFound');
    return ok(true, undefined, req.lang);
  });
}

/**
 * Stores `plain` (already checked against the rules) as the user's argon2id hash, clears `must_change_password`
 * and a lock, and stamps `password_time` (the reminder counts from it).
 */
export async function setPassword(db: Db, tenantId: string, userId: string, plain: string): Promise<void> {
  const hash = await hashPassword(plain);
  await sql`UPDATE blade_user SET password = ${hash}, must_change_password = false, password_time = now(), fail_count = 0, lock_until = NULL,
                   update_user = ${userId}::bigint, update_time = now()
             WHERE id = ${userId}::bigint AND tenant_id = ${tenantId} AND is_deleted = 0`.execute(db);
  mustChange.forget(tenantId, userId);
}
