/**
 * The portal endpoints besides the generic ones (spec 001 §7 "Portal"; issue 14). Every one checks the
 * caller's grant on the server (reading the resource named, 403 otherwise) and reads the caller's tenant only.
 *
 * - `GET /api/portal/content/getMaxCodeOfExt?attr=` → the largest whole-number value of the attribute `attr`
 *   (e.g. tip_code) among the tenant's content, 0 when none: the next code is that + 1.
 * - `GET /api/portal/content/attrValues?attr=&channelId=` → the distinct values of `attr` (at most 500, sorted),
 *   within a channel when given — the filter choices of a channel configured 是否筛选 (3).
 * - `GET /api/portal/content/generateShareQrCode?id=&siteId=` → `{url, qrCode}`: the public page of a released
 *   content on a site showing its channel (the one named, else the first enabled one) and a PNG data URL of
 *   its QR code (qrcode) — on the site's `domain` when it has one, else on the host asked; unreleased content is 400 内容未发布，不能分享, no such site 400 请先配置包含该栏目的门户站点.
 * - `GET /api/portal/channel/listNoPage` → every channel of the tenant (sorted); `GET
 *   /api/portal/channel/getAllChildrenTree?channelId=` → the channel and all below it as a nested tree.
 * - `GET /api/portal/model/listByIds?ids=a,b` → those models; `GET /api/portal/model/options` → models as nodes.
 * - `GET /api/portal/contentcomment/customList?contentId=&current=&size=` → the comments of one content
 *   (newest first) as a page.
 * - `POST /api/portal/contentcomment/moderate` body `{ids: [..] | 'a,b', auditStatus: 0 | 1 | 2}` → the number of
 *   comments set to 待审核 / 已通过 / 已屏蔽 (moderation; through the engine's submit, so the audit runs). Grant:
 *   editing comments; 400 请选择至少一条数据 without ids, badParam for another status; an id not seen 404.
 * - `GET /api/portal/access/getDashboard?days=30` → the public pages' visits (access statistics, menu
 *   portal_access): `{total, days: [{day, visits}], channels: [{channelId, title, visits}], contents:
 *   [{contentId, title, visits}], referrers: [{referrer, visits}]}` over the last `days` (1–366) days.
 */
import { loadQRCode } from '../../core/lazy-libs.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { GrantCache } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Resource } from '../../resources/registry.js';
import { isId } from '../../../shared/contract/ids.js';
import { CONTENT_RESOURCE, RELEASED } from './hooks.js';

type Row = Record<string, any>;

export const M = {
  notReleased: { zh: '内容未发布，不能分享', en: 'The content is not released and cannot be shared' },
  noSite: { zh: '请先配置包含该栏目的门户站点', en: 'Configure a portal site showing the channel first' },
  noGrant: { zh: '没有访问统计的权限', en: 'No access to the access statistics' },
  noneChosen: { zh: '请选择至少一条数据', en: 'Please choose at least one record' },
  moderated: (n: number) => ({ zh: `已处理 ${n} 条评论`, en: `${n} comments moderated` }),
};

const ATTR_RE = /^[a-zA-Z][a-zA-Z0-9_]{0,49}$/;

function q(req: FastifyRequest, name: string, required = true): string {
  const v = (req.query as Row)[name];
  if (v === undefined || v === '') {
    if (required) throw new ApiError(400, 'missingParam', { param: name });
    return '';
  }
  if (typeof v !== 'string' || v.length > 200 || v.includes('\u0000')) throw new ApiError(400, 'badParam', { param: name });
  return v;
}

function idq(req: FastifyRequest, name: string, required = true): string {
  const v = q(req, name, required);
  if (v && !isId(v)) throw new ApiError(400, 'badParam', { param: name });
  return v;
}

const ATTRS = sql`jsonb_array_elements(CASE WHEN jsonb_typeof(attrs::jsonb) = 'array' THEN attrs::jsonb ELSE '[]'::jsonb END)`;

