/**
 * Version history (spec 000 §2.5 'the sidebar shows the current version number (from a version call)', §2.8,
 * §3.4 Version, §7 Version: `/api/basic/version` list (size 500), detail, submit, startVersion, selectVersion;
 * spec 001 §7; issue 9). The versions are the generic resource `basic/version` (schemas/basic/version.json):
 * platform data (one history for every tenant, written by administrators of 000000 only — it describes the
 * software, which all tenants share), readable by every signed-in user (the version drawer), audited, listed
 * newest first (by `versionCode`).
 *
 * A version: `product` (which client it describes: `kechuang` is the web client, others e.g. `app`),
 * `mainVersion`, `sonVersion`, `stageVersion` (0–999 each), `time` (release date), `description` (the
 * changelog). Set by the server on every save: `versionName` `V{main.son.stage}` and `versionCode`
 * (main × 1,000,000 + son × 1,000 + stage, the order of the list). A product cannot have the same number
 * twice (400 该产品已有此版本号).
 *
 * What the two calls mean (decision; the spec names them only):
 * - `POST /api/basic/version/startVersion?id=` — *start* (publish) a version: it becomes the product's
 *   current version (`isCurrent`, `startTime` now); the product's other versions stop being current. The
 *   sidebar and the 'version info' dialog then show it. Platform administrators only (the add / edit grant
 *   of the menu `version`); audited (`basic/version:start`).
 * - `GET|POST /api/basic/version/selectVersion?product=` — *select* the version to show: the product's
 *   current (started) version, or, when none was started, its newest; `product` defaults to `kechuang`.
 *   Answers the record plus `heading` in the caller's language — `版本 V1.2.0 [2025-06-01]` /
 *   `Version V1.2.0 [2025-06-01]` (spec 000 §2.8) — or null when the product has no version. Any signed-in
 *   user.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from '../../core/db/index.js';
import { ApiError, ValidationError, ok } from '../../core/envelope.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { writeAudit } from '../../resources/audit.js';
import { isId } from '../../../shared/contract/ids.js';
import type { Lang } from '../../../shared/i18n/messages.js';

export const VERSION_RESOURCE = 'basic/version';
/** The product a version call means when it names none (the web client). */
export const DEFAULT_PRODUCT = 'kechuang';

const M = {
  duplicate: { zh: '该产品已有此版本号', en: 'This product already has this version number' },
};

type Row = Record<string, unknown>;

/** `V{main.son.stage}` of a version record. */
export const versionName = (v: Row) => `V${Number(v.mainVersion)}.${Number(v.sonVersion)}.${Number(v.stageVersion)}`;

/** The heading of spec 000 §2.8: 'Version V{main.son.stage} [date]' (zh 版本 …). */
export function versionHeading(v: Row, lang: Lang): string {
  return `${lang === 'en' ? 'Version' : '版本'} ${versionName(v)} [${String(v.time ?? '')}]`;
}

/** Registers the version hooks and calls of the module comment. */
export function registerVersionModule(app: FastifyInstance, engine: ResourceEngine): void {
  const resource = () => engine.registry.get(VERSION_RESOURCE);

  engine.hooks(VERSION_RESOURCE, {
    async beforeSubmit({ record, existing, trx }) {
      record.versionName = versionName(record);
      record.versionCode = Number(record.mainVersion) * 1_000_000 + Number(record.sonVersion) * 1_000 + Number(record.stageVersion);
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`basic_version:${String(record.product)}`}))`.execute(trx);
      const dup = await sql`SELECT 1 FROM basic_version WHERE product = ${String(record.product)} AND version_code = ${record.versionCode as number}
                              AND is_deleted = 0 AND id <> ${existing ? String(existing.id) : '0'}::bigint LIMIT 1`.execute(trx);
      if (dup.rows.length) throw new ValidationError([{ field: 'stageVersion', message: M.duplicate.zh, messageEn: M.duplicate.en }]);
    },
  });

  app.post('/api/basic/version/startVersion', { schema: { tags: [VERSION_RESOURCE], summary: 'Make a version the current one of its product' } }, async (req) => {
    const r = resource();
    const user = await engine.authorize(req.user, r, 'edit');
    const p = { ...((req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {}) as Row), ...((req.query ?? {}) as Row) };
    const id = p.id;
    if (id === undefined || id === '') throw new ApiError(400, 'missingParam', { param: 'id' });
    if ((typeof id !== 'string' && typeof id !== 'number') || !isId(String(id))) throw new ApiError(400, 'badParam', { param: 'id' });
    const saved = await engine.db.transaction().execute(async (trx) => {
      const cur = await sql<{ product: string }>`SELECT product FROM basic_version WHERE id = ${String(id)}::bigint AND is_deleted = 0 FOR UPDATE`.execute(trx);
      if (!cur.rows[0]) throw new ApiError(404, 'notFound');
      const product = cur.rows[0].product;
      await sql`UPDATE basic_version SET is_current = false, update_user = ${user.userId}::bigint, update_time = now()
                 WHERE product = ${product} AND is_current AND id <> ${String(id)}::bigint AND is_deleted = 0`.execute(trx);
      await sql`UPDATE basic_version SET is_current = true, start_time = now(), update_user = ${user.userId}::bigint, update_time = now()
                 WHERE id = ${String(id)}::bigint`.execute(trx);
      await writeAudit(trx, user, { resource: VERSION_RESOURCE, title: r.schema.title, titleEn: r.schema.titleEn, action: 'start', ids: [String(id)], detail: { product }, requestUri: req.url.split('?')[0] }, req);
      return engine.findOne(r, user, String(id), trx);
    });
    engine.changed('basic_version');
    return ok(saved, undefined, req.lang);
  });

  const select = async (req: FastifyRequest) => {
    const r = resource();
    const user = await engine.authorize(req.user, r, 'read');
    const p = { ...((req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {}) as Row), ...((req.query ?? {}) as Row) };
    const product = p.product === undefined || p.product === '' ? DEFAULT_PRODUCT : p.product;
    if (typeof product !== 'string' || !/^[A-Za-z0-9_-]{1,50}$/.test(product)) throw new ApiError(400, 'badParam', { param: 'product' });
    const found = await sql<{ id: string }>`SELECT id::text AS id FROM basic_version WHERE product = ${product} AND is_deleted = 0
                                               ORDER BY is_current DESC, version_code DESC, id DESC LIMIT 1`.execute(engine.db);
    if (!found.rows[0]) return ok(null, undefined, req.lang);
    const rec = await engine.findOne(r, user, found.rows[0].id);
    return ok(rec ? { ...rec, heading: versionHeading(rec, req.lang) } : null, undefined, req.lang);
  };
  const summary = 'The version to show: the product’s current one, else its newest';
  app.get('/api/basic/version/selectVersion', { schema: { tags: [VERSION_RESOURCE], summary } }, select);
  app.post('/api/basic/version/selectVersion', { schema: { tags: [VERSION_RESOURCE], summary } }, select);
}
