/**
 * Account calls that work with SMS codes, self-registration and the outbox (issue 10; spec 000 §2.7, §4, §5, §7
 * Onboarding/Register, §8; spec 002 §7 User; DESIGN §8 'Messages out'). Codes, their limits and the providers
 * are src/server/core/outbox.ts.
 *
 * | call                                                   | who        | what                                   |
 * | ------------------------------------------------------ | ---------- | -------------------------------------- |
 * | POST /api/blade-resource/sms/endpoint/send-validate    | anyone     | sends a code; `{id}` (the SMS key)     |
 * | POST /api/blade-resource/sms/endpoint/validate-message | anyone     | trades a password code for `{code}`    |
 * | POST /api/blade-user/update-password-by-smscode        | anyone     | new password with that code            |
 * | POST /api/blade-user/update-phone-by-smscode           | signed in  | my new phone number with its code      |
 * | POST /api/blade-user/register-guest                    | anyone     | a registration awaiting approval       |
 * | POST /api/blade-user/approve-register?userIds=         | admins     | approves registrations (enables them)  |
 *
 * send-validate (`phone`, `tenantId`, `purpose`, `account`): `purpose` is `password` (default; `account` names
 * an account of the tenant whose phone this is — onboarding step 0 and 'forgot password'), `login` (the phone
 * of exactly one enabled account: token-by-phone), or `phone` (signed in: a new number for my account, used by
 * no other account). The phone is checked first (手机号码不能为空 / 长度不为11位 / 格式不正确), then the tenant,
 * then the purpose's rule, then the rate limits. validate-message (`id`, `phone`, `tenantId`, `account`,
 * `value`) answers `{code}`, a one-time ticket (10 minutes) for update-password-by-smscode (`newPassword`,
 * `newPassword1`, `account`, `tenantId`, `code`), whose password rule is the onboarding one (all four character
 * classes, spec 000 §5): the passwords are checked before the ticket is spent. The original encrypts the new
 * password in the browser; here TLS carries it and the server stores only its argon2id hash.
 *
 * The outbox administrators read (DESIGN §8) is the read-only resource `system/outbox` (schemas/system/outbox.json:
 * `GET /api/blade-system/outbox/list|page|detail`, menu 消息发件箱 under 日志管理), over `kc_outbox`.
 *
 * register-guest (spec 000 §2.7, §3.4 register form, §5 order, §8): `tenantId`, `name`, `account`, `password`,
 * `password2`, optional `oauth_id` (a third-party identity not yet bound, blade_user_oauth; only with the
 * `kc_social_reg` cookie the social grant set for it, core/auth/social-routes.ts). Checks in the
 * spec's order — 请先输入租户编号, 请先输入账号名称, 请先输入密码, 两次密码输入不一致 — then the password rule
 * (two classes), the account's form, the tenant, the account's uniqueness. The account is created disabled
 * (status 0, register_status 1, no role) and the answer's msg is 注册申请已提交,请耐心等待管理员通过!; it signs
 * in once an administrator approves it (approve-register: enabled; roles are granted in the user screen).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from '../../core/db/index.js';
import { ApiError, ValidationError, ok } from '../../core/envelope.js';
import { hashPassword } from '../../core/auth/password.js';
import { nextId } from '../../core/ids.js';
import { Outbox, SmsCodes, SMS_MESSAGES, smsProviderFromEnv, type CodePurpose } from '../../core/outbox.js';
import type { Kernel } from '../../app.js';
import { phoneFault } from '../../../shared/validators/index.js';
import { PASSWORD_MESSAGES, newPasswordFault, passwordFault } from '../../../shared/validators/password.js';
import { setPassword } from './account.js';
import { registerTicketValid } from '../../core/auth/social-routes.js';
import { loadOrCreateSecrets } from '../../core/secrets.js';

type Row = Record<string, unknown>;

export const SMS_ACCOUNT_MESSAGES = {
  phoneNotAccount: { zh: '手机号与账号不匹配', en: 'This phone number does not belong to the account' },
  phoneUnknown: { zh: '该手机号未绑定账号', en: 'No account uses this phone number' },
  phoneMany: { zh: '该手机号绑定了多个账号,请使用账号密码登录', en: 'Several accounts use this phone number: log in with the account and password' },
  phoneTaken: { zh: '该手机号已被其他账号使用', en: 'Another account already uses this phone number' },
  phoneSame: { zh: '新手机号与当前手机号相同', en: 'The new phone number is the current one' },
  accountRequired: { zh: '请输入账号', en: 'please input user name' },
  accountUnknown: { zh: '账号不存在', en: 'The account does not exist' },
  phoneChanged: { zh: '修改手机号成功', en: 'The phone number was changed' },
  purpose: { zh: '参数 purpose 只能是 password、login 或 phone', en: 'purpose must be password, login or phone' },
  // spec 000 §5 / 002 §5 register dialog, in this order, and §8
  tenantRequired: { zh: '请先输入租户编号', en: 'Please enter the tenant ID first' },
  registerAccountRequired: { zh: '请先输入账号名称', en: 'Please enter the account name first' },
  registerPasswordRequired: { zh: '请先输入密码', en: 'Please enter the password first' },
  registerMismatch: { zh: '两次密码输入不一致', en: 'The two passwords differ' },
  registerAccountFormat: { zh: '账号只能包含字母、数字和 _ . @ -,最多45个字符', en: 'The account may contain letters, digits and _ . @ - only, at most 45 characters' },
  registerNameLength: { zh: '姓名最多20个字符', en: 'The name must be at most 20 characters' },
  accountExists: { zh: '账号已存在', en: 'This account already exists' },
  oauthInvalid: { zh: '第三方账号信息已失效,请重新登录', en: 'The third-party sign-in has expired: please sign in again' },
  registered: { zh: '注册申请已提交,请耐心等待管理员通过!', en: 'Your registration was submitted: please wait for an administrator to approve it!' },
} as const;

const fieldError = (field: string, m: { zh: string; en: string }) => new ValidationError([{ field, message: m.zh, messageEn: m.en }]);
const params = (req: FastifyRequest): Row => ({ ...((req.query ?? {}) as Row), ...(req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Row) : {}) });
const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** Registers the calls of the module comment; `codes` sends and checks the verification codes. */
export function registerAccountSmsModule(app: FastifyInstance, k: Kernel, codes = new SmsCodes(k.database.db, new Outbox(k.database.db, smsProviderFromEnv()))): void {
  const db = k.database.db;
  const tags = ['user/account'];
  const baseSecret = loadOrCreateSecrets(k.config.dataDir).jwtKey;
  const rateLimit = { max: k.config.loginRateMax, timeWindow: '1 minute' };

  async function liveTenant(tenantId: string): Promise<void> {
    if (!tenantId) throw fieldError('tenantId', SMS_ACCOUNT_MESSAGES.tenantRequired);
    const t = await sql<{ ok: boolean }>`SELECT (expire_time IS NULL OR expire_time > now()) AS ok FROM blade_tenant
                                           WHERE tenant_id = ${tenantId} AND is_deleted = 0 AND status = 1`.execute(db);
    if (!t.rows[0]?.ok) throw new ApiError(400, 'tenantMissing');
  }

  function checkPhone(phone: unknown): string {
    const fault = phoneFault(typeof phone === 'string' ? phone : '');
    if (fault) throw fieldError('phone', fault);
    return phone as string;
  }

  /** The live account `account` of the tenant: id and phone; 400 账号不存在 otherwise. */
  async function accountOf(tenantId: string, account: string): Promise<{ id: string; phone: string | null }> {
    if (!account) throw fieldError('account', SMS_ACCOUNT_MESSAGES.accountRequired);
    const r = await sql<{ id: string; phone: string | null }>`SELECT id::text AS id, phone FROM blade_user
                                                               WHERE tenant_id = ${tenantId} AND account = ${account} AND is_deleted = 0`.execute(db);
    if (!r.rows[0]) throw fieldError('account', SMS_ACCOUNT_MESSAGES.accountUnknown);
    return r.rows[0];
  }

  app.post('/api/blade-resource/sms/endpoint/send-validate', { config: { public: true, rateLimit }, schema: { tags, summary: 'Send a verification code by SMS' } }, async (req) => {
    const p = params(req);
    const phone = checkPhone(p.phone);
    const tenantId = str(p.tenantId) || req.user?.tenantId || '';
    await liveTenant(tenantId);
    const purpose = (str(p.purpose) || 'password') as CodePurpose;
    if (purpose === 'password') {
      const acc = await accountOf(tenantId, str(p.account));
      if (acc.phone !== phone) throw fieldError('phone', SMS_ACCOUNT_MESSAGES.phoneNotAccount);
    } else if (purpose === 'login') {
      const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM blade_user WHERE tenant_id = ${tenantId} AND phone = ${phone} AND is_deleted = 0 AND status = 1`.execute(db);
      const n = r.rows[0]?.n ?? 0;
      if (n === 0) throw fieldError('phone', SMS_ACCOUNT_MESSAGES.phoneUnknown);
      if (n > 1) throw fieldError('phone', SMS_ACCOUNT_MESSAGES.phoneMany);
    } else if (purpose === 'phone') {
      const u = req.user;
      if (!u || u.tenantId !== tenantId) throw new ApiError(401, 'unauthorized');
      await checkNewPhone(u.tenantId, u.userId, phone);
    } else {
      throw fieldError('purpose', SMS_ACCOUNT_MESSAGES.purpose);
    }
    const id = await codes.send(tenantId, phone, purpose);
    return ok({ id }, SMS_MESSAGES.sent[req.lang], req.lang);
  });

  /** Refuses a new phone number that is my current one or another live account's. */
  async function checkNewPhone(tenantId: string, userId: string, phone: string): Promise<void> {
    const r = await sql<{ mine: boolean }>`SELECT (id = ${userId}::bigint) AS mine FROM blade_user
                                            WHERE tenant_id = ${tenantId} AND phone = ${phone} AND is_deleted = 0`.execute(db);
    if (r.rows.some((x) => x.mine)) throw fieldError('phone', SMS_ACCOUNT_MESSAGES.phoneSame);
    if (r.rows.length) throw fieldError('phone', SMS_ACCOUNT_MESSAGES.phoneTaken);
  }

  app.post('/api/blade-resource/sms/endpoint/validate-message', { config: { public: true, rateLimit }, schema: { tags, summary: 'Check a password code; answers a one-time {code}' } }, async (req) => {
    const p = params(req);
    const phone = checkPhone(p.phone);
    const tenantId = str(p.tenantId) || req.user?.tenantId || '';
    await liveTenant(tenantId);
    const acc = await accountOf(tenantId, str(p.account));
    if (acc.phone !== phone) throw fieldError('phone', SMS_ACCOUNT_MESSAGES.phoneNotAccount);
    const id = str(p.id) || undefined;
    const code = await codes.ticket(tenantId, phone, 'password', p.value, id);
    return ok({ code }, undefined, req.lang);
  });

  app.post('/api/blade-user/update-password-by-smscode', { config: { public: true, rateLimit }, schema: { tags, summary: 'Set a new password with the code of validate-message' } }, async (req) => {
    const p = params(req);
    const tenantId = str(p.tenantId) || req.user?.tenantId || '';
    await liveTenant(tenantId);
    const fault = newPasswordFault(p.newPassword, p.newPassword1, 'all');
    if (fault) throw fieldError(fault.field, fault.reason);
    const acc = await accountOf(tenantId, str(p.account));
    if (!acc.phone) throw fieldError('phone', SMS_ACCOUNT_MESSAGES.phoneNotAccount);
    await codes.redeemTicket(tenantId, acc.phone, 'password', p.code);
    await setPassword(db, tenantId, acc.id, p.newPassword as string);
    return ok(true, req.lang === 'en' ? 'password changed successfully' : '修改密码成功', req.lang);
  });

  app.post('/api/blade-user/update-phone-by-smscode', { schema: { tags, summary: 'Change my phone number with a code sent to it' } }, async (req) => {
    const u = req.user!;
    const p = params(req);
    const phone = checkPhone(p.phone);
    await checkNewPhone(u.tenantId, u.userId, phone);
    await codes.consume(u.tenantId, phone, 'phone', p.value, str(p.id) || undefined);
    await sql`UPDATE blade_user SET phone = ${phone}, update_user = ${u.userId}::bigint, update_time = now()
               WHERE id = ${u.userId}::bigint AND tenant_id = ${u.tenantId} AND is_deleted = 0`.execute(db);
    return ok(true, SMS_ACCOUNT_MESSAGES.phoneChanged[req.lang], req.lang);
  });

  app.post('/api/blade-user/register-guest', { config: { public: true, rateLimit }, schema: { tags, summary: 'Register an account that waits for approval' } }, async (req) => {
    const p = params(req);
    const tenantId = str(p.tenantId);
    const account = str(p.account);
    const name = str(p.name);
    const password = typeof p.password === 'string' ? p.password : '';
    const password2 = typeof p.password2 === 'string' ? p.password2 : '';
    if (!tenantId) throw fieldError('tenantId', SMS_ACCOUNT_MESSAGES.tenantRequired);
    if (!account) throw fieldError('account', SMS_ACCOUNT_MESSAGES.registerAccountRequired);
    if (!password || !password2) throw fieldError(password ? 'password2' : 'password', SMS_ACCOUNT_MESSAGES.registerPasswordRequired);
    if (password !== password2) throw fieldError('password2', SMS_ACCOUNT_MESSAGES.registerMismatch);
    const weak = passwordFault(password, 'two');
    if (weak) throw fieldError('password', weak === PASSWORD_MESSAGES.newRequired ? SMS_ACCOUNT_MESSAGES.registerPasswordRequired : weak);
    if (account.length > 45 || !/^[A-Za-z0-9_.@-]+$/.test(account)) throw fieldError('account', SMS_ACCOUNT_MESSAGES.registerAccountFormat);
    if ([...name].length > 20) throw fieldError('name', SMS_ACCOUNT_MESSAGES.registerNameLength);
    const oauthRaw = p.oauth_id ?? p.oauthId;
    const oauthId = oauthRaw === undefined || oauthRaw === null || oauthRaw === '' ? null : str(oauthRaw);
    if (oauthId !== null && !/^\d{1,19}$/.test(oauthId)) throw fieldError('oauth_id', SMS_ACCOUNT_MESSAGES.oauthInvalid);
    // the identity must be this browser's own social sign-in (core/auth/social-routes.ts kc_social_reg)
    if (oauthId !== null && !(await registerTicketValid(req, baseSecret, oauthId, tenantId))) throw fieldError('oauth_id', SMS_ACCOUNT_MESSAGES.oauthInvalid);
    await liveTenant(tenantId);
    const hash = await hashPassword(password);
    const id = nextId();
    await db.transaction().execute(async (trx) => {
      // one registration per tenant at a time: the uniqueness check and the insert cannot race
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`register:${tenantId}`}))`.execute(trx);
      const taken = await sql`SELECT 1 FROM blade_user WHERE tenant_id = ${tenantId} AND account = ${account} AND is_deleted = 0`.execute(trx);
      if (taken.rows.length) throw fieldError('account', SMS_ACCOUNT_MESSAGES.accountExists);
      await sql`INSERT INTO blade_user (id, tenant_id, account, password, name, real_name, status, register_status, create_user, update_user)
                VALUES (${id}, ${tenantId}, ${account}, ${hash}, ${name || account}, ${name || account}, 0, 1, ${id}::bigint, ${id}::bigint)`.execute(trx);
      if (oauthId !== null) {
        const bound = await sql`UPDATE blade_user_oauth SET user_id = ${id}::bigint WHERE id = ${oauthId}::bigint AND tenant_id = ${tenantId} AND user_id IS NULL`.execute(trx);
        if (!Number(bound.numAffectedRows ?? 0)) throw fieldError('oauth_id', SMS_ACCOUNT_MESSAGES.oauthInvalid);
      }
    });
    return ok(true, SMS_ACCOUNT_MESSAGES.registered[req.lang], req.lang);
  });

  app.post('/api/blade-user/approve-register', { schema: { tags, summary: 'Approve registrations (administrators)' } }, async (req) => {
    const u = req.user!;
    if (!u.isAdmin) throw new ApiError(403, 'forbidden');
    const raw = str(params(req).userIds);
    const ids = raw.split(',').map((s) => s.trim()).filter(Boolean);
    if (!ids.length) throw new ApiError(400, 'missingParam', { param: 'userIds' });
    if (ids.length > 1000 || !ids.every((x) => /^\d{1,19}$/.test(x))) throw new ApiError(400, 'badParam', { param: 'userIds' });
    const r = await sql`UPDATE blade_user SET status = 1, register_status = 0, update_user = ${u.userId}::bigint, update_time = now()
                         WHERE tenant_id = ${u.tenantId} AND register_status = 1 AND is_deleted = 0 AND id = ANY(${ids}::bigint[])`.execute(db);
    if (!Number(r.numAffectedRows ?? 0)) throw new ApiError(404, 'notFound');
    return ok(Number(r.numAffectedRows), undefined, req.lang);
  });
}
