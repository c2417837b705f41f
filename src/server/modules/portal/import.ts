/**
 * Imports of journal catalogues and CNKI exports (spec 001 §7 "/portal/content: import-qikan (POST, file
 * body), get-import-qikan-status"; issue 14):
 *
 * - `POST /api/portal/content/import-qikan?resource=` multipart with one `file` (the field `resource` may come
 *   with the file instead): reads the file into the records of `resource`, a resource whose schema's
 *   `portalRecord.import` lists the file's format — a journal catalogue workbook (.xlsx: row 1 the headings,
 *   matched to the resource's field titles in Chinese or English, or their names) or a CNKI export (RefWorks,
 *   EndNote or NoteExpress text, cnki.ts). The file is read and checked in the request; the records are
 *   written by a `portal-import-qikan` job (core/jobs.ts: through the engine's submit, so each record is
 *   validated, audited and indexed; a record refused is counted failed with its message): up to 200 records
 *   run in the request, more are queued. Answers `{jobId, status, read}` (a queued job: 数据较多，已转为后台任务).
 *   Errors (400, nothing stored): no file 请选择要上传的文件; not a workbook or one of the three text formats,
 *   or a format the resource does not take 文件格式错误; no heading matched or no record 文件中没有可导入的数据;
 *   more than 20,000 records 单次最多导入 20000 条; larger than 10 MB 413-like 400 文件不能超过 10MB.
 *   Grant: adding records of `resource`.
 * - `GET /api/portal/content/get-import-qikan-status?jobId=` → `{jobId, status, progress, read, written,
 *   failed, errors, error}` of one of the caller's import jobs (another user's or tenant's: 404).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { ApiError, ok } from '../../core/envelope.js';
import type { Jobs, JobContext, JobOutcome } from '../../core/jobs.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Resource } from '../../resources/registry.js';
import { detectFormat, parseCnki, readWorkbook, type Bib, type ImportFormat } from './cnki.js';

type Row = Record<string, any>;

export const IMPORT_JOB = 'portal-import-qikan';
const MAX_BYTES = 10 * 1024 * 1024;
const MAX_RECORDS = 20_000;
const INLINE_RECORDS = 200;
const INPUT = 'records.json';

export const M = {
  noFile: { zh: '请选择要上传的文件', en: 'Please choose the file to upload' },
  badFormat: { zh: '文件格式错误', en: 'Wrong file format' },
  empty: { zh: '文件中没有可导入的数据', en: 'The file holds nothing to import' },
  tooMany: { zh: `单次最多导入 ${MAX_RECORDS} 条`, en: `At most ${MAX_RECORDS} records at a time` },
  tooLarge: { zh: '文件不能超过 10MB', en: 'The file cannot be larger than 10 MB' },
  queued: { zh: '数据较多，已转为后台任务', en: 'Much data: it runs as a background job' },
  done: (w: number, f: number) => ({ zh: `导入完成：成功 ${w} 条，失败 ${f} 条`, en: `Imported ${w}, failed ${f}` }),
};

const isZip = (h: Buffer) => h.length >= 4 && h[0] === 0x50 && h[1] === 0x4b && h[2] === 0x03 && h[3] === 0x04;

/** The heading → field map of a workbook import into `r`: field names and titles (zh, en), lower case. */
function columnsOf(r: Resource): Map<string, string> {
  const m = new Map<string, string>();
  for (const f of r.fields) {
    if (f.node['x-server-only'] || f.node.type !== 'string') continue;
    for (const k of [f.name, f.node.title, (f.node as Row).titleEn]) if (typeof k === 'string' && k) m.set(k.trim().toLowerCase(), f.name);
  }
  return m;
}

/** The `portal-import-qikan` handler: submits the records saved in the job's folder. */
export function importJob(engine: ResourceEngine) {
  return async (ctx: JobContext<{ resource: string; lang: 'zh' | 'en' }>): Promise<JobOutcome> => {
    const r = engine.registry.resources.get(ctx.params.resource);
    if (!r?.schema.portalRecord) return { error: '数据资源不存在' };
    const records = JSON.parse(await fsp.readFile(path.join(ctx.folder, INPUT), 'utf8')) as Bib[];
    let written = 0;
    let failed = 0;
    const errors: string[] = [];
    for (let i = 0; i < records.length; i++) {
      try {
        await engine.submit(r, ctx.owner, records[i], ctx.params.lang);
        written++;
      } catch (e) {
        failed++;
        if (errors.length < 20) errors.push(`第${i + 1}条：${e instanceof ApiError ? e.localized(ctx.params.lang) : '操作失败'}`);
      }
      if (i % 50 === 49) await ctx.report({ progress: Math.round(((i + 1) / records.length) * 100), read: records.length, written, failed });
    }
    await ctx.report({ progress: 100, read: records.length, written, failed }, true);
    return { result: { read: records.length, written, failed, errors, message: M.done(written, failed)[ctx.params.lang] } };
  };
}

