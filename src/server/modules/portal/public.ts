/**
 * The public portal (issue 14 "The public portal"): real HTML pages served without login for the sites of
 * `portal/site`, showing released content only (`contentStatus` 4), each page view counted in portal_access.
 *
 * - `GET /site/:siteId` — the site's channels and its newest released content;
 * - `GET /site/:siteId/channel/:channelId?page=&kw=&year=` — a channel of the site: its released content (its
 *   own and that pushed to it), pinned first, newest first, 20 a page. The channel's configuration (hooks.ts
 *   `CHANNEL_CONFIG`) decides: without 列表页 there is no list — the address opens the channel's newest
 *   released content (a single-page channel such as 关于我们), or the not-found page while it has none; with
 *   是否筛选 the list has a filter, a title keyword `kw` (at most 50 characters) and a release year `year`
 *   (the years the channel has), kept by the pager (without it both are ignored);
 * - `GET /site/:siteId/article/:id` — one released content of the site's tenant: title, author, source, time,
 *   the body (sanitised when stored, and again here), attachments, approved comments; its `visits` + 1;
 * - `GET /site/:siteId/search?q=&page=` — the search box: the public search of the search module
 *   (`/api/es/public/search`, released content of the tenant, ranked and highlighted);
 * - `GET /site/assets/site.css` — the pages' style sheet (no inline script anywhere: the CSP stays on).
 *
 * - `GET /` on the host named by a site's `domain` (spec 002 portal/site) — a redirect to that site's home;
 * - `POST /site/:siteId/article/:id/comment` — a visitor's comment, shown once approved (public-comments.ts);
 * - `GET /site/:siteId/article/:id/file/…` — the content's files (public-files.ts; their links on these pages
 *   are rewritten to it, as the stored-file links answer signed-in users only).
 *
 * A site that does not exist, is removed or disabled, and content that is not released, removed or of another
 * tenant are 404 pages. Texts are Chinese, or English with `?lang=en` or an English Accept-Language.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { isId } from '../../../shared/contract/ids.js';
import { CHANNEL_CONFIG, channelHas, RELEASED, sanitizeRichText } from './hooks.js';
import { publicLinks } from './public-files.js';
import { commentForm } from './public-comments.js';

type Row = Record<string, any>;
type Lang = 'zh' | 'en';

const T = {
  home: { zh: '首页', en: 'Home' },
  search: { zh: '搜索', en: 'Search' },
  searchHint: { zh: '搜索站内内容', en: 'Search this site' },
  latest: { zh: '最新内容', en: 'Latest' },
  none: { zh: '暂无内容', en: 'Nothing yet' },
  notFound: { zh: '页面不存在或内容未发布', en: 'The page does not exist or is not published' },
  author: { zh: '作者', en: 'Author' },
  source: { zh: '来源', en: 'Source' },
  released: { zh: '发布时间', en: 'Released' },
  files: { zh: '附件', en: 'Attachments' },
  comments: { zh: '评论', en: 'Comments' },
  results: { zh: '搜索结果', en: 'Results' },
  found: { zh: '共找到 {n} 条', en: '{n} found' },
  /** The search stopped counting at its window (search.ts CANDIDATES): more matched. */
  foundMore: { zh: '找到超过 {n} 条', en: 'More than {n} found' },
  prev: { zh: '上一页', en: 'Previous' },
  next: { zh: '下一页', en: 'Next' },
  keyword: { zh: '标题关键词', en: 'Title keyword' },
  year: { zh: '发布年份', en: 'Year' },
  allYears: { zh: '全部年份', en: 'All years' },
  filter: { zh: '筛选', en: 'Filter' },
};

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** Highlights from the search keep only <em> … </em>; everything else is escaped. */
const highlight = (s: string) => esc(s).replace(/&lt;(\/?)em&gt;/g, '<$1em>');

