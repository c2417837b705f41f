/**
 * The Word templates of the project documents (spec 001 §7 "/project/template (tree, enable, checkVersion)";
 * issue 12; schemas/project/template.json — the `documents.templates` of project/baseinfo, read by
 * src/server/modules/documents). Beside the generic calls:
 *
 * - the generic submit refuses a version already used by another template of the same document kind
 *   (400 同一文书类型的版本号已存在, on `version`), and a template file that is not a .docx upload;
 * - `POST /api/project/template/enable?id=` (edit grant): makes the template the one its kind uses — every
 *   other template of that kind in the tenant is disabled in the same transaction. Answers `{id, enabled: true}`;
 * - `GET /api/project/template/checkVersion?templateKind=&version=[&id=]` (read grant): `{exists}` — whether
 *   another template of the kind (not `id`) has that version, for the form to warn before saving;
 * - `GET /api/project/template/tree` (read grant): the kinds of dictionary project_document_kind, each with
 *   its templates: `[{id: kind, title, children: [{id, title: "name vX", version, enabled}]}]`.
 *
 * Another tenant's template is 404 (enable) and never listed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { isId } from '../../../shared/contract/ids.js';
import { resourceOf } from './routes.js';

export const TEMPLATE = 'project/template';
type Row = Record<string, unknown>;

export const TEMPLATE_MESSAGES = {
  version: { zh: '同一文书类型的版本号已存在', en: 'This document already has a template of that version' },
  docx: { zh: '模板文件须为 .docx 格式', en: 'The template must be a .docx file' },
};

async function versionTaken(db: Db, tenantId: string, kind: unknown, version: unknown, id: string | null): Promise<boolean> {
  if (typeof kind !== 'string' || typeof version !== 'string' || !kind || !version) return false;
  const r = await sql`SELECT 1 FROM project_template WHERE tenant_id = ${tenantId} AND is_deleted = 0 AND template_kind = ${kind} AND version = ${version}
                        AND (${id}::bigint IS NULL OR id <> ${id}::bigint) LIMIT 1`.execute(db);
  return r.rows.length > 0;
}

export function registerTemplates(app: FastifyInstance, db: Db, engine: ResourceEngine): void {
  const tags = [TEMPLATE];
  const q = (req: FastifyRequest) => (req.query ?? {}) as Row;

  engine.hooks(TEMPLATE, {
    async beforeSubmit(c) {
      const rec = { ...(c.existing ?? {}), ...c.record };
      if (await versionTaken(c.trx, c.user.tenantId, rec.templateKind, rec.version, c.isNew ? null : String(c.existing?.id))) {
        throw new ApiError(400, TEMPLATE_MESSAGES.version, undefined, { field: 'version' });
      }
      const file = Array.isArray(rec.file) ? (rec.file[0] as Row | undefined) : undefined;
      const name = String(file?.name ?? file?.originalName ?? '');
      if (!/\.docx$/i.test(name)) throw new ApiError(400, TEMPLATE_MESSAGES.docx, undefined, { field: 'file' });
    },
  });

  app.post('/api/project/template/enable', { schema: { tags, summary: 'Templates: the one its document kind uses' } }, async (req) => {
    const user = req.user!;
    const r = resourceOf(engine, TEMPLATE);
    await engine.authorize(user, r, 'edit');
    const id = q(req).id;
    if (typeof id !== 'string' || !isId(id)) throw new ApiError(400, id === undefined || id === '' ? 'missingParam' : 'badParam', { param: 'id' });
    const rec = await engine.findOne(r, user, id);
    if (!rec) throw new ApiError(404, 'notFound');
    await db.transaction().execute(async (trx) => {
      await sql`UPDATE project_template SET enabled = (id = ${id}::bigint), update_user = ${user.userId}::bigint, update_time = now()
                WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND template_kind = ${String(rec.templateKind)}`.execute(trx);
    });
    engine.changed('project_template');
    return ok({ id, enabled: true }, undefined, req.lang);
  });

  app.get('/api/project/template/checkVersion', { schema: { tags, summary: 'Templates: is a version of a document kind taken' } }, async (req) => {
    const user = req.user!;
    await engine.authorize(user, resourceOf(engine, TEMPLATE), 'read');
    const { templateKind, version, id } = q(req);
    if (typeof templateKind !== 'string' || !templateKind) throw new ApiError(400, 'missingParam', { param: 'templateKind' });
    if (typeof version !== 'string' || !version) throw new ApiError(400, 'missingParam', { param: 'version' });
    if (id !== undefined && id !== '' && (typeof id !== 'string' || !isId(id))) throw new ApiError(400, 'badParam', { param: 'id' });
    return ok({ exists: await versionTaken(db, user.tenantId, templateKind, version, typeof id === 'string' && id ? id : null) }, undefined, req.lang);
  });

  app.get('/api/project/template/tree', { schema: { tags, summary: 'Templates by document kind' } }, async (req) => {
    const user = req.user!;
    await engine.authorize(user, resourceOf(engine, TEMPLATE), 'read');
    const kinds = (await sql<Row>`SELECT dict_key AS k, dict_value AS v, dict_value_en AS e FROM blade_dict_biz WHERE tenant_id = ${user.tenantId} AND code = 'project_document_kind'
                    AND parent_id <> 0 AND is_deleted = 0 ORDER BY sort, id`.execute(db)).rows;
    const rows = (await sql<Row>`SELECT id::text AS id, template_kind AS k, name, version, enabled FROM project_template WHERE tenant_id = ${user.tenantId} AND is_deleted = 0
                   ORDER BY template_kind, update_time DESC, id DESC`.execute(db)).rows;
    const tree = kinds.map((k) => ({
      id: String(k.k),
      title: req.lang === 'en' ? String(k.e || k.v) : String(k.v),
      children: rows.filter((x) => x.k === k.k).map((x) => ({ id: x.id, title: `${String(x.name)} v${String(x.version)}`, version: x.version, enabled: x.enabled === true })),
    }));
    return ok(tree, undefined, req.lang);
  });
}
