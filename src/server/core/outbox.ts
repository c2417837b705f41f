/**
 * Messages out (DESIGN §8 'Messages out'; spec 000 §4 'SMS code', §5, §7 onboarding and token-by-phone; issue 10
 * 'SMS'): SMS and e-mail through a provider interface, and the verification codes sent by SMS.
 *
 * Providers. `MessageProvider.deliver(message)` hands one message to a gateway. Every message is stored in
 * `kc_outbox` (migration 0012) whatever the provider, with the provider's name and its outcome, so an
 * administrator can always read what was sent (`GET /api/blade-system/outbox/list`, account.ts):
 * - `outbox` (built in, the default): stores only — codes work on a machine without a gateway;
 * - `http` (configuration: `SMS_HTTP_URL`, optional `SMS_HTTP_TOKEN` sent as `Authorization: Bearer`): POSTs
 *   `{phone, content, tenantId}` as JSON to an HTTP SMS API; a non-2xx answer or a network failure is
 *   recorded (status 2, `error`) and the send fails with 短信发送失败.
 * E-mail goes to the outbox only: an SMTP provider would use nodemailer, which is not installed in this tree.
 *
 * Two ways out: `send` delivers at once and throws 短信发送失败 when the gateway refused (a verification code:
 * the user must know); `queue` stores the message as status 0 in the caller's transaction and the dispatcher
 * (core/outbox-dispatch.ts) delivers it after the commit (a workflow step's SMS / e-mail: a rolled-back step
 * sends nothing, and a slow gateway never holds the step's locks). Status: 0 queued, 3 being delivered,
 * 1 stored/delivered, 2 the gateway failed (`error`).
 *
 * Codes (`SmsCodes`), rules of spec 000 §5 / §9 and DESIGN §8, §11:
 * - 6 digits (crypto.randomInt), stored as a SHA-256 hash; valid 5 minutes (`CODE_TTL_SECONDS`);
 * - per phone and tenant: at most 1 code per 60 s (`RESEND_SECONDS`, the client's countdown) and 10 per
 *   24 hours (`DAILY_MAX`) — refused with 400 and a message, nothing sent or stored;
 * - a wrong code counts an attempt; the 5th wrong attempt (`MAX_ATTEMPTS`) burns the code (验证码错误次数过多,
 *   请重新获取); an expired, burned or used code answers 验证码已失效,请重新获取;
 * - a code is for one `purpose` (login, password, phone, register) and is consumed by its first successful use.
 *   `validate-message` instead trades it for a one-time ticket (10 minutes) that update-password-by-smscode
 *   consumes (spec 000 §7 'validate SMS code … returns a code').
 * Messages are zh verbatim where the spec gives them (验证码 must be 6 characters: 验证码长度为6位); the rest are
 * ours, with en beside them.
 */
import crypto from 'node:crypto';
import { sql, type Db } from './db/index.js';
import { ApiError } from './envelope.js';
import { nextId } from './ids.js';
import { CHANNEL, notify } from './channels.js';

export type Channel = 'sms' | 'email';

/** One message to send: `recipient` a phone (sms) or an address (email). */
export interface OutMessage {
  tenantId: string;
  channel: Channel;
  recipient: string;
  subject?: string;
  content: string;
}

/** A gateway. `deliver` resolves when the gateway accepted the message and throws (with a reason) otherwise. */
export interface MessageProvider {
  readonly name: string;
  deliver(message: OutMessage): Promise<void>;
}

/** The built-in provider: the outbox row is the delivery (DESIGN §8). */
export const outboxProvider: MessageProvider = { name: 'outbox', deliver: async () => undefined };

/** An HTTP SMS API: POST `{phone, content, tenantId}` (JSON) to `url`; any 2xx is success. */
export function httpSmsProvider(url: string, token?: string): MessageProvider {
  return {
    name: 'http',
    async deliver(m) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ phone: m.recipient, content: m.content, tenantId: m.tenantId }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`SMS gateway answered ${res.status}`);
    },
  };
}

/** The SMS provider the environment configures (`SMS_HTTP_URL`), else the outbox. */
export function smsProviderFromEnv(env: NodeJS.ProcessEnv = process.env): MessageProvider {
  return env.SMS_HTTP_URL ? httpSmsProvider(env.SMS_HTTP_URL, env.SMS_HTTP_TOKEN || undefined) : outboxProvider;
}

export const SMS_MESSAGES = {
  sendFailed: { zh: '短信发送失败', en: 'The text message could not be sent' },
  tooSoon: { zh: '验证码发送过于频繁,请 {seconds} 秒后再试', en: 'A code was sent just now: try again in {seconds} seconds' },
  dailyLimit: { zh: '该手机号今日获取验证码次数已达上限', en: 'This phone number has had too many codes today' },
  codeRequired: { zh: '请输入验证码', en: 'please enter verification code' },
  codeLength: { zh: '验证码长度为6位', en: 'verification code must be 6 characters' },
  codeWrong: { zh: '验证码错误', en: 'The verification code is wrong' },
  codeBurned: { zh: '验证码错误次数过多,请重新获取', en: 'Too many wrong codes: please get a new one' },
  codeInvalid: { zh: '验证码已失效,请重新获取', en: 'The verification code has expired: please get a new one' },
  sent: { zh: '验证码已发送至您的手机', en: 'verification code has been sent to your phone' },
  content: { zh: '【科创管理平台】您的验证码为 {code},5分钟内有效,请勿泄露。', en: '[Kechuang] Your verification code is {code}, valid for 5 minutes. Do not share it.' },
} as const;

