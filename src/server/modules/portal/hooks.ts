/**
 * What the portal schemas cannot say (issue 14; spec 001 §3 "Portal content", §4):
 *
 * - rich text, for every resource (`hooksAll`, from the schema: fields whose `x-component` is `RichText`): the
 *   HTML is sanitised on the server before it is stored (sanitize-html: common text, list, table, image and
 *   link tags; `href`/`src` only http(s), mailto and site-relative; scripts, event handlers, styles and
 *   iframes removed with their content where they carry code) — what the browser sent is never trusted.
 * - portal/content: a new record gets `createCompany`, the name of the caller's company (the nearest
 *   company department above the caller's, else the department itself); `pushChannel` must name channels of
 *   the tenant (400 推送栏目不存在); every `attrs` name at most once (400 扩展属性重复: x); the attributes
 *   fit the extra fields of the channel's content models (`modelFault`: 请填写 x, x必须是数字, x必须是日期); the
 *   channel (the one given and the one the content is in) must have 内容编辑页 (`CHANNEL_CONFIG`: 400 栏目「x」未开启
 *   内容编辑页，不能编辑其中的内容).
 * - portal/model: its `form` (the field design made in the form designer) must be one attributes can hold
 *   (shared/portal/model-fields.ts `modelFormFault`: 400 with its message, nothing stored).
 * - portal/site: a `domain` (lower-cased) belongs to one live site across tenants (400 该域名已被其他门户站点使用);
 *   after a site is written the public pages' domain map is dropped (`siteChanged`).
 * - the `portalPublish` flow (schemas/flows/portal-publish.bpmn, the schema's `actions.flow`): after each step
 *   (in its transaction) `isRelease` is 1 and `releaseTime` now when the content becomes released (status 4),
 *   else `isRelease` 0; answers the record as stored.
 */
import sanitizeHtml from 'sanitize-html';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError } from '../../core/envelope.js';
import type { OrgCache } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { ActionRunner } from '../../resources/actions.js';
import { modelFields, modelFormFault } from '../../../shared/portal/model-fields.js';

export const CONTENT_RESOURCE = 'portal/content';
export const RELEASED = '4';

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code', 'span', 'div', 'strong', 'b', 'em', 'i', 'u', 's', 'sub', 'sup',
    'ul', 'ol', 'li', 'a', 'img', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'figure', 'figcaption',
  ],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], img: ['src', 'alt', 'title', 'width', 'height'], td: ['colspan', 'rowspan'], th: ['colspan', 'rowspan'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
};

/** The stored form of rich text (see the module comment). */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, SANITIZE);
}

export const SITE_RESOURCE = 'portal/site';
export const MODEL_RESOURCE = 'portal/model';

export const M = {
  domainTaken: { zh: '该域名已被其他门户站点使用', en: 'Another portal site uses the domain' },
  pushUnknown: { zh: '推送栏目不存在', en: 'A channel to show the content in does not exist' },
  attrTwice: (a: string) => ({ zh: `扩展属性重复：${a}`, en: `Attribute given twice: ${a}` }),
  modelRequired: (l: string) => ({ zh: `请填写${l}`, en: `Please fill in ${l}` }),
  modelNumber: (l: string) => ({ zh: `${l}必须是数字`, en: `${l} must be a number` }),
  modelDate: (l: string) => ({ zh: `${l}必须是日期（yyyy-MM-dd）`, en: `${l} must be a date (yyyy-MM-dd)` }),
  noEditor: (t: string) => ({ zh: `栏目「${t}」未开启内容编辑页，不能编辑其中的内容`, en: `The channel "${t}" has no content editor: its content cannot be edited` }),
};

/**
 * Channel configuration (spec 001 §3: 列表页 1, 内容编辑页 2, 是否筛选 3; default 1 and 2 — also for a channel
 * stored without one). The spec names the choices only; what each does here:
 * - 1 列表页: the channel has a list page on the public site (public.ts); without it the channel is a single
 *   page — its link opens its newest released content;
 * - 2 内容编辑页: content can be written in the channel — without it a submit of content into the channel, or
 *   of content that is in it, is refused (`noEditor`, naming the channel; imports to it too). The workflow
 *   steps (examine, release) and removal stay possible, and other content may still be pushed to it
 *   (`pushChannel`): a channel that only gathers. The content editor's channel tree greys such channels out
 *   (ResourceTreeSelect `selectable`);
 * - 3 是否筛选: the channel's list page has a filter (title keyword, release year).
 */
export const CHANNEL_CONFIG = { listPage: 1, editor: 2, filter: 3 } as const;

/** True when a channel's stored `configuration` holds `choice` (no configuration: the default 1 and 2). */
export function channelHas(configuration: unknown, choice: number): boolean {
  if (!Array.isArray(configuration)) return choice === CHANNEL_CONFIG.listPage || choice === CHANNEL_CONFIG.editor;
  return configuration.map(Number).includes(choice);
}

/**
 * The faults of `attrs` against the fields of the content models of channel `channelId` (its `modelIds`; each
 * model's fields read from its designed `form` by shared/portal/model-fields.ts `modelFields`): a required
 * field without a value, a NumberPicker value that is no number, a DatePicker value that is no yyyy-MM-dd
 * date. Answers the first fault's message, or null.
 */