/** Mounts the endpoints of the module comment. */
export function registerPortalRoutes(app: FastifyInstance, d: { db: Db; engine: ResourceEngine; grants: GrantCache }): void {
  const { db, engine } = d;
  const tags = ['portal'];
  const res = (name: string): Resource => {
    const r = engine.registry.resources.get(name);
    if (!r) throw new ApiError(404, 'notFound');
    return r;
  };
  const attrParam = (req: FastifyRequest) => {
    const a = q(req, 'attr');
    if (!ATTR_RE.test(a)) throw new ApiError(400, 'badParam', { param: 'attr' });
    return a;
  };

  app.get('/api/portal/content/getMaxCodeOfExt', { schema: { tags, summary: 'Content: the largest number of an attribute (next code = +1)' } }, async (req) => {
    const user = await engine.authorize(req.user, res(CONTENT_RESOURCE), 'read');
    const attr = attrParam(req);
    const r = await sql<{ m: string | null }>`SELECT max((a->>'val')::numeric)::text AS m FROM portal_content, ${ATTRS} a
        WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND a->>'attr' = ${attr} AND a->>'val' ~ '^[0-9]{1,15}$'`.execute(db);
    return ok(Number(r.rows[0]?.m ?? 0), undefined, req.lang);
  });

  app.get('/api/portal/content/attrValues', { schema: { tags, summary: 'Content: the distinct values of an attribute' } }, async (req) => {
    const user = await engine.authorize(req.user, res(CONTENT_RESOURCE), 'read');
    const attr = attrParam(req);
    const channelId = idq(req, 'channelId', false);
    const r = await sql<{ v: string }>`SELECT DISTINCT a->>'val' AS v FROM portal_content, ${ATTRS} a
        WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND a->>'attr' = ${attr} AND coalesce(a->>'val', '') <> ''
          ${channelId ? sql`AND channel_id = ${channelId}::bigint` : sql``} ORDER BY 1 LIMIT 500`.execute(db);
    return ok(r.rows.map((x) => x.v), undefined, req.lang);
  });

  app.get('/api/portal/content/generateShareQrCode', { schema: { tags, summary: 'Content: the public link of a released content and its QR code' } }, async (req) => {
    const r = res(CONTENT_RESOURCE);
    const user = await engine.authorize(req.user, r, 'read');
    const content = await engine.findOne(r, user, idq(req, 'id'));
    if (!content) throw new ApiError(404, 'notFound');
    if (String(content.contentStatus) !== RELEASED) throw new ApiError(400, M.notReleased);
    const siteId = idq(req, 'siteId', false);
    const site = await sql<{ id: string; domain: string | null }>`SELECT id::text AS id, domain FROM portal_site WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND enabled = true
        AND channel_ids::jsonb ? ${String(content.channelId)} ${siteId ? sql`AND id = ${siteId}::bigint` : sql``} ORDER BY id LIMIT 1`.execute(db);
    if (!site.rows[0]) throw new ApiError(400, M.noSite);
    const host = site.rows[0].domain || String(req.headers['x-forwarded-host'] ?? req.headers.host ?? 'localhost').split(',')[0].trim();
    const proto = String(req.headers['x-forwarded-proto'] ?? req.protocol ?? 'http').split(',')[0].trim();
    const url = `${proto}://${host}/site/${site.rows[0].id}/article/${content.id}`;
    return ok({ url, qrCode: await (await loadQRCode()).toDataURL(url, { errorCorrectionLevel: 'M', margin: 2, width: 256 }) }, undefined, req.lang);
  });

  app.get('/api/portal/channel/listNoPage', { schema: { tags, summary: 'Channels: all, without paging' } }, async (req) => {
    const r = res('portal/channel');
    const user = await engine.authorize(req.user, r, 'read');
    return ok(await engine.select(r, user, { ascs: 'sort' }), undefined, req.lang);
  });

  app.get('/api/portal/channel/getAllChildrenTree', { schema: { tags, summary: 'Channels: a channel and everything below it' } }, async (req) => {
    const r = res('portal/channel');
    const user = await engine.authorize(req.user, r, 'read');
    const channelId = idq(req, 'channelId');
    const find = (nodes: Row[]): Row | null => {
      for (const n of nodes) {
        if (n.id === channelId) return n;
        const hit = find(n.children ?? []);
        if (hit) return hit;
      }
      return null;
    };
    const node = find(await engine.tree(r, user, {}, false));
    if (!node) throw new ApiError(404, 'notFound');
    return ok([node], undefined, req.lang);
  });

  app.get('/api/portal/model/listByIds', { schema: { tags, summary: 'Content models: those named' } }, async (req) => {
    const r = res('portal/model');
    const user = await engine.authorize(req.user, r, 'read');
    const ids = q(req, 'ids').split(',').map((x) => x.trim()).filter(Boolean);
    if (ids.length > 100 || ids.some((x) => !isId(x))) throw new ApiError(400, 'badParam', { param: 'ids' });
    const rows = await engine.select(r, user, {});
    return ok(rows.filter((m) => ids.includes(String(m.id))), undefined, req.lang);
  });

  app.get('/api/portal/model/options', { schema: { tags, summary: 'Content models: as options' } }, async (req) => {
    const r = res('portal/model');
    const user = await engine.authorize(req.user, r, 'read');
    return ok((await engine.select(r, user, {})).map((m) => ({ id: m.id, key: m.id, value: m.id, title: m.name })), undefined, req.lang);
  });

  app.get('/api/portal/contentcomment/customList', { schema: { tags, summary: 'Comments: those of one content, newest first' } }, async (req) => {
    const r = res('portal/contentcomment');
    const user = await engine.authorize(req.user, r, 'read');
    const contentId = idq(req, 'contentId');
    const { current, size, ...rest } = req.query as Row;
    return ok(await engine.page(r, user, { current, size, contentId, descs: 'createTime', ...(rest.auditStatus !== undefined ? { auditStatus: rest.auditStatus } : {}) }), undefined, req.lang);
  });

  app.post('/api/portal/contentcomment/moderate', { schema: { tags, summary: 'Comments: approve, hide or reopen the chosen ones' } }, async (req) => {
    const r = res('portal/contentcomment');
    const user = await engine.authorize(req.user, r, 'edit');
    const body = (req.body ?? {}) as Row;
    const raw = body.ids;
    const ids = [...new Set((Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? raw.split(',') : []).map((x) => x.trim()).filter(Boolean))];
    if (!ids.length) throw new ApiError(400, M.noneChosen);
    if (ids.length > 1000 || ids.some((x) => !isId(x))) throw new ApiError(400, 'badParam', { param: 'ids' });
    const status = Number(body.auditStatus);
    if (![0, 1, 2].includes(status) || String(body.auditStatus ?? '').trim() === '') throw new ApiError(400, 'badParam', { param: 'auditStatus' });
    for (const id of ids) if (!(await engine.findOne(r, user, id))) throw new ApiError(404, 'notFound');
    for (const id of ids) await engine.submit(r, user, { id, auditStatus: status }, req.lang);
    return ok(ids.length, M.moderated(ids.length)[req.lang], req.lang);
  });

  app.get('/api/portal/access/getDashboard', { schema: { tags, summary: 'Access statistics: visits per day, channel, content and referrer' } }, async (req) => {
    const user = req.user;
    if (!user) throw new ApiError(401, 'unauthorized');
    if (!user.isAdmin && !(await d.grants.hasCode(user.activeRoleIds, 'portal_access'))) throw new ApiError(403, 'forbidden');
    const raw = q(req, 'days', false) || '30';
    if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > 366) throw new ApiError(400, 'badParam', { param: 'days' });
    const since = sql`current_date - ${Number(raw) - 1}::int`;
    const t = user.tenantId;
    const [total, days, channels, contents, referrers] = await Promise.all([
      sql<{ n: number }>`SELECT count(*)::int AS n FROM portal_access WHERE tenant_id = ${t} AND day >= ${since}`.execute(db),
      sql<Row>`SELECT to_char(day, 'YYYY-MM-DD') AS day, count(*)::int AS visits FROM portal_access WHERE tenant_id = ${t} AND day >= ${since} GROUP BY day ORDER BY day`.execute(db),
      sql<Row>`SELECT a.channel_id::text AS "channelId", coalesce(c.title, '') AS title, count(*)::int AS visits FROM portal_access a
          LEFT JOIN portal_channel c ON c.id = a.channel_id AND c.tenant_id = a.tenant_id
          WHERE a.tenant_id = ${t} AND a.day >= ${since} AND a.channel_id IS NOT NULL GROUP BY 1, 2 ORDER BY visits DESC LIMIT 20`.execute(db),
      sql<Row>`SELECT a.content_id::text AS "contentId", coalesce(c.title, '') AS title, count(*)::int AS visits FROM portal_access a
          LEFT JOIN portal_content c ON c.id = a.content_id AND c.tenant_id = a.tenant_id
          WHERE a.tenant_id = ${t} AND a.day >= ${since} AND a.content_id IS NOT NULL GROUP BY 1, 2 ORDER BY visits DESC LIMIT 20`.execute(db),
      sql<Row>`SELECT referrer, count(*)::int AS visits FROM portal_access WHERE tenant_id = ${t} AND day >= ${since} GROUP BY referrer ORDER BY visits DESC LIMIT 20`.execute(db),
    ]);
    return ok({ total: total.rows[0].n, days: days.rows, channels: channels.rows, contents: contents.rows, referrers: referrers.rows }, undefined, req.lang);
  });
}