const fill = (m: { zh: string; en: string }, p: Record<string, unknown>) => ({
  zh: m.zh.replace(/\{(\w+)\}/g, (_, k: string) => String(p[k])),
  en: m.en.replace(/\{(\w+)\}/g, (_, k: string) => String(p[k])),
});

/** Stores and delivers messages (one outbox row per message, DESIGN §8). */
export class Outbox {
  constructor(
    private readonly db: Db,
    private readonly sms: MessageProvider = outboxProvider,
    private readonly email: MessageProvider = outboxProvider,
  ) {}

  /** Sends `m` through its channel's provider and stores it; throws 400 短信发送失败 when the gateway failed. */
  async send(m: OutMessage): Promise<string> {
    const provider = m.channel === 'sms' ? this.sms : this.email;
    let error: string | null = null;
    try {
      await provider.deliver(m);
    } catch (e) {
      error = (e instanceof Error ? e.message : String(e)).slice(0, 500);
    }
    const id = nextId();
    await sql`INSERT INTO kc_outbox (id, tenant_id, channel, recipient, subject, content, provider, status, error)
              VALUES (${id}, ${m.tenantId}, ${m.channel}, ${m.recipient}, ${m.subject ?? null}, ${m.content}, ${provider.name},
                      ${error ? 2 : 1}, ${error})`.execute(this.db);
    if (error) throw new ApiError(400, SMS_MESSAGES.sendFailed);
    return id;
  }

  /**
   * Queues `m` (status 0) through this outbox's database handle — give it the caller's transaction: the row
   * commits or rolls back with the work that caused it, and the `kc_outbox` notification (delivered only on
   * commit) wakes the dispatcher (core/outbox-dispatch.ts), which hands it to the gateway afterwards. For
   * messages that are a side effect of a step (a to-do's SMS / e-mail), never a gateway call inside the
   * step's transaction. Answers the row's id.
   */
  async queue(m: OutMessage): Promise<string> {
    const provider = m.channel === 'sms' ? this.sms : this.email;
    const id = nextId();
    await sql`INSERT INTO kc_outbox (id, tenant_id, channel, recipient, subject, content, provider, status)
              VALUES (${id}, ${m.tenantId}, ${m.channel}, ${m.recipient}, ${m.subject ?? null}, ${m.content.slice(0, 2000)}, ${provider.name}, 0)`.execute(this.db);
    await notify(this.db, CHANNEL.outbox, '');
    return id;
  }
}

export type CodePurpose = 'login' | 'password' | 'phone' | 'register';

export const CODE_LENGTH = 6;
export const CODE_TTL_SECONDS = 300;
export const RESEND_SECONDS = 60;
export const DAILY_MAX = 10;
export const MAX_ATTEMPTS = 5;
export const TICKET_TTL_SECONDS = 600;

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

/** The reason a code as typed is malformed (spec 000 §5: required, exactly 6 characters), or null. */
export function codeFault(value: unknown): { zh: string; en: string } | null {
  if (typeof value !== 'string' || value === '') return SMS_MESSAGES.codeRequired;
  if (value.length !== CODE_LENGTH) return SMS_MESSAGES.codeLength;
  return null;
}

/** Verification codes by SMS (see the module comment for the rules). */
export class SmsCodes {
  constructor(
    private readonly db: Db,
    private readonly outbox: Outbox,
  ) {}

