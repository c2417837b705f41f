/**
 * Excel templates (spec 002 §3, §7 'Excel template'; issue 13): `system/exceltemplate` (a template: code, name,
 * export file name, the resource's table, the overwrite key fields, the partial-import option) and
 * `system/exceltemplatedetail` (its columns: field, zh / en header, translation dictionary, order, width) are
 * generic resources (schemas/system/exceltemplate*.json); this file adds what their schemas cannot state:
 *
 * | endpoint                                                  | answer                                                  |
 * | --------------------------------------------------------- | ------------------------------------------------------- |
 * | GET  /api/system/exceltemplate/detailByCode?code=         | the template and its `columns` (404 when none)          |
 * | GET  /api/system/exceltemplate/getAllTable                | `[{tableName, name, title, titleEn}]`: every table a    |
 * |                                                           | template may name (tenant resources, not platform ones) |
 * | GET  /api/system/exceltemplate/getTableColumnByTableName  | `[{field, title, titleEn, type, dictCode, required}]`   |
 * |      ?tableName=                                          | the fields a column may name                            |
 * | GET  /api/system/exceltemplate/getTableColumn?templateId= | the same for the template's table, with `used`          |
 * | POST /api/system/exceltemplatedetail/move?id=&direction=  | swaps the column with its neighbour (up / down)         |
 *
 * Access: any signed-in user reads templates (list, detail, detailByCode: the Excel toolbar of every list);
 * the table and field catalogue (getAllTable, getTableColumnByTableName, getTableColumn) needs the template
 * menu's add or edit button (403 otherwise); writes and move need the menu's buttons as every resource.
 *
 * Rules (engine hooks, inside the write's transaction): a template's table must be one `getAllTable` offers and
 * its key fields fields of that resource; a column's field must be a field of its template's resource
 * (server-only and write-only fields cannot be columns: an import could not write them).
 *
 * `loadTemplate` resolves a template for the caller (tenant-scoped: another tenant's template is 404) into its
 * resource and `TemplateColumn`s, for the import and the export.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ValidationError, ok } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Resource } from '../../resources/registry.js';
import { writeOnlyFields } from '../../resources/query.js';
import { isId } from '../../../shared/contract/ids.js';
import { isRequiredStatic } from '../../../shared/schema/derive.js';
import { M } from './messages.js';
import { translationOf, type TemplateColumn } from '../../resources/translate.js';

export const TEMPLATE = 'system/exceltemplate';
export const DETAIL = 'system/exceltemplatedetail';

type Row = Record<string, unknown>;

export interface LoadedTemplate {
  template: Row;
  resource: Resource;
  columns: TemplateColumn[];
  /** The overwrite key fields (template `keyColumns`), all fields of the resource. */
  keys: string[];
}

/**
 * True when templates may name `r`: a tenant's own data — not platform data, and not a resource whose schema says
 * `excel: false` (the template tables themselves, the report list).
 */
export function templatable(r: Resource): boolean {
  return r.tenantScoped && !r.schema.scope?.platformAdminOnly && !r.schema.scope?.platformSeesAll && r.schema.excel !== false;
}

/** The fields of `r` a column may name: not server-only, not write-only. */
export function columnFields(r: Resource) {
  const hidden = writeOnlyFields(r);
  const status = r.schema.actions?.statusField;
  return r.fields.filter((f) => f.node['x-server-only'] !== true && !hidden.has(f.name) && f.name !== status && f.name !== r.key);
}

/** The resource served for `table`, when templates may name it. */
export function resourceByTable(engine: ResourceEngine, table: unknown): Resource | undefined {
  if (typeof table !== 'string') return undefined;
  for (const r of engine.registry.resources.values()) if (r.schema.table === table && templatable(r)) return r;
  return undefined;
}

function describeFields(r: Resource, used?: Set<string>) {
  return columnFields(r).map((f) => {
    const t = translationOf(f.node);
    return {
      field: f.name,
      title: f.node.title ?? f.name,
      titleEn: f.node.titleEn ?? f.node.title ?? f.name,
      type: r.byField.get(f.name)!.kind,
      dictCode: t.kind === 'dict' ? t.code : null,
      required: isRequiredStatic(f.node),
      ...(used ? { used: used.has(f.name) } : {}),
    };
  });
}

