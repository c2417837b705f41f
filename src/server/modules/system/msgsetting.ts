/**
 * User message settings (spec 002 §2 'user message setting', §3 'per-user setting (fields not shown)', §7
 * `GET system/usermsgsetting/getMySetting`, `POST saveMySetting`; spec 001 §7; issue 9). The setting is the
 * resource `system/usermsgsetting` (schemas/system/usermsgsetting.json, table blade_user_msg_setting, keyed by
 * the user's id): its form is the settings dialog, and the engine validates it.
 *
 * What a user chooses (decision; the spec shows no fields): for each kind of notice, the channels it reaches
 * them by — `site` (站内信, the to-do and push lists), `sms` (短信) and `email` (邮件), any of them or none:
 * - `todo`: a task is waiting for me (examination, review, claim);
 * - `examine`: something I handed in was approved, rejected or returned;
 * - `notice`: a notice, announcement or push message was published;
 * - `account`: my password was reset, my account locked or unlocked.
 * Until a user saves, the defaults of the form hold: site messages for everything, SMS too for account
 * security. The message senders read the row (`channelsOf`).
 *
 * Calls (any signed-in user; the caller's own row only — the body's `userId` is ignored, no call reads or
 * writes another user's setting):
 * - `GET /api/system/usermsgsetting/getMySetting` → `{userId, todo, examine, notice, account}` (the defaults
 *   when nothing is stored yet);
 * - `POST /api/system/usermsgsetting/saveMySetting` body `{todo?, examine?, notice?, account?}` (a missing key
 *   keeps its value; channels repeated are kept once) → the saved setting; an unknown channel or field is a 400
 *   with the field's message and nothing is stored.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError, ok } from '../../core/envelope.js';
import type { Db } from '../../core/db/index.js';
import type { AuthUser } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { dataFields } from '../../../shared/schema/derive.js';

export const MSG_SETTING_RESOURCE = 'system/usermsgsetting';
/** The channels a notice can take. */
export const CHANNELS = ['site', 'sms', 'email'] as const;
export type Channel = (typeof CHANNELS)[number];

type Row = Record<string, unknown>;

/** Registers getMySetting and saveMySetting (see the module comment). */
export function registerMsgSettingModule(app: FastifyInstance, engine: ResourceEngine): void {
  const resource = () => engine.current(engine.registry.get(MSG_SETTING_RESOURCE));

  /** The caller's stored setting, or the form's defaults. */
  const mine = async (user: AuthUser): Promise<{ stored: Row | null; setting: Row }> => {
    const r = resource();
    const stored = await engine.findOne(r, user, user.userId);
    const setting: Row = { userId: user.userId };
    for (const f of dataFields(r.schema.form)) {
      if (f.name === 'userId') continue;
      setting[f.name] = stored?.[f.name] ?? structuredClone(f.node.default ?? []);
    }
    return { stored, setting };
  };

  app.get('/api/system/usermsgsetting/getMySetting', { schema: { tags: [MSG_SETTING_RESOURCE], summary: 'The caller’s message settings' } }, async (req) => {
    const user = await engine.authorize(req.user, resource(), 'read');
    return ok((await mine(user)).setting, undefined, req.lang);
  });

  app.post('/api/system/usermsgsetting/saveMySetting', { schema: { tags: [MSG_SETTING_RESOURCE], summary: 'Save the caller’s message settings', body: { type: 'object' } } }, async (req) => {
    const user = await engine.authorize(req.user, resource(), 'edit');
    if (!req.body || typeof req.body !== 'object' || Array.isArray(req.body)) throw new ApiError(400, 'bodyNotObject');
    const body: Row = { ...(req.body as Row) };
    for (const [k, v] of Object.entries(body)) if (Array.isArray(v)) body[k] = [...new Set(v)];
    const { setting } = await mine(user);
    // the caller's own row: the key is always the caller, whatever the body says
    const saved = await engine.submit(resource(), user, { ...setting, ...body, userId: user.userId }, req.lang);
    return ok(saved, undefined, req.lang);
  });
}

/**
 * The channels user `userId` of `tenantId` wants notices of kind `kind` (`todo`, `examine`, `notice`,
 * `account`) by: their saved choice, else the schema default. For the message senders.
 */
export async function channelsOf(engine: ResourceEngine, db: Db, tenantId: string, userId: string, kind: string): Promise<Channel[]> {
  const r = engine.current(engine.registry.get(MSG_SETTING_RESOURCE));
  const field = r.byField.get(kind);
  if (!field || field.field === 'userId') return [];
  const rows = await engine.query(`SELECT "${field.column}" AS v FROM blade_user_msg_setting WHERE tenant_id = $1 AND user_id = $2::bigint AND is_deleted = 0`, [tenantId, userId], db);
  const def = dataFields(r.schema.form).find((f) => f.name === kind)?.node.default;
  const v = rows[0]?.v ?? def ?? [];
  return (Array.isArray(v) ? v : []).filter((c): c is Channel => (CHANNELS as readonly string[]).includes(c as string));
}

/**
 * The channels of many users of `tenantId` for notices of kind `kind` at once (one query): user id → their saved
 * choice, else the schema default; an unknown kind gives every user no channel. The system module offers it to
 * the senders of other modules as core/message-channels.ts `messageChannels.ofUsers` (flow's to-dos).
 */
export async function channelsOfUsers(engine: ResourceEngine, db: Db, tenantId: string, userIds: string[], kind: string): Promise<Map<string, Channel[]>> {
  const r = engine.current(engine.registry.get(MSG_SETTING_RESOURCE));
  const field = r.byField.get(kind);
  const out = new Map<string, Channel[]>();
  if (!field || field.field === 'userId') {
    for (const u of userIds) out.set(u, []);
    return out;
  }
  const def = dataFields(r.schema.form).find((f) => f.name === kind)?.node.default ?? [];
  const rows = await engine.query(`SELECT user_id::text AS u, "${field.column}" AS v FROM blade_user_msg_setting WHERE tenant_id = $1 AND user_id = ANY($2::bigint[]) AND is_deleted = 0`, [tenantId, userIds], db);
  const saved = new Map(rows.map((x) => [String(x.u), x.v]));
  const pick = (v: unknown) => (Array.isArray(v) ? v : []).filter((c): c is Channel => (CHANNELS as readonly string[]).includes(c as string));
  for (const u of userIds) out.set(u, pick(saved.get(u) ?? def));
  return out;
}
