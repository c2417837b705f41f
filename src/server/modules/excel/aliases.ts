/**
 * A resource's own names for the Excel calls (spec 001 §7 `/project/report`: import-report, export-report,
 * export-excel-report; issue 12). A schema asks for them with the key `excelCalls`:
 *
 *   "excelCalls": { "template": "project_report", "import": "import-report", "export": "export-report",
 *                   "exportTemplate": "export-excel-report" }
 *
 * and, under its `api`, gets for each call named:
 *
 * | call                        | the same as                                                          |
 * | --------------------------- | -------------------------------------------------------------------- |
 * | POST `<api>/<import>`       | POST /api/system/exceltemplate/importData (multipart file, isCovered) |
 * | GET `<api>/<export>`        | GET /api/system/exceltemplate/exportData (the list's filters or ids)  |
 * | GET `<api>/<exportTemplate>`| GET /api/system/exceltemplate/exportTemplate (the empty workbook)     |
 *
 * with `templateId` the caller's tenant's template of code `template` (the one the menu's `<menu>_export` /
 * `<menu>_import` buttons name, seed.ts); 404 导入导出模板不存在 when the tenant has none, or when it names another
 * resource's table. The request goes, as the caller (their headers), through the real endpoint
 * (`app.inject`): every check, grant, job and answer is that endpoint's — the file, the job id or the error.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError } from '../../core/envelope.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { M } from './messages.js';

const BASE = '/api/system/exceltemplate';
/** The caller's headers the real endpoint needs (identity, tenant, role, language, the multipart body's type). */
const FORWARDED = ['authorization', 'blade-auth', 'tenant-id', 'role-id', 'accept-language', 'content-type'];

/** The id of the template of `code` in the caller's tenant, naming `table`; 404 otherwise. */
async function templateOf(db: Db, tenantId: string, code: string, table: string): Promise<string> {
  const row = (await sql<{ id: string }>`SELECT id::text AS id FROM blade_excel_template
                                         WHERE tenant_id = ${tenantId} AND code = ${code} AND table_name = ${table} AND is_deleted = 0 ORDER BY id LIMIT 1`.execute(db)).rows[0];
  if (!row) throw new ApiError(404, M.templateMissing);
  return row.id;
}

/** Mounts the calls of every resource (known at start) whose schema has `excelCalls` (module comment). */
export async function registerExcelAliases(app: FastifyInstance, engine: ResourceEngine, maxBytes: number): Promise<void> {
  const forward = async (req: FastifyRequest, reply: FastifyReply, name: string, target: string, payload?: Buffer) => {
    if (!req.user) throw new ApiError(401, 'unauthorized');
    const r = engine.registry.resources.get(name);
    const calls = r?.schema.excelCalls;
    if (!r || !calls) throw new ApiError(404, 'notFound');
    const templateId = await templateOf(engine.db, req.user.tenantId, calls.template, r.schema.table);
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) if (typeof v === 'string' && k !== 'templateId') query.set(k, v);
    query.set('templateId', templateId);
    const headers: Record<string, string> = {};
    for (const h of FORWARDED) if (typeof req.headers[h] === 'string') headers[h] = req.headers[h];
    const res = await app.inject({ method: payload ? 'POST' : 'GET', url: `${BASE}/${target}?${query}`, headers, ...(payload ? { payload } : {}) });
    for (const h of ['content-type', 'content-disposition', 'cache-control']) if (res.headers[h] !== undefined) void reply.header(h, res.headers[h]);
    return reply.code(res.statusCode).send(res.rawPayload);
  };

  const withCalls = [...engine.registry.resources.values()].filter((r) => r.schema.excelCalls);
  for (const r of withCalls) {
    const { api, name } = r.schema;
    const calls = r.schema.excelCalls!;
    const tags = [name, 'excel'];
    if (calls.export) app.get(`${api}/${calls.export}`, { schema: { tags, summary: `${r.schema.titleEn}: export the list (filters or ids) as Excel` } }, (req, reply) => forward(req, reply, name, 'exportData'));
    if (calls.exportTemplate) app.get(`${api}/${calls.exportTemplate}`, { schema: { tags, summary: `${r.schema.titleEn}: the empty Excel template` } }, (req, reply) => forward(req, reply, name, 'exportTemplate'));
  }
  // the imports take the multipart body as it came (a buffer), in a scope of their own, and hand it on unread
  await app.register(async (scope) => {
    scope.removeContentTypeParser('multipart/form-data');
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: maxBytes + 1024 * 1024 }, (_req, body, done) => done(null, body));
    for (const r of withCalls) {
      const calls = r.schema.excelCalls!;
      if (!calls.import) continue;
      scope.post(`${r.schema.api}/${calls.import}`, { schema: { tags: [r.schema.name, 'excel'], summary: `${r.schema.titleEn}: import an Excel file (multipart file, isCovered 0/1)` } }, (req, reply) => {
        if (!Buffer.isBuffer(req.body)) throw new ApiError(400, M.fileRequired);
        return forward(req, reply, r.schema.name, 'importData', req.body);
      });
    }
  });
}