const keyList = (v: unknown) =>
  String(v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The columns of template `templateId` (tenant `tenantId`), ordered by sort then id. */
async function detailRows(db: Db, tenantId: string, templateId: string): Promise<Row[]> {
  const r = await sql<Row>`SELECT id::text AS id, field, title, title_en, dict_code, sort, width FROM blade_excel_template_detail
                            WHERE template_id = ${templateId}::bigint AND tenant_id = ${tenantId} AND is_deleted = 0 ORDER BY sort, id`.execute(db);
  return r.rows;
}

/** Resolves `template` (a visible record) into its resource and columns; 400 when its table is gone. */
async function resolve(engine: ResourceEngine, user: AuthUser, template: Row): Promise<LoadedTemplate> {
  const resource = resourceByTable(engine, template.tableName);
  if (!resource) throw new ApiError(400, M.tableUnknown);
  const r = engine.current(resource);
  const allowed = new Map(columnFields(r).map((f) => [f.name, f.node]));
  const columns: TemplateColumn[] = [];
  for (const d of await detailRows(engine.db, user.tenantId, String(template.id))) {
    const node = allowed.get(String(d.field));
    if (!node) continue; // a field the resource no longer has (a published schema dropped it)
    columns.push({
      field: String(d.field),
      title: String(d.title),
      titleEn: (d.title_en as string) || String(d.title),
      width: Number(d.width ?? 20),
      node,
      col: r.byField.get(String(d.field))!,
      translation: translationOf(node, d.dict_code as string | null),
    });
  }
  return { template, resource: r, columns, keys: keyList(template.keyColumns).filter((k) => allowed.has(k)) };
}

/** The template `templateId` as `user` sees it (tenant-scoped), resolved; 404 when not visible. */
export async function loadTemplate(engine: ResourceEngine, user: AuthUser, templateId: unknown): Promise<LoadedTemplate> {
  if (templateId === undefined || templateId === '') throw new ApiError(400, 'missingParam', { param: 'templateId' });
  if (typeof templateId !== 'string' || !isId(templateId)) throw new ApiError(400, 'badParam', { param: 'templateId' });
  const t = await engine.findOne(engine.registry.get(TEMPLATE), user, templateId);
  if (!t) throw new ApiError(404, M.templateMissing);
  return resolve(engine, user, t);
}

/** The hooks and endpoints of the templates (see the module comment). */
export function registerTemplateRoutes(app: FastifyInstance, engine: ResourceEngine): void {
  const tpl = () => engine.registry.get(TEMPLATE);
  const det = () => engine.registry.get(DETAIL);
  const tags = [TEMPLATE];
  /**
   * The table and field catalogue is for who designs templates (the add or edit button of the template menu):
   * every signed-in user reads templates (the Excel toolbar of any list needs `detailByCode`), not the tables.
   */
  const designer = async (user: AuthUser | null) => engine.authorize(user, tpl(), 'add').catch(() => engine.authorize(user, tpl(), 'edit'));

  engine.hooks(TEMPLATE, {
    beforeSubmit({ record }) {
      const r = resourceByTable(engine, record.tableName);
      if (!r) throw new ValidationError([{ field: 'tableName', message: M.tableUnknown.zh, messageEn: M.tableUnknown.en }]);
      const fields = new Set(columnFields(r).map((f) => f.name));
      const bad = keyList(record.keyColumns).find((k) => !fields.has(k));
      if (bad) throw new ValidationError([{ field: 'keyColumns', message: M.fieldUnknown(bad).zh, messageEn: M.fieldUnknown(bad).en }]);
      record.keyColumns = keyList(record.keyColumns).join(',') || null;
    },
  });
  engine.hooks(DETAIL, {
    async beforeSubmit({ user, trx, record }) {
      const t = await sql<{ table_name: string }>`SELECT table_name FROM blade_excel_template WHERE id = ${String(record.templateId)}::bigint
                                                   AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(trx);
      const r = resourceByTable(engine, t.rows[0]?.table_name);
      const field = String(record.field ?? '');
      if (!r || !columnFields(r).some((f) => f.name === field)) throw new ValidationError([{ field: 'field', message: M.fieldUnknown(field).zh, messageEn: M.fieldUnknown(field).en }]);
    },
  });

  app.get('/api/system/exceltemplate/detailByCode', { schema: { tags, summary: 'Excel templates: the template of a code, with its columns' } }, async (req) => {
    const user = await engine.authorize(req.user, tpl(), 'read');
    const code = (req.query as Row).code;
    if (typeof code !== 'string' || code === '') throw new ApiError(400, 'missingParam', { param: 'code' });
    if (code.length > 64) throw new ApiError(400, 'badParam', { param: 'code' });
    const page = await engine.page(tpl(), user, { code_equal: code, size: '1' });
    const t = (page.records as Row[])[0];
    if (!t) throw new ApiError(404, M.templateMissing);
    const loaded = await resolve(engine, user, t);
    return ok({ ...t, resource: loaded.resource.schema.name, columns: loaded.columns.map((c) => ({ field: c.field, title: c.title, titleEn: c.titleEn, width: c.width })) }, undefined, req.lang);
  });

  app.get('/api/system/exceltemplate/getAllTable', { schema: { tags, summary: 'Excel templates: the tables a template may name' } }, async (req) => {
    await designer(req.user);
    const out = [...engine.registry.resources.values()].filter(templatable).map((r) => ({ tableName: r.schema.table, name: r.schema.name, title: r.schema.title, titleEn: r.schema.titleEn }));
    return ok(out.sort((a, b) => a.tableName.localeCompare(b.tableName)), undefined, req.lang);
  });

  app.get('/api/system/exceltemplate/getTableColumnByTableName', { schema: { tags, summary: 'Excel templates: the fields of a table' } }, async (req) => {
    await designer(req.user);
    const r = resourceByTable(engine, (req.query as Row).tableName);
    if (!r) throw new ApiError(404, M.tableUnknown);
    return ok(describeFields(engine.current(r)), undefined, req.lang);
  });

  app.get('/api/system/exceltemplate/getTableColumn', { schema: { tags, summary: "Excel templates: the fields of a template's table, marked used" } }, async (req) => {
    const user = await designer(req.user);
    const loaded = await loadTemplate(engine, user, (req.query as Row).templateId);
    return ok(describeFields(loaded.resource, new Set(loaded.columns.map((c) => c.field))), undefined, req.lang);
  });

  app.post('/api/system/exceltemplatedetail/move', { schema: { tags: [DETAIL], summary: 'Excel template columns: move one up or down' } }, async (req) => {
    const user = await engine.authorize(req.user, det(), 'edit');
    const q = { ...(req.query as Row), ...((req.body ?? {}) as Row) };
    const id = q.id;
    if (typeof id !== 'string' || !isId(id)) throw new ApiError(400, 'badParam', { param: 'id' });
    if (q.direction !== 'up' && q.direction !== 'down') throw new ApiError(400, M.moveDirection);
    const up = q.direction === 'up';
    await engine.db.transaction().execute(async (trx) => {
      const me = await sql<Row>`SELECT id::text AS id, template_id::text AS t FROM blade_excel_template_detail
                                 WHERE id = ${id}::bigint AND tenant_id = ${user.tenantId} AND is_deleted = 0 FOR UPDATE`.execute(trx);
      if (!me.rows[0]) throw new ApiError(404, 'notFound');
      // renumber the template's columns 0…n−1 in their order, then swap with the neighbour
      const rows = await detailRows(trx, user.tenantId, String(me.rows[0].t));
      const ids = rows.map((r) => String(r.id));
      const i = ids.indexOf(id);
      const j = up ? i - 1 : i + 1;
      if (j >= 0 && j < ids.length) [ids[i], ids[j]] = [ids[j], ids[i]];
      await sql`UPDATE blade_excel_template_detail d SET sort = o.n - 1, update_user = ${user.userId}::bigint, update_time = now()
                  FROM unnest(${ids}::bigint[]) WITH ORDINALITY AS o(id, n) WHERE d.id = o.id`.execute(trx);
    });
    engine.changed('blade_excel_template_detail');
    return ok(null, undefined, req.lang);
  });
}
