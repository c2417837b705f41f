/**
 * The duplicate-checking endpoints besides the generic ones (spec 001 §7 "/duplicate": file, duplicatetask plus
 * getResult, duplicatealgorithm; issue 15). Every one checks the caller's grant on its resource (the menus
 * duplicate_file / duplicate_task; 403 otherwise) and reads the caller's tenant only.
 *
 * - `GET /api/duplicate/file/options`: the tenant's files to check as flat tree nodes `{id, key, value, title}`
 *   (the task form's CheckTree); grant: reading tasks.
 * - `GET /api/duplicate/duplicatealgorithm/options`: the tenant's algorithms as nodes (the default first);
 *   grant: reading tasks.
 * - `GET /api/duplicate/duplicatetask/getResult?id=`: the task (as its detail) and `files`: per checked file
 *   `{documentId, title, charCount, similarity, matchedChars, sourceCount, sources[], passages[], algorithm}`
 *   (check.ts); a task not visible to the caller (tenant, data scope) is 404.
 * - `GET /api/duplicate/duplicatetask/getText?id=&documentId=`: the stored text of a document the task's
 *   result names (a checked file or one of its sources) `{id, title, content, link, sourceType, resource,
 *   recordId}` — the two texts the result screen shows side by side; any other document is 404; a source the
 *   caller may not read (its record, through its own resource: grant and data scope) is 403.
 * - `GET /api/duplicate/duplicatetask/report?id=`: the report as .docx (report.ts) of a finished task, in the
 *   caller's language.
 * - `GET <api>/checkRepeat?id=` for every resource whose schema has `duplicateCheck` (no resource is named
 *   here): the record's texts — its label and long texts, and its attachments — checked against the library
 *   kinds the key lists, the record's own documents left out, with the tenant's default algorithm; answers
 *   the check result (check.ts) in the request, with `content`: the text checked (the passages' offsets refer
 *   to it). Grant: reading the resource; 404 for a record the caller cannot see.
 * - `GET <api>/checkRepeat/text?id=&documentId=`: the text of a source of that check `{id, title, content,
 *   link, sourceType, resource, recordId}`: a live document of the library kinds the key lists (else 404),
 *   shown only when the caller can read the source's record through its own resource — grant and data scope
 *   (else 403 无权查看该来源的内容: a declaring unit sees that another company's project repeats, not its text).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import { attachment } from '../../core/jobs.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Registry, Resource } from '../../resources/registry.js';
import { quote } from '../../resources/query.js';
import { isId } from '../../../shared/contract/ids.js';
import { dataFields } from '../../../shared/schema/derive.js';
import { checkText, type CheckResult } from './check.js';
import { ensureIndexed } from './documents.js';
import { FILE_RESOURCE, M, TASK_RESOURCE, tenantAlgorithms } from './hooks.js';
import { algorithmFor } from './job.js';
import { isUpload, recordText, resolveLibrary, resourcesOf, type LibraryKind } from './library.js';
import { buildReport, REPORT_TEXTS } from './report.js';
import { normaliseText } from './text.js';

type Row = Record<string, any>;

function idParam(req: FastifyRequest, name = 'id'): string {
  const v = (req.query as Row)[name];
  if (typeof v !== 'string' || v === '') throw new ApiError(400, 'missingParam', { param: name });
  if (!isId(v)) throw new ApiError(400, 'badParam', { param: name });
  return v;
}

export interface RouteDeps {
  db: Db;
  engine: ResourceEngine;
  registry: Registry;
  dataDir: string;
}

/** Mounts the endpoints of the module comment. */
export function registerDuplicateRoutes(app: FastifyInstance, d: RouteDeps): void {
  const { db, engine } = d;
  const tags = ['duplicate'];
  const res = (name: string) => {
    const r = d.registry.resources.get(name);
    if (!r) throw new ApiError(404, 'notFound');
    return r;
  };
  /**
   * A source's text is shown only to a caller who may read where it comes from: a record's text or attachment
   * through the record's own resource (grant and data scope: findOne), a file to check through duplicate/file;
   * else 403 无权查看该来源的内容.
   */
  const mayReadSource = async (req: FastifyRequest, doc: Row) => {
    const src = doc.sourceType === 'file' ? d.registry.resources.get(FILE_RESOURCE) : d.registry.resources.get(String(doc.resource));
    const reader = src ? await engine.authorize(req.user, src, 'read').catch(() => null) : null;
    const visible = reader && (doc.sourceType === 'file' || (doc.recordId && (await engine.findOne(src!, reader, String(doc.recordId)))));
    if (!visible) throw new ApiError(403, M.sourceHidden);
  };
  /** The task `id` when the caller may read it, and its stored results. */
  const taskOf = async (req: FastifyRequest) => {
    const r = res(TASK_RESOURCE);
    const user = await engine.authorize(req.user, r, 'read');
    const id = idParam(req);
    const task = await engine.findOne(r, user, id);
    if (!task) throw new ApiError(404, 'notFound');
    const rows = await sql<{ result: CheckResult & { algorithm?: string } }>`SELECT result FROM duplicate_result
        WHERE tenant_id = ${user.tenantId} AND task_id = ${id}::bigint ORDER BY document_id`.execute(db);
    return { user, task, files: rows.rows.map((x) => x.result) };
  };

  app.get('/api/duplicate/file/options', { schema: { tags, summary: 'Files to check: options for a task' } }, async (req) => {
    const user = await engine.authorize(req.user, res(TASK_RESOURCE), 'read');
    const r = await sql<{ id: string; file_name: string; folder: string | null }>`SELECT id::text AS id, file_name, folder FROM duplicate_file
        WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 ORDER BY create_time DESC, id DESC LIMIT 1000`.execute(db);
    return ok(r.rows.map((x) => ({ id: x.id, key: x.id, value: x.id, title: x.folder ? `${x.file_name}（${x.folder}）` : x.file_name })), undefined, req.lang);
  });

  app.get('/api/duplicate/duplicatealgorithm/options', { schema: { tags, summary: 'Algorithms: options for a task' } }, async (req) => {
    const user = await engine.authorize(req.user, res(TASK_RESOURCE), 'read');
    const all = await tenantAlgorithms(db, user.tenantId);
    return ok(all.map((a) => ({ id: a.id, key: a.id, value: a.id, title: a.isDefault ? `${a.name}${req.lang === 'en' ? ' (default)' : '（默认）'}` : a.name })), undefined, req.lang);
  });

  app.get('/api/duplicate/duplicatetask/getResult', { schema: { tags, summary: 'Task: overall and per-source similarity and the matched passages of every checked file' } }, async (req) => {
    const { task, files } = await taskOf(req);
    return ok({ task, files }, undefined, req.lang);
  });

  app.get('/api/duplicate/duplicatetask/getText', { schema: { tags, summary: 'Task: the text of a checked file or of a source its result names' } }, async (req) => {
    const { user, files } = await taskOf(req);
    const documentId = idParam(req, 'documentId');
    const named = files.some((f) => f.documentId === documentId || f.passages.some((p) => p.sourceDocumentId === documentId));
    if (!named) throw new ApiError(404, 'notFound');
    const r = await sql<Row>`SELECT id::text AS id, title, content, link, source_type AS "sourceType", resource, record_id::text AS "recordId"
        FROM duplicate_document WHERE id = ${documentId}::bigint AND tenant_id = ${user.tenantId}`.execute(db);
    if (!r.rows[0]) throw new ApiError(404, 'notFound');
    await mayReadSource(req, r.rows[0]);
    return ok(r.rows[0], undefined, req.lang);
  });

  app.get('/api/duplicate/duplicatetask/report', { schema: { tags, summary: 'Task: the report as .docx' } }, async (req, reply) => {
    const { user, task, files } = await taskOf(req);
    if (task.taskStatus !== 2) throw new ApiError(400, { zh: '查重任务尚未完成，不能下载报告', en: 'The task has not finished: no report yet' });
    const texts = new Map<string, string>();
    const ids = [...new Set(files.map((f) => f.documentId).filter((x): x is string => !!x))];
    const r = await sql<{ id: string; content: string }>`SELECT id::text AS id, content FROM duplicate_document WHERE tenant_id = ${user.tenantId} AND id = ANY(${ids}::bigint[])`.execute(db);
    for (const x of r.rows) texts.set(x.id, x.content);
    const buf = await buildReport({
      taskName: String(task.name ?? ''),
      algorithm: files[0]?.algorithm ?? '',
      finishTime: task.finishTime ? String(task.finishTime) : '',
      files: files.map((f) => ({
        ...f,
        passages: f.passages.map((p) => ({ ...p, text: (texts.get(f.documentId ?? '') ?? '').slice(p.start, p.end) })),
      })),
    }, req.lang);
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')
      .header('content-disposition', attachment(`${REPORT_TEXTS[req.lang].title}-${String(task.name ?? task.id).slice(0, 60)}.docx`))
      .header('cache-control', 'no-store')
      .send(buf);
  });

  // checkRepeat for every resource that asks for it (schema key duplicateCheck)
  for (const r0 of d.registry.resources.values()) {
    if (!r0.schema.duplicateCheck) continue;
    const name = r0.schema.name;
    app.get(`${r0.schema.api}/checkRepeat`, { schema: { tags: [name], summary: `${r0.schema.titleEn}: check a record for repetition against the library` } }, async (req) => {
      const r = res(name);
      const user = await engine.authorize(req.user, r, 'read');
      const id = idParam(req);
      const rec = await engine.findOne(r, user, id);
      if (!rec) throw new ApiError(404, 'notFound');
      return ok(await checkRecord(d, r, user.tenantId, id), undefined, req.lang);
    });
    app.get(`${r0.schema.api}/checkRepeat/text`, { schema: { tags: [name], summary: `${r0.schema.titleEn}: the text of a source of a repetition check` } }, async (req) => {
      const r = res(name);
      const user = await engine.authorize(req.user, r, 'read');
      const id = idParam(req);
      const documentId = idParam(req, 'documentId');
      if (!(await engine.findOne(r, user, id))) throw new ApiError(404, 'notFound');
      const doc = (await sql<Row>`SELECT id::text AS id, title, content, link, source_type AS "sourceType", resource, record_id::text AS "recordId"
          FROM duplicate_document WHERE id = ${documentId}::bigint AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(db)).rows[0];
      const kinds = libraryKindsOf(r);
      const inLibrary = doc && (doc.sourceType === 'file' ? kinds.includes('file') : kinds.some((k) => k !== 'file' && resourcesOf(d.registry, k).some((x) => x.schema.name === doc.resource)));
      if (!doc || !inLibrary) throw new ApiError(404, 'notFound');
      await mayReadSource(req, doc);
      return ok(doc, undefined, req.lang);
    });
  }
}

/** The library kinds a resource's checkRepeat compares against (its `duplicateCheck.library`, else its area). */
function libraryKindsOf(r: Resource): LibraryKind[] {
  return r.schema.duplicateCheck?.library ?? [r.schema.name.split('/')[0] as LibraryKind];
}

/** checkRepeat's work (see the module comment). */
async function checkRecord(d: RouteDeps, r: Resource, tenantId: string, id: string): Promise<CheckResult & { content: string }> {
  const kinds = libraryKindsOf(r);
  const row = (await sql<Row>`SELECT * FROM ${sql.raw(quote(r.schema.table))} WHERE id = ${id}::bigint AND tenant_id = ${tenantId}`.execute(d.db)).rows[0];
  const { ids: library } = await resolveLibrary({ db: d.db, registry: d.registry, dataDir: d.dataDir, tenantId, kinds });
  // the record's own documents (its text and its attachments) are not its sources
  const own = await sql<{ id: string; content: string; source_type: string }>`SELECT id::text AS id, content, source_type FROM duplicate_document
      WHERE tenant_id = ${tenantId} AND resource = ${r.schema.name} AND record_id = ${id}::bigint AND is_deleted = 0 ORDER BY source_type DESC, id`.execute(d.db);
  for (const o of own.rows) library.delete(o.id);
  const uploads = dataFields(r.schema.form).filter((f) => isUpload(f.node)).map((f) => r.byField.get(f.name)?.column);
  const attachNames = new Set(uploads.flatMap((c) => (c && Array.isArray(row?.[c]) ? row[c].map((x: Row) => String(x?.name ?? '')) : [])));
  const parts = [recordText(r, row ?? {})];
  const attached = await sql<{ content: string }>`SELECT content FROM duplicate_document WHERE tenant_id = ${tenantId} AND source_type = 'attach'
      AND source_key = ANY(${[...attachNames]}::text[]) AND is_deleted = 0 ORDER BY id`.execute(d.db);
  for (const a of attached.rows) parts.push(a.content);
  const algorithm = await algorithmFor(d.db, tenantId, null);
  await ensureIndexed(d.db, tenantId, [...library], algorithm);
  const content = normaliseText(parts.join('\n'));
  const result = await checkText(d.db, tenantId, { id: null, title: String(row?.[r.byField.get(r.schema.labelField ?? 'name')?.column ?? 'name'] ?? id), content }, library, algorithm);
  return { ...result, content };
}
