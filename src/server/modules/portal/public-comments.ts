/**
 * Comments from the public portal (issue 14: comments with moderation; the public article pages of public.ts):
 * a visitor without login leaves a comment on a released content; it waits for moderation (portal/contentcomment
 * `auditStatus` 0) and is shown on the page only once approved (1).
 *
 * - `commentForm(siteId, contentId, lang, state)`: the form under an article (a plain HTML form: the pages run
 *   no script), with the outcome of the last post (`?comment=ok` 评论已提交，审核通过后显示 / `?comment=bad`
 *   请填写昵称（50 字以内）和评论（1000 字以内）);
 * - `POST /site/:siteId/article/:id/comment` (form body `nickname`, `comment`; no login; at most 10 a minute per
 *   address): stores the comment in the site's tenant for a released content of it, then redirects (303) to the
 *   article with `?comment=ok`; a blank or too long name or comment stores nothing and redirects with
 *   `?comment=bad`; a site or content that is not live / released is a 404 page.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';
import { isId } from '../../../shared/contract/ids.js';
import { RELEASED } from './hooks.js';

type Lang = 'zh' | 'en';

export const T = {
  leave: { zh: '发表评论', en: 'Leave a comment' },
  nickname: { zh: '昵称', en: 'Name' },
  comment: { zh: '评论', en: 'Comment' },
  send: { zh: '提交', en: 'Send' },
  ok: { zh: '评论已提交，审核通过后显示', en: 'Thank you: the comment is shown once it is approved' },
  bad: { zh: '请填写昵称（50 字以内）和评论（1000 字以内）', en: 'Please enter a name (at most 50 characters) and a comment (at most 1000)' },
};

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The comment form of content `contentId` on site `siteId`, with the notice of `state` ('ok' | 'bad'). */
export function commentForm(siteId: string, contentId: string, lang: Lang, state: unknown): string {
  const notice = state === 'ok' || state === 'bad' ? `<p class="notice ${state}">${esc(T[state][lang])}</p>` : '';
  return `<h3>${T.leave[lang]}</h3>${notice}<form class="comment" method="post" action="/site/${siteId}/article/${contentId}/comment">
<label>${T.nickname[lang]} <input name="nickname" maxlength="50" required></label>
<label>${T.comment[lang]} <textarea name="comment" maxlength="1000" rows="4" required></textarea></label>
<button type="submit">${T.send[lang]}</button></form>`;
}

/** Mounts the route of the module comment; `changed(table)` drops the engine's cached counts of the table. */
export function registerPublicComments(app: FastifyInstance, db: Db, changed: (table: string) => void): void {
  app.post<{ Params: { siteId: string; id: string } }>(
    '/site/:siteId/article/:id/comment',
    { config: { public: true, rateLimit: { max: 10, timeWindow: '1 minute' } }, schema: { hide: true } },
    async (req, reply) => {
      const { siteId, id } = req.params;
      const back = (state: 'ok' | 'bad') => reply.code(303).header('location', `/site/${siteId}/article/${id}?comment=${state}`).send();
      if (!isId(siteId) || !isId(id)) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      const r = await sql<{ tenant_id: string }>`SELECT c.tenant_id FROM portal_site s
          JOIN portal_content c ON c.tenant_id = s.tenant_id AND c.id = ${id}::bigint AND c.is_deleted = 0 AND c.content_status = ${RELEASED}
          WHERE s.id = ${siteId}::bigint AND s.is_deleted = 0 AND s.enabled = true`.execute(db);
      const tenantId = r.rows[0]?.tenant_id;
      if (!tenantId) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      const body = (req.body ?? {}) as Record<string, unknown>;
      const nickname = typeof body.nickname === 'string' ? body.nickname.trim() : '';
      const comment = typeof body.comment === 'string' ? body.comment.trim() : '';
      // eslint-disable-next-line no-control-regex
      const bad = (v: string, max: number) => !v || v.length > max || /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(v);
      if (bad(nickname, 50) || bad(comment, 1000)) return back('bad');
      await sql`INSERT INTO portal_content_comment (id, tenant_id, content_id, nickname, comment, audit_status)
          VALUES (${nextId()}::bigint, ${tenantId}, ${id}::bigint, ${nickname}, ${comment}, 0)`.execute(db);
      changed('portal_content_comment');
      return back('ok');
    },
  );
}
