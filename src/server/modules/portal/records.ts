/**
 * Journal, CNKI and portal records (spec 001 §7 "/portal/{product}portaljournal, …portalcnki, …portal"; issue
 * 14): for every resource whose schema has `portalRecord` (schemas/portal/journal.json, cnki.json, record.json
 * — no resource is named here), under the schema's `api`:
 *
 * - `POST deleteAll` → the number removed: every record of the caller's tenant (logical delete through the
 *   engine, so hooks and the audit run). Grant: removing the resource.
 * - `POST deleteRuplicate` → the number removed: records equal in every `portalRecord.dedupe` field (trimmed,
 *   case-insensitive) to an older one of the tenant; the oldest of each group stays. Grant: removing.
 * - `POST export-to-portal` body `{ids: [..] (1–1000), channelId}` and `POST export-to-portal-one` body `{id,
 *   channelId}` → `{exported, skipped, contentIds}`: each record not yet exported becomes a draft of
 *   portal/content in the channel (its fields by `portalRecord.toContent`, texts cut to the content field's
 *   maxLength; a plain-text body becomes escaped paragraphs, an empty one a list of the record's fields), through
 *   the engine's submit (validation, sanitising, company, indexing); the record is marked `exported` 1 with its
 *   `contentId`. Records exported before are skipped. Grants: editing the resource and adding portal/content.
 *   Errors (400, nothing stored): no ids 请选择至少一条数据; no channel 请选择发布到的栏目; a channel of no
 *   channel of the tenant 栏目不存在; an id not visible 404.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Resource } from '../../resources/registry.js';
import { Conditions, quote } from '../../resources/query.js';
import { isId } from '../../../shared/contract/ids.js';
import { CONTENT_RESOURCE } from './hooks.js';

type Row = Record<string, any>;

export const M = {
  noneChosen: { zh: '请选择至少一条数据', en: 'Please choose at least one record' },
  noChannel: { zh: '请选择发布到的栏目', en: 'Please choose the channel' },
  channelUnknown: { zh: '栏目不存在', en: 'The channel does not exist' },
  removed: (n: number) => ({ zh: `删除成功，共删除 ${n} 条`, en: `Removed ${n}` }),
  exported: (n: number, k: number) => ({ zh: `已发布到门户 ${n} 条，跳过已发布 ${k} 条`, en: `Sent ${n} to the portal, ${k} sent before skipped` }),
};

const CHUNK = 1000;
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Removes the records `ids` of `r` through the engine, 1,000 at a time; answers the number removed. */
async function removeAll(engine: ResourceEngine, r: Resource, user: AuthUser, ids: string[], lang: 'zh' | 'en'): Promise<number> {
  let n = 0;
  for (let i = 0; i < ids.length; i += CHUNK) n += await engine.remove(r, user, ids.slice(i, i + CHUNK).join(','), lang);
  return n;
}

/** The portal/content body of record `rec` of `r` (see the module comment). */
export function contentOf(r: Resource, content: Resource, rec: Row, channelId: string): Row {
  const spec = r.schema.portalRecord!;
  const body: Row = { channelId };
  for (const [to, from] of Object.entries(spec.toContent)) {
    const target = content.byField.get(to);
    const source = r.fields.find((f) => f.name === from);
    const v = rec[from];
    if (!target || v === null || v === undefined || v === '') continue;
    let text = String(v);
    if (to === 'content' && source?.node['x-component'] !== 'RichText') text = text.split(/\n+/).map((p) => `<p>${esc(p)}</p>`).join('');
    const max = content.fields.find((f) => f.name === to)?.node.maxLength;
    body[to] = typeof max === 'number' ? text.slice(0, max) : text;
  }
  if (!body.content) {
    const items = r.fields
      .filter((f) => f.node.type === 'string' && !f.node['x-server-only'] && rec[f.name])
      .map((f) => `<li>${esc(String(f.node.title ?? f.name))}：${esc(String(rec[f.name]))}</li>`);
    body.content = `<ul>${items.join('')}</ul>`;
  }
  return body;
}

