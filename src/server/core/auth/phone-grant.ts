/**
 * Login by phone and SMS code (spec 000 §2.6, §4 'Login by username, phone or social source', §7
 * `POST /api/blade-auth/oauth/token-by-phone: phone, with SMS key and code in headers`; issue 10).
 *
 * `POST /api/blade-auth/oauth/token-by-phone`: `phone` and `tenantId` in the query or body (tenant also from the
 * `Tenant-Id` header, default 000000), the SMS key in header `Sms-Key` and the code in `Sms-Code` (the code of
 * `send-validate` with purpose `login`, src/server/modules/system/account-sms.ts), the client in
 * `Authorization: Basic`. The phone must belong to exactly one live account of the tenant; the code is checked
 * and consumed (core/outbox.ts: 6 characters, 5 minutes, the 5th wrong try burns it); a locked or disabled
 * account is refused as at password login. Success answers the token answer of the password grant; every
 * answer carries `Cache-Control: no-store`. Rate limited per IP like the token endpoint. The client's
 * `authorized_grant_types` is not consulted: the SMS code is the proof, and the client still authenticates.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Db } from '../db/index.js';
import { ApiError, ValidationError } from '../envelope.js';
import { Outbox, SmsCodes, smsProviderFromEnv } from '../outbox.js';
import { phoneFault } from '../../../shared/validators/index.js';

/** What the token endpoint lends this grant (closures of registerAuthRoutes). */
export interface PhoneGrantDeps<U, C> {
  db: Db;
  rateLimit: { max: number; timeWindow: string };
  noCache: Record<string, string>;
  defaultTenant: string;
  authenticateClient(req: FastifyRequest): Promise<C>;
  loadUser(where: { tenantId: string; id: string }): Promise<U | null>;
  admit(user: U): void;
  issue(user: U, client: C): Promise<Record<string, unknown>>;
  codes?: SmsCodes;
}

const MESSAGES = {
  phoneUnknown: { zh: '该手机号未绑定账号', en: 'No account uses this phone number' },
  phoneMany: { zh: '该手机号绑定了多个账号,请使用账号密码登录', en: 'Several accounts use this phone number: log in with the account and password' },
};

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Mounts token-by-phone (see the module comment). */
export function registerPhoneGrant<U, C>(app: FastifyInstance, deps: PhoneGrantDeps<U, C>): void {
  const codes = deps.codes ?? new SmsCodes(deps.db, new Outbox(deps.db, smsProviderFromEnv()));
  app.post('/api/blade-auth/oauth/token-by-phone', {
    config: { public: true, rateLimit: deps.rateLimit },
    schema: { tags: ['auth'], summary: 'Log in with a phone number and an SMS code' },
    onSend: async (_req, reply, payload) => {
      reply.headers(deps.noCache);
      return payload;
    },
  }, async (req, reply) => {
    const client = await deps.authenticateClient(req);
    const p: Record<string, unknown> = { ...((req.query as object) ?? {}), ...((req.body && typeof req.body === 'object' ? req.body : {}) as object) };
    const phone = typeof p.phone === 'string' ? p.phone : '';
    const fault = phoneFault(phone);
    if (fault) throw new ValidationError([{ field: 'phone', message: fault.zh, messageEn: fault.en }]);
    const tenantId = header(req, 'tenant-id') || (typeof p.tenantId === 'string' ? p.tenantId : '') || deps.defaultTenant;
    const r = await sql<{ id: string }>`SELECT id::text AS id FROM blade_user WHERE tenant_id = ${tenantId} AND phone = ${phone} AND is_deleted = 0 LIMIT 2`.execute(deps.db);
    if (r.rows.length === 0) throw new ApiError(400, MESSAGES.phoneUnknown);
    if (r.rows.length > 1) throw new ApiError(400, MESSAGES.phoneMany);
    const key = header(req, 'sms-key');
    await codes.consume(tenantId, phone, 'login', header(req, 'sms-code') ?? '', key && /^\d{1,19}$/.test(key) ? key : undefined);
    const user = await deps.loadUser({ tenantId, id: r.rows[0].id });
    if (!user) throw new ApiError(400, MESSAGES.phoneUnknown);
    deps.admit(user);
    return reply.send(await deps.issue(user, client));
  });
}