const CSS = `body{margin:0;font-family:-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;color:#222;background:#f5f6f8}
header{background:#1f4e8c;color:#fff;padding:16px 32px}header a{color:#fff;text-decoration:none}header h1{margin:0;font-size:22px}
nav{background:#fff;border-bottom:1px solid #e5e6eb;padding:8px 32px}nav a{margin-right:20px;color:#1f4e8c;text-decoration:none}
main{max-width:960px;margin:24px auto;background:#fff;padding:24px 32px;border-radius:4px}
form.search{display:inline-block;float:right}form.search input{padding:4px 8px}ul.list{list-style:none;padding:0}
ul.list li{padding:10px 0;border-bottom:1px dashed #e5e6eb}ul.list time{float:right;color:#888;font-size:13px}
.meta{color:#888;font-size:13px;margin-bottom:16px}.meta span{margin-right:16px}article img{max-width:100%}
em{color:#c0392b;font-style:normal}form.comment label{display:block;margin:8px 0}form.comment input,form.comment textarea{width:100%;box-sizing:border-box}.notice.ok{color:#2e7d32}.notice.bad{color:#c0392b}img.banner{width:100%;max-height:240px;object-fit:cover;margin-bottom:16px}img.cover{width:96px;height:64px;object-fit:cover;float:left;margin-right:12px}ul.list li:after{content:"";display:block;clear:both}.hl{color:#555;font-size:14px}.pager a{margin-right:12px}
form.filter{margin:8px 0 4px}form.filter input,form.filter select{padding:4px 8px;margin-right:8px}
body.theme-green header{background:#2e7d32}body.theme-blue header{background:#1565c0}`;