/** Mounts import-qikan and get-import-qikan-status (see the module comment). */
export async function registerImportRoutes(app: FastifyInstance, d: { engine: ResourceEngine; jobs: Jobs }): Promise<void> {
  const { engine, jobs } = d;
  const tags = ['portal'];
  await jobs.define(IMPORT_JOB, importJob(engine), { batchSize: 1 });

  await app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: MAX_BYTES, files: 1, fields: 5, fieldSize: 200, parts: 8 } });
    // the input guard (core/input-guard.ts) reads the first file part early; this route reads every part itself
    // (its one field is checked against the registry), so the guard's early read is turned off here
    scope.addHook('preValidation', async (req) => {
      (req as unknown as { file?: unknown }).file = undefined;
    });
    scope.post('/api/portal/content/import-qikan', { schema: { tags, summary: 'Content: import a journal catalogue (.xlsx) or a CNKI export (RefWorks, EndNote, NoteExpress) into records' } }, async (req: FastifyRequest) => {
      if (!req.user) throw new ApiError(401, 'unauthorized');
      if (!req.isMultipart()) throw new ApiError(400, M.noFile);
      let buf: Buffer | null = null;
      let name = '';
      let truncated = false;
      let resource = typeof (req.query as Row).resource === 'string' ? String((req.query as Row).resource) : '';
      for await (const part of req.parts()) {
        if (part.type === 'file') {
          if (buf) throw new ApiError(400, M.noFile);
          buf = await part.toBuffer();
          truncated = part.file.truncated;
          name = part.filename ?? '';
        } else if (part.fieldname === 'resource' && typeof part.value === 'string') resource = part.value;
      }
      const r = engine.registry.resources.get(resource.slice(0, 64));
      if (!r?.schema.portalRecord?.import?.length) throw new ApiError(400, 'badParam', { param: 'resource' });
      const user = await engine.authorize(req.user, r, 'add');
      if (!buf || !buf.length) throw new ApiError(400, M.noFile);
      if (truncated) throw new ApiError(400, M.tooLarge);
      let format: ImportFormat | null;
      let records: Bib[];
      if (isZip(buf)) {
        if (!/\.xlsx$/i.test(name)) throw new ApiError(400, M.badFormat);
        format = 'xlsx';
        try {
          const wb = await readWorkbook(buf, columnsOf(r), MAX_RECORDS);
          if (wb.tooMany) throw new ApiError(400, M.tooMany);
          records = wb.records;
        } catch (e) {
          if (e instanceof ApiError) throw e;
          throw new ApiError(400, M.badFormat);
        }
      } else {
        const text = buf.toString('utf8');
        format = text.includes('\u0000') || text.includes('\uFFFD') ? null : detectFormat(text);
        records = format ? parseCnki(text, format) : [];
        if (records.length > MAX_RECORDS) throw new ApiError(400, M.tooMany);
      }
      if (!format || !r.schema.portalRecord.import.includes(format)) throw new ApiError(400, M.badFormat);
      const known = new Set(r.fields.map((f) => f.name));
      records = records.map((x) => Object.fromEntries(Object.entries(x).filter(([k]) => known.has(k)))).filter((x) => Object.keys(x).length);
      if (!records.length) throw new ApiError(400, M.empty);
      const prepare = (folder: string) => fsp.writeFile(path.join(folder, INPUT), JSON.stringify(records));
      const params = { resource: r.schema.name, lang: req.lang, format, ref: r.schema.name };
      const title = `导入${r.schema.title}：${name.slice(0, 60)}`;
      if (records.length <= INLINE_RECORDS) {
        const job = await jobs.runNow(IMPORT_JOB, user, params, { title, prepare });
        const res = (job.result ?? {}) as Row;
        return ok({ jobId: job.id, status: job.status, read: records.length, written: res.written ?? 0, failed: res.failed ?? 0, errors: res.errors ?? [] }, res.message ?? undefined, req.lang);
      }
      const jobId = await jobs.enqueue(IMPORT_JOB, user, params, { title, prepare });
      return ok({ jobId, status: 'queued', read: records.length }, M.queued[req.lang], req.lang);
    });
  });

  app.get('/api/portal/content/get-import-qikan-status', { schema: { tags, summary: 'Content: the state of an import-qikan job' } }, async (req) => {
    if (!req.user) throw new ApiError(401, 'unauthorized');
    const id = (req.query as Row).jobId;
    if (typeof id !== 'string' || !/^[1-9][0-9]{0,18}$/.test(id)) throw new ApiError(400, 'badParam', { param: 'jobId' });
    const job = await jobs.get(id, req.user);
    if (!job || job.kind !== IMPORT_JOB) throw new ApiError(404, 'notFound');
    const res = (job.result ?? {}) as Row;
    return ok(
      { jobId: job.id, status: job.status, progress: job.progress, read: job.readCount, written: job.writtenCount, failed: job.failedCount, errors: res.errors ?? [], error: job.error },
      undefined,
      req.lang,
    );
  });
}