export async function modelFault(trx: Db, tenantId: string, channelId: string, attrs: unknown): Promise<{ zh: string; en: string } | null> {
  const r = await sql<{ form: unknown }>`SELECT m.form FROM portal_channel c
      JOIN portal_model m ON m.tenant_id = c.tenant_id AND m.is_deleted = 0
        AND jsonb_typeof(c.model_ids::jsonb) = 'array' AND c.model_ids::jsonb ? m.id::text
      WHERE c.id = ${channelId}::bigint AND c.tenant_id = ${tenantId} AND c.is_deleted = 0 ORDER BY m.id`.execute(trx);
  const values = new Map<string, string>();
  for (const a of Array.isArray(attrs) ? (attrs as Array<Record<string, unknown>>) : []) values.set(String(a?.attr ?? ''), String(a?.val ?? '').trim());
  for (const row of r.rows) {
    for (const f of modelFields(row.form)) {
      const v = values.get(f.attr) ?? '';
      if (!v) {
        if (f.required) return M.modelRequired(f.label);
        continue;
      }
      if (f.component === 'NumberPicker' && !/^-?\d+(\.\d+)?$/.test(v)) return M.modelNumber(f.label);
      if (f.component === 'DatePicker' && (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`)))) return M.modelDate(f.label);
    }
  }
  return null;
}

/** Registers the hooks and the flow handler of the module comment. */
export function registerPortalHooks(d: { db: Db; engine: ResourceEngine; org: OrgCache; actions: ActionRunner; siteChanged?: () => void }): void {
  d.engine.hooks(SITE_RESOURCE, {
    async beforeSubmit({ isNew, record, existing, trx }) {
      const domain = String(record.domain ?? (isNew ? '' : (existing?.domain ?? ''))).trim().toLowerCase();
      if (record.domain !== undefined) record.domain = domain;
      if (!domain) return;
      const taken = await sql`SELECT 1 FROM portal_site WHERE is_deleted = 0 AND lower(domain) = ${domain} AND id <> ${isNew ? '0' : String(existing?.id)}::bigint LIMIT 1`.execute(trx);
      if (taken.rows.length) throw new ApiError(400, M.domainTaken);
    },
    afterCommit() {
      d.siteChanged?.();
    },
  });

  // a model's field design (made in the form designer) must be one content attributes can hold
  d.engine.hooks(MODEL_RESOURCE, {
    beforeSubmit({ record }) {
      if (record.form === undefined || record.form === null) return;
      const fault = modelFormFault(record.form);
      if (fault) throw new ApiError(400, fault);
    },
  });

  d.engine.hooksAll({
    beforeSubmit({ resource, record }) {
      for (const f of resource.fields) {
        if (f.node['x-component'] === 'RichText' && typeof record[f.name] === 'string') record[f.name] = sanitizeRichText(record[f.name] as string);
      }
    },
  });

  d.engine.hooks(CONTENT_RESOURCE, {
    async beforeSubmit({ isNew, record, existing, user, trx }) {
      if (isNew) {
        const company = user.deptId ? ((await d.org.companyOf(user.tenantId, user.deptId)) ?? user.deptId) : null;
        const r = company ? await sql<{ n: string }>`SELECT dept_name AS n FROM blade_dept WHERE id = ${company}::bigint AND tenant_id = ${user.tenantId}`.execute(trx) : null;
        record.createCompany = r?.rows[0]?.n ?? null;
      }
      if (Array.isArray(record.pushChannel) && record.pushChannel.length) {
        const ids = [...new Set(record.pushChannel.map(String))];
        const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM portal_channel WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND id = ANY(${ids}::bigint[])`.execute(trx);
        if (n.rows[0].n !== ids.length) throw new ApiError(400, M.pushUnknown);
        record.pushChannel = ids;
      }
      if (Array.isArray(record.attrs)) {
        const seen = new Set<string>();
        for (const a of record.attrs as Array<Record<string, unknown>>) {
          const k = String(a?.attr ?? '');
          if (seen.has(k)) throw new ApiError(400, M.attrTwice(k));
          seen.add(k);
        }
      }
      // the channel the content goes to, and the one it is in, must have a content editor (CHANNEL_CONFIG)
      const channels = [...new Set([record.channelId, existing?.channelId].map((x) => String(x ?? '')).filter((x) => /^[1-9][0-9]{0,18}$/.test(x)))];
      if (channels.length) {
        const r = await sql<{ title: string; configuration: unknown }>`SELECT title, configuration FROM portal_channel
            WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND id = ANY(${channels}::bigint[]) ORDER BY id`.execute(trx);
        const closed = r.rows.find((c) => !channelHas(c.configuration, CHANNEL_CONFIG.editor));
        if (closed) throw new ApiError(400, M.noEditor(closed.title));
      }
      const channelId = String(record.channelId ?? existing?.channelId ?? '');
      if (/^[1-9][0-9]{0,18}$/.test(channelId)) {
        const fault = await modelFault(trx, user.tenantId, channelId, record.attrs ?? existing?.attrs);
        if (fault) throw new ApiError(400, fault);
      }
    },
  });

  d.actions.registerFlow('portalPublish', {
    async afterAction(step) {
      const released = step.to === RELEASED;
      const r = await sql<{ id: string }>`UPDATE portal_content SET is_release = ${released ? 1 : 0},
            release_time = CASE WHEN ${released} THEN now() ELSE release_time END, update_time = now()
          WHERE id = ${String(step.record.id)}::bigint AND tenant_id = ${step.user.tenantId} RETURNING id::text AS id`.execute(step.trx);
      const row = r.rows[0] ? await d.engine.findOne(step.resource, step.user, r.rows[0].id, step.trx) : null;
      return row ?? { ...step.record, contentStatus: step.to };
    },
  });
}