/** Mounts the pages of the module comment; answers `domainsChanged()`, to call after a site is written. */
export function registerPublicPages(app: FastifyInstance, db: Db): { domainsChanged(): void } {
  // a site's domain: that host's root is the site's home (the domains of live sites, kept 30 s per node)
  let domains = { at: 0, map: new Map<string, string>() };
  const siteOfHost = async (host: string): Promise<string | undefined> => {
    if (Date.now() - domains.at > 30_000) {
      const r = await sql<{ id: string; domain: string }>`SELECT id::text AS id, lower(domain) AS domain FROM portal_site
          WHERE is_deleted = 0 AND enabled = true AND coalesce(domain, '') <> '' ORDER BY id`.execute(db);
      const map = new Map<string, string>();
      for (const x of r.rows) if (!map.has(x.domain)) map.set(x.domain, x.id);
      domains = { at: Date.now(), map };
    }
    return domains.map.get(host) ?? domains.map.get(host.replace(/:\d+$/, ''));
  };
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET' || (req.url !== '/' && !req.url.startsWith('/?'))) return;
    const host = String(req.headers.host ?? '').trim().toLowerCase();
    const id = host ? await siteOfHost(host) : undefined;
    if (id) return reply.redirect(`/site/${id}`);
  });

  const langOf = (req: FastifyRequest): Lang => {
    const l = (req.query as Row).lang;
    if (l === 'en' || l === 'zh') return l;
    return String(req.headers['accept-language'] ?? '').toLowerCase().startsWith('en') ? 'en' : 'zh';
  };

  const site = async (siteId: string): Promise<Row | null> => {
    if (!isId(siteId)) return null;
    const r = await sql<Row>`SELECT id::text AS id, tenant_id, title, theme, channel_ids, description FROM portal_site WHERE id = ${siteId}::bigint AND is_deleted = 0 AND enabled = true`.execute(db);
    return r.rows[0] ?? null;
  };

  const channelsOf = async (s: Row): Promise<Row[]> => {
    const ids = (Array.isArray(s.channel_ids) ? s.channel_ids : []).map(String).filter(isId);
    const r = await sql<Row>`SELECT id::text AS id, title, configuration FROM portal_channel WHERE tenant_id = ${s.tenant_id} AND is_deleted = 0 AND id = ANY(${ids}::bigint[]) ORDER BY sort, id`.execute(db);
    return r.rows;
  };

  const count = (req: FastifyRequest, s: Row, page: string, channelId: string | null, contentId: string | null) => {
    let referrer = '';
    try {
      const ref = req.headers.referer ? new URL(String(req.headers.referer)) : null;
      if (ref && ref.host !== req.headers.host) referrer = ref.host.slice(0, 200);
    } catch {
      referrer = '';
    }
    return sql`INSERT INTO portal_access (tenant_id, site_id, page, channel_id, content_id, referrer) VALUES (${s.tenant_id}, ${s.id}::bigint, ${page},
        ${channelId}::bigint, ${contentId}::bigint, ${referrer})`.execute(db);
  };

  const page = async (reply: FastifyReply, lang: Lang, s: Row | null, title: string, body: string, status = 200) => {
    const nav = s ? (await channelsOf(s)).map((c) => `<a href="/site/${s.id}/channel/${c.id}">${esc(c.title)}</a>`).join('') : '';
    const head = s
      ? `<header><form class="search" action="/site/${s.id}/search" method="get"><input name="q" placeholder="${esc(T.searchHint[lang])}" maxlength="100"><button type="submit">${T.search[lang]}</button></form><h1><a href="/site/${s.id}">${esc(s.title)}</a></h1></header><nav><a href="/site/${s.id}">${T.home[lang]}</a>${nav}</nav>`
      : '';
    const html = `<!doctype html><html lang="${lang === 'zh' ? 'zh-CN' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><link rel="stylesheet" href="/site/assets/site.css"></head><body class="theme-${esc(s?.theme ?? 'default')}">${head}<main>${body}</main></body></html>`;
    return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  };
  const notFound = (reply: FastifyReply, lang: Lang, s: Row | null) => page(reply, lang, s, T.notFound[lang], `<p>${T.notFound[lang]}</p>`, 404);

  const listItems = (s: Row, rows: Row[], lang: Lang) =>
    rows.length
      ? `<ul class="list">${rows.map((c) => `<li>${typeof c.cover === 'string' && c.cover.startsWith('/') ? `<img class="cover" src="${esc(publicLinks(c.cover, s.id, c.id))}" alt="">` : ''}<a href="/site/${s.id}/article/${c.id}">${esc(c.title)}</a><time>${esc(c.day ?? '')}</time></li>`).join('')}</ul>`
      : `<p>${T.none[lang]}</p>`;
  const pageNo = (req: FastifyRequest) => {
    const p = String((req.query as Row).page ?? '1');
    return /^\d{1,5}$/.test(p) && Number(p) >= 1 ? Number(p) : 1;
  };

  app.get('/site/assets/site.css', { schema: { hide: true } }, async (_req, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=300').send(CSS));

  app.get<{ Params: { siteId: string } }>('/site/:siteId', { schema: { hide: true } }, async (req, reply) => {
    const lang = langOf(req);
    const s = await site(req.params.siteId);
    if (!s) return notFound(reply, lang, null);
    const ids = (await channelsOf(s)).map((c) => c.id);
    const rows = await sql<Row>`SELECT id::text AS id, title, cover_image AS cover, to_char(release_time, 'YYYY-MM-DD') AS day FROM portal_content
        WHERE tenant_id = ${s.tenant_id} AND is_deleted = 0 AND content_status = ${RELEASED} AND channel_id = ANY(${ids}::bigint[])
        ORDER BY is_top DESC NULLS LAST, release_time DESC NULLS LAST, id DESC LIMIT 20`.execute(db);
    await count(req, s, 'home', null, null);
    return page(reply, lang, s, s.title, `<h2>${T.latest[lang]}</h2>${listItems(s, rows.rows, lang)}${s.description ? `<p>${esc(s.description)}</p>` : ''}`);
  });

  app.get<{ Params: { siteId: string; channelId: string } }>('/site/:siteId/channel/:channelId', { schema: { hide: true } }, async (req, reply) => {
    const lang = langOf(req);
    const s = await site(req.params.siteId);
    const channel = s ? (await channelsOf(s)).find((c) => c.id === req.params.channelId) : undefined;
    if (!s || !channel) return notFound(reply, lang, s);
    const inChannel = sql`tenant_id = ${s.tenant_id} AND is_deleted = 0 AND content_status = ${RELEASED} AND (channel_id = ${channel.id}::bigint OR push_channel::jsonb ? ${channel.id})`;
    if (!channelHas(channel.configuration, CHANNEL_CONFIG.listPage)) {
      // a single-page channel: its newest released content
      const one = await sql<{ id: string }>`SELECT id::text AS id FROM portal_content WHERE ${inChannel}
          ORDER BY is_top DESC NULLS LAST, release_time DESC NULLS LAST, id DESC LIMIT 1`.execute(db);
      if (!one.rows[0]) return notFound(reply, lang, s);
      return reply.redirect(`/site/${s.id}/article/${one.rows[0].id}`);
    }
    const p = pageNo(req);
    const q = req.query as Row;
    const filtered = channelHas(channel.configuration, CHANNEL_CONFIG.filter);
    const kw = filtered ? String(q.kw ?? '').trim().slice(0, 50) : '';
    const year = filtered && /^\d{4}$/.test(String(q.year ?? '')) ? Number(q.year) : null;
    const like = `%${kw.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await sql<Row>`SELECT id::text AS id, title, cover_image AS cover, to_char(release_time, 'YYYY-MM-DD') AS day FROM portal_content
        WHERE ${inChannel}${kw ? sql` AND title ILIKE ${like}` : sql``}${year ? sql` AND extract(year FROM release_time) = ${year}` : sql``}
        ORDER BY is_top DESC NULLS LAST, release_time DESC NULLS LAST, id DESC LIMIT 21 OFFSET ${(p - 1) * 20}`.execute(db);
    await count(req, s, 'channel', channel.id, null);
    const more = rows.rows.length > 20;
    const keep = (n: number) => `?${new URLSearchParams({ ...(kw ? { kw } : {}), ...(year ? { year: String(year) } : {}), page: String(n) })}`;
    const pager = `<p class="pager">${p > 1 ? `<a href="${esc(keep(p - 1))}">${T.prev[lang]}</a>` : ''}${more ? `<a href="${esc(keep(p + 1))}">${T.next[lang]}</a>` : ''}</p>`;
    let filter = '';
    if (filtered) {
      const years = await sql<{ y: number }>`SELECT DISTINCT extract(year FROM release_time)::int AS y FROM portal_content WHERE ${inChannel} AND release_time IS NOT NULL ORDER BY y DESC LIMIT 50`.execute(db);
      const options = [`<option value="">${T.allYears[lang]}</option>`, ...years.rows.map((r) => `<option value="${r.y}"${r.y === year ? ' selected' : ''}>${r.y}</option>`)].join('');
      filter = `<form class="filter" method="get"><input name="kw" value="${esc(kw)}" placeholder="${T.keyword[lang]}" maxlength="50" aria-label="${T.keyword[lang]}"><select name="year" aria-label="${T.year[lang]}">${options}</select><button type="submit">${T.filter[lang]}</button></form>`;
    }
    return page(reply, lang, s, `${channel.title} - ${s.title}`, `<h2>${esc(channel.title)}</h2>${filter}${listItems(s, rows.rows.slice(0, 20), lang)}${pager}`);
  });

  app.get<{ Params: { siteId: string; id: string } }>('/site/:siteId/article/:id', { schema: { hide: true } }, async (req, reply) => {
    const lang = langOf(req);
    const s = await site(req.params.siteId);
    if (!s || !isId(req.params.id)) return notFound(reply, lang, s);
    const r = await sql<Row>`UPDATE portal_content SET visits = coalesce(visits, 0) + 1
        WHERE id = ${req.params.id}::bigint AND tenant_id = ${s.tenant_id} AND is_deleted = 0 AND content_status = ${RELEASED}
        RETURNING id::text AS id, channel_id::text AS channel_id, title, author, source, content, files, banner, to_char(release_time, 'YYYY-MM-DD HH24:MI') AS at`.execute(db);
    const c = r.rows[0];
    if (!c) return notFound(reply, lang, s);
    await count(req, s, 'article', c.channel_id, c.id);
    const comments = await sql<Row>`SELECT nickname, comment, to_char(create_time, 'YYYY-MM-DD HH24:MI') AS at FROM portal_content_comment
        WHERE tenant_id = ${s.tenant_id} AND is_deleted = 0 AND content_id = ${c.id}::bigint AND audit_status = 1 ORDER BY create_time DESC LIMIT 100`.execute(db);
    const files = (Array.isArray(c.files) ? c.files : []).filter((f: Row) => typeof f?.link === 'string' && f.link.startsWith('/'));
    const link = (x: string) => publicLinks(x, s.id, c.id);
    const banner = typeof c.banner === 'string' && (c.banner.startsWith('/') || /^https?:\/\//.test(c.banner)) ? `<img class="banner" src="${esc(link(c.banner))}" alt="">` : '';
    const meta = [c.author && `<span>${T.author[lang]}：${esc(c.author)}</span>`, c.source && `<span>${T.source[lang]}：${esc(c.source)}</span>`, c.at && `<span>${T.released[lang]}：${esc(c.at)}</span>`].filter(Boolean).join('');
    const body = `<article>${banner}<h2>${esc(c.title)}</h2><div class="meta">${meta}</div><div class="body">${link(sanitizeRichText(String(c.content ?? '')))}</div>
      ${files.length ? `<h3>${T.files[lang]}</h3><ul>${files.map((f: Row) => `<li><a href="${esc(link(f.link))}">${esc(f.originalName ?? f.name ?? f.link)}</a></li>`).join('')}</ul>` : ''}
      ${comments.rows.length ? `<h3>${T.comments[lang]}</h3><ul class="list">${comments.rows.map((x) => `<li><b>${esc(x.nickname)}</b>：${esc(x.comment)}<time>${esc(x.at)}</time></li>`).join('')}</ul>` : ''}
      ${commentForm(s.id, c.id, lang, (req.query as Row).comment)}</article>`;
    return page(reply, lang, s, `${c.title} - ${s.title}`, body);
  });

  app.get<{ Params: { siteId: string } }>('/site/:siteId/search', { schema: { hide: true } }, async (req, reply) => {
    const lang = langOf(req);
    const s = await site(req.params.siteId);
    if (!s) return notFound(reply, lang, null);
    const keyword = String((req.query as Row).q ?? '').slice(0, 100).split(String.fromCharCode(0)).join('');
    const p = pageNo(req);
    const res = await app.inject({
      method: 'GET',
      url: `/api/es/public/search?${new URLSearchParams({ tenantId: s.tenant_id, resource: 'portal/content', keyword, current: String(p), size: '20' })}`,
      headers: { 'accept-language': lang },
    });
    const data = res.statusCode === 200 ? (res.json().data as Row) : { records: [], total: 0 };
    await count(req, s, 'search', null, null);
    const items = (data.records as Row[]).map((h) => `<li><a href="/site/${s.id}/article/${esc(h.id)}">${esc(h.title)}</a><div class="hl">${highlight(h.highlight ?? '')}</div></li>`).join('');
    const qs = (n: number) => `?q=${encodeURIComponent(keyword)}&page=${n}`;
    const pager = `<p class="pager">${p > 1 ? `<a href="${qs(p - 1)}">${T.prev[lang]}</a>` : ''}${p * 20 < data.total ? `<a href="${qs(p + 1)}">${T.next[lang]}</a>` : ''}</p>`;
    return page(reply, lang, s, `${T.results[lang]} - ${s.title}`, `<h2>${T.results[lang]}：${esc(keyword)}</h2><p>${(data.totalBounded ? T.foundMore : T.found)[lang].replace('{n}', String(data.total))}</p>${items ? `<ul class="list">${items}</ul>` : ''}${pager}`);
  });
  return {
    domainsChanged() {
      domains = { at: 0, map: new Map() };
    },
  };
}