  /**
   * Sends a new code for `purpose` to `phone` of `tenantId`; answers its key (`id`). Refuses (400, nothing
   * stored or sent) within 60 s of the last code to this phone, or after 10 in 24 hours. One transaction with
   * an advisory lock per phone, so two concurrent requests cannot both pass the rate check.
   */
  async send(tenantId: string, phone: string, purpose: CodePurpose): Promise<string> {
    const code = String(crypto.randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
    const id = nextId();
    await this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`sms:${tenantId}:${phone}`}))`.execute(trx);
      const r = await sql<{ last_age: number | null; today: number }>`
        SELECT extract(epoch FROM now() - max(create_time))::float AS last_age,
               count(*) FILTER (WHERE create_time > now() - interval '24 hours')::int AS today
          FROM kc_sms_code WHERE tenant_id = ${tenantId} AND phone = ${phone} AND create_time > now() - interval '24 hours'`.execute(trx);
      const { last_age: age, today } = r.rows[0] ?? { last_age: null, today: 0 };
      if (age !== null && age < RESEND_SECONDS) throw new ApiError(400, fill(SMS_MESSAGES.tooSoon, { seconds: Math.ceil(RESEND_SECONDS - age) }));
      if (today >= DAILY_MAX) throw new ApiError(400, SMS_MESSAGES.dailyLimit);
      await sql`INSERT INTO kc_sms_code (id, tenant_id, phone, purpose, code_hash, expires_at)
                VALUES (${id}, ${tenantId}, ${phone}, ${purpose}, ${sha256(code)}, now() + make_interval(secs => ${CODE_TTL_SECONDS}))`.execute(trx);
    });
    try {
      await this.outbox.send({ tenantId, channel: 'sms', recipient: phone, content: SMS_MESSAGES.content.zh.replace('{code}', code) });
    } catch (e) {
      // not delivered: the code never existed, and the 60 s wait does not apply (the client re-enables its button)
      await sql`DELETE FROM kc_sms_code WHERE id = ${id}::bigint`.execute(this.db);
      throw e;
    }
    return id;
  }

  /**
   * Checks `value` against the live code for `phone` and `purpose` (by key `id` when given, else the newest);
   * consumes it on success. Throws 400 with the message of the failure (see the module comment); a wrong
   * value counts an attempt, the 5th burns the code.
   */
  async consume(tenantId: string, phone: string, purpose: CodePurpose, value: unknown, id?: string): Promise<void> {
    const row = await this.check(tenantId, phone, purpose, value, id);
    // used_at IS NULL: of two requests with the same good code, only one consumes it
    const r = await sql`UPDATE kc_sms_code SET used_at = now() WHERE id = ${row}::bigint AND used_at IS NULL`.execute(this.db);
    if (!Number(r.numAffectedRows ?? 0)) throw new ApiError(400, SMS_MESSAGES.codeInvalid);
  }

  /** Like `consume`, but answers a one-time ticket (10 minutes) that `redeemTicket` accepts instead of the code. */
  async ticket(tenantId: string, phone: string, purpose: CodePurpose, value: unknown, id?: string): Promise<string> {
    const row = await this.check(tenantId, phone, purpose, value, id);
    const ticket = crypto.randomBytes(24).toString('base64url');
    const r = await sql`UPDATE kc_sms_code SET used_at = now(), ticket_hash = ${sha256(ticket)},
                     ticket_expires_at = now() + make_interval(secs => ${TICKET_TTL_SECONDS}) WHERE id = ${row}::bigint AND used_at IS NULL`.execute(this.db);
    if (!Number(r.numAffectedRows ?? 0)) throw new ApiError(400, SMS_MESSAGES.codeInvalid);
    return ticket;
  }

  /** Consumes a ticket of `validate-message` for `phone`; 400 验证码已失效 when unknown, used or expired. */
  async redeemTicket(tenantId: string, phone: string, purpose: CodePurpose, ticket: unknown): Promise<void> {
    if (typeof ticket !== 'string' || ticket === '') throw new ApiError(400, SMS_MESSAGES.codeInvalid);
    const r = await sql<{ id: string }>`
      UPDATE kc_sms_code SET ticket_hash = NULL
       WHERE tenant_id = ${tenantId} AND phone = ${phone} AND purpose = ${purpose} AND ticket_hash = ${sha256(ticket)}
         AND ticket_expires_at > now() RETURNING id::text AS id`.execute(this.db);
    if (!r.rows[0]) throw new ApiError(400, SMS_MESSAGES.codeInvalid);
  }

  private async check(tenantId: string, phone: string, purpose: CodePurpose, value: unknown, id?: string): Promise<string> {
    const fault = codeFault(value);
    if (fault) throw new ApiError(400, fault);
    if (id !== undefined && !/^\d{1,19}$/.test(id)) throw new ApiError(400, SMS_MESSAGES.codeInvalid);
    const r = await sql<{ id: string; code_hash: string; attempts: number }>`
      SELECT id::text AS id, code_hash, attempts FROM kc_sms_code
       WHERE tenant_id = ${tenantId} AND phone = ${phone} AND purpose = ${purpose} AND used_at IS NULL
         AND attempts < ${MAX_ATTEMPTS} AND expires_at > now() ${id ? sql`AND id = ${id}::bigint` : sql``}
       ORDER BY create_time DESC LIMIT 1`.execute(this.db);
    const row = r.rows[0];
    if (!row) throw new ApiError(400, SMS_MESSAGES.codeInvalid);
    const good = crypto.timingSafeEqual(Buffer.from(row.code_hash, 'hex'), Buffer.from(sha256(value as string), 'hex'));
    if (!good) {
      const u = await sql<{ attempts: number }>`UPDATE kc_sms_code SET attempts = attempts + 1 WHERE id = ${row.id}::bigint RETURNING attempts`.execute(this.db);
      throw new ApiError(400, (u.rows[0]?.attempts ?? MAX_ATTEMPTS) >= MAX_ATTEMPTS ? SMS_MESSAGES.codeBurned : SMS_MESSAGES.codeWrong);
    }
    return row.id;
  }
}