/** Mounts the endpoints of the module comment for every resource with `portalRecord`. */
export function registerRecordRoutes(app: FastifyInstance, d: { db: Db; engine: ResourceEngine }): void {
  const { engine } = d;
  const current = (name: string): Resource => {
    const r = engine.registry.resources.get(name);
    if (!r?.schema.portalRecord) throw new ApiError(404, 'notFound');
    return r;
  };
  /** Keys of the records of `r` the caller sees (tenant, live rows) matching `extra`, oldest first. */
  const keys = async (r: Resource, user: AuthUser, extra?: (c: Conditions) => void): Promise<string[]> => {
    const cond = new Conditions();
    await engine.scope(r, user, cond);
    extra?.(cond);
    const rows = await engine.query<{ k: string }>(`SELECT ${quote(r.keyColumn)}::text AS k FROM ${quote(r.schema.table)} WHERE ${cond.sql()} ORDER BY create_time, ${quote(r.keyColumn)}`, cond.params);
    return rows.map((x) => x.k);
  };

  const exportRecords = async (req: FastifyRequest, r: Resource, ids: string[], channelId: unknown) => {
    const user = await engine.authorize(req.user, r, 'edit');
    const content = engine.registry.resources.get(CONTENT_RESOURCE);
    if (!content) throw new ApiError(404, 'notFound');
    await engine.authorize(user, content, 'add');
    if (!ids.length) throw new ApiError(400, M.noneChosen);
    if (ids.length > CHUNK || ids.some((x) => !isId(x))) throw new ApiError(400, 'badParam', { param: 'ids' });
    if (channelId === undefined || channelId === null || channelId === '') throw new ApiError(400, M.noChannel);
    if (typeof channelId !== 'string' || !isId(channelId)) throw new ApiError(400, 'badParam', { param: 'channelId' });
    const ch = await sql`SELECT 1 FROM portal_channel WHERE id = ${channelId}::bigint AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(d.db);
    if (!ch.rows.length) throw new ApiError(400, M.channelUnknown);
    const recs: Row[] = [];
    for (const id of [...new Set(ids)]) {
      const rec = await engine.findOne(r, user, id);
      if (!rec) throw new ApiError(404, 'notFound');
      recs.push(rec);
    }
    const contentIds: string[] = [];
    let skipped = 0;
    for (const rec of recs) {
      if (Number(rec.exported) === 1) {
        skipped++;
        continue;
      }
      const saved = await engine.submit(content, user, contentOf(r, content, rec, channelId), req.lang);
      await engine.query(
        `UPDATE ${quote(r.schema.table)} SET exported = 1, content_id = $1::bigint, update_time = now(), update_user = $2::bigint WHERE ${quote(r.keyColumn)} = $3::bigint AND tenant_id = $4`,
        [String(saved.id), user.userId, String(rec.id), user.tenantId],
      );
      engine.changed(r.schema.table);
      contentIds.push(String(saved.id));
    }
    return ok({ exported: contentIds.length, skipped, contentIds }, M.exported(contentIds.length, skipped)[req.lang], req.lang);
  };

  for (const res of engine.registry.resources.values()) {
    if (!res.schema.portalRecord) continue;
    const name = res.schema.name;
    const api = res.schema.api;
    const tags = [name];

    app.post(`${api}/deleteAll`, { schema: { tags, summary: `${res.schema.titleEn}: remove every record of the tenant` } }, async (req) => {
      const r = current(name);
      const user = await engine.authorize(req.user, r, 'remove');
      const n = await removeAll(engine, r, user, await keys(r, user), req.lang);
      return ok(n, M.removed(n)[req.lang], req.lang);
    });

    app.post(`${api}/deleteRuplicate`, { schema: { tags, summary: `${res.schema.titleEn}: remove duplicates (the oldest of each group stays)` } }, async (req) => {
      const r = current(name);
      const user = await engine.authorize(req.user, r, 'remove');
      const cols = r.schema.portalRecord!.dedupe.map((f) => r.byField.get(f)).filter((c) => c !== undefined);
      if (!cols.length) throw new ApiError(404, 'notFound');
      const cond = new Conditions();
      await engine.scope(r, user, cond);
      const part = cols.map((c) => `lower(btrim(coalesce(${quote(c.column)}::text, '')))`).join(', ');
      const key = quote(r.keyColumn);
      const dup = await engine.query<{ k: string }>(
        `SELECT k FROM (SELECT ${key}::text AS k, row_number() OVER (PARTITION BY ${part} ORDER BY create_time, ${key}) AS n
           FROM ${quote(r.schema.table)} WHERE ${cond.sql()}) x WHERE n > 1`,
        cond.params,
      );
      const n = await removeAll(engine, r, user, dup.map((x) => x.k), req.lang);
      return ok(n, M.removed(n)[req.lang], req.lang);
    });

    app.post(`${api}/export-to-portal`, { schema: { tags, summary: `${res.schema.titleEn}: copy records into portal content (drafts of a channel)` } }, async (req) => {
      const body = (req.body ?? {}) as Row;
      const q = req.query as Row;
      const raw = body.ids ?? q.ids;
      const ids = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? raw.split(',').map((x) => x.trim()).filter(Boolean) : [];
      return exportRecords(req, current(name), ids, body.channelId ?? q.channelId);
    });

    app.post(`${api}/export-to-portal-one`, { schema: { tags, summary: `${res.schema.titleEn}: copy one record into portal content` } }, async (req) => {
      const body = (req.body ?? {}) as Row;
      const q = req.query as Row;
      const id = body.id ?? q.id;
      return exportRecords(req, current(name), id === undefined || id === null || id === '' ? [] : [String(id)], body.channelId ?? q.channelId);
    });
  }
}
