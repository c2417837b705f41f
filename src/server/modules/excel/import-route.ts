/**
 * `POST /api/system/exceltemplate/importData` (spec 002 §5, §7, §8; issue 13): multipart with one `file` and
 * the fields `isCovered` (required, 0 no / 1 overwrite) and `templateId` (also accepted as query parameters).
 *
 * Checks, all before a row is read, each a 400 with the user's message and nothing stored: signed in (401);
 * exactly one file (请选择要上传的文件 / 只能上传一个文件); `isCovered` 0 or 1 (请选择是否覆盖数据); the name
 * ends in .xls or .xlsx and the content is an Office Open XML zip (文件格式错误 — a renamed file is caught by
 * its first bytes); an Excel 97-2003 file says it must be saved as .xlsx; not empty (上传的文件是空的); the
 * template visible to the caller (another tenant's: 404 导入导出模板不存在); the `<menu>_import` button (403) and
 * the add (and, to overwrite, edit) grants of the resource.
 *
 * Every import is an `excel-import` job (core/jobs.ts): a file up to `inlineBytes` (default 1 MiB,
 * `EXCEL_INLINE_BYTES`) runs in the request and is answered at once — 200 导入成功：新增 N 条，更新 M 条
 * (`data`: `{jobId, inserted, updated, read}`), or 400 with the faults (`data`: `{jobId, errorFile, read,
 * failed}`; `errorFile` downloads the error workbook); a larger file is queued and answered `{jobId}` with
 * 数据较多，已转为后台任务, its progress polled at `/api/blade-job/job/detail` (the job's `error` or `result`
 * holds the same message when it ends).
 *
 * A committed import hands its written rows to an `excel-after-commit` job (same owner, `ref` = the import's
 * job id) that runs the resource's `afterCommit` hooks on them (import-write.ts: search indexing and the
 * like), so the imported records become searchable shortly after the import's answer rather than before it.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { ApiError, ok } from '../../core/envelope.js';
import type { GrantCache } from '../../core/context.js';
import type { Jobs } from '../../core/jobs.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Lang } from '../../../shared/i18n/messages.js';
import { loadTemplate } from './templates.js';
import { assertButton, stamp } from './export.js';
import { runImport, type ImportResult } from './import.js';
import { afterCommit, hasCommitHooks } from './import-write.js';
import { faultText } from './error-workbook.js';
import { addReport } from './report.js';
import { M } from './messages.js';

export const IMPORT_KIND = 'excel-import';
/** The follow-up of a committed import: its written rows through the resource's afterCommit hooks. */
export const AFTER_COMMIT_KIND = 'excel-after-commit';
const INPUT = 'input.xlsx';
const WRITTEN = 'written.json';

interface AfterCommitParams {
  /** The import job. */
  ref: string;
  resource: string;
  lang: Lang;
}

interface ImportParams {
  ref: string;
  templateId: string;
  isCovered: boolean;
  lang: Lang;
}

export interface ImportRouteOptions {
  engine: ResourceEngine;
  grants: GrantCache;
  jobs: Jobs;
  timeZone: string;
  maxBytes: number;
  inlineBytes: number;
}

const isZip = (h: Buffer) => h.length >= 4 && h[0] === 0x50 && h[1] === 0x4b && (h[2] === 0x03 || h[2] === 0x05 || h[2] === 0x07);
const isOle2 = (h: Buffer) => h.length >= 8 && h.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));

/** Mounts importData (in its own scope, so the multipart parser serves only it) and the `excel-import` kind. */
export async function registerImportRoute(app: FastifyInstance, o: ImportRouteOptions): Promise<void> {
  const { engine, jobs } = o;

  await jobs.define<ImportParams>(IMPORT_KIND, async (ctx) => {
    const lang = ctx.params.lang;
    const input = path.join(ctx.folder, INPUT);
    try {
      const t = await loadTemplate(engine, ctx.owner, ctx.params.templateId);
      const res = await runImport(engine, ctx.owner, t, input, {
        isCovered: ctx.params.isCovered,
        lang,
        folder: ctx.folder,
        report: (p) => ctx.report(p),
      });
      // the written rows reach the afterCommit hooks (search indexing …) in a follow-up job of the same owner
      if (res.committed && (res.written.add.length || res.written.edit.length) && hasCommitHooks(engine, t.resource)) {
        const written = JSON.stringify({ written: res.written, saved: res.saved });
        const params: AfterCommitParams = { ref: ctx.id, resource: t.resource.schema.name, lang };
        await jobs.enqueue(AFTER_COMMIT_KIND, ctx.owner, params, { title: String(t.template.fileName), prepare: (folder) => fsp.writeFile(path.join(folder, WRITTEN), written) });
      }
      const counts = { read: res.read, inserted: res.inserted, updated: res.updated, failed: res.failed };
      if (!res.faults.length) return { result: { ...counts, message: M.imported(res.inserted, res.updated)[lang] } };
      const name = `${M.errorFileName(String(t.template.fileName))[lang]}${stamp(o.timeZone)}.xlsx`;
      await addReport(engine, ctx.owner, { name, kind: 'import-errors', jobId: ctx.id, rowCount: res.faults.length });
      const file = { resultFile: 'errors.xlsx', resultName: name };
      if (res.committed) return { ...file, result: { ...counts, message: `${M.partial(res.inserted + res.updated, res.failed)[lang]}、${faultText(res.faults, lang)}` } };
      return { ...file, result: counts, error: `${M.failedSummary(res.faults.length)[lang]}、${faultText(res.faults, lang)}` };
    } catch (e) {
      if (e instanceof ApiError) return { error: e.localized(lang) };
      throw e;
    } finally {
      await fsp.rm(input, { force: true });
    }
  });

  await jobs.define<AfterCommitParams>(AFTER_COMMIT_KIND, async (ctx) => {
    const file = path.join(ctx.folder, WRITTEN);
    const data = JSON.parse(await fsp.readFile(file, 'utf8')) as Pick<ImportResult, 'written' | 'saved'>;
    const r = engine.current(engine.registry.get(ctx.params.resource));
    await afterCommit(engine, ctx.owner, r, ctx.params.lang, data, (done, total) => ctx.report({ read: done, written: done, progress: Math.min(99, (done / Math.max(1, total)) * 100) }));
    await fsp.rm(file, { force: true });
    const rows = data.written.add.length + data.written.edit.length;
    await ctx.report({ read: rows, written: rows, progress: 100 }, true);
    return { result: { rows } };
  });

  await app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: o.maxBytes, files: 3, fields: 10, fieldSize: 1000, parts: 15 } });
    // the input guard (core/input-guard.ts) reads the first file part through `req.file()` to check the text
    // fields before it; this route reads every part itself (to count the files) and checks its two fields
    // exactly (isCovered 0 / 1, templateId an id), so the guard's early read is turned off here
    scope.addHook('preValidation', async (req) => {
      (req as unknown as { file?: unknown }).file = undefined;
    });

    scope.post('/api/system/exceltemplate/importData', { schema: { tags: ['system/exceltemplate'], summary: 'Excel: import one .xlsx file with a template (isCovered 0/1)' } }, async (req) => {
      const user = req.user;
      if (!user) throw new ApiError(401, 'unauthorized');
      if (!req.isMultipart()) throw new ApiError(400, M.fileRequired);
      const fields: Record<string, string> = {};
      for (const [k, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) if (typeof v === 'string') fields[k] = v;
      const tmpDir = path.join(jobs.root, 'tmp');
      await fsp.mkdir(tmpDir, { recursive: true });
      let tmp: string | null = null;
      let name = '';
      let files = 0;
      let truncated = false;
      try {
        try {
          for await (const part of req.parts()) {
            if (part.type === 'field') {
              if (typeof part.value === 'string') fields[part.fieldname] = part.value;
              continue;
            }
            files++;
            if (files > 1) {
              part.file.resume(); // drained, refused below
              continue;
            }
            name = part.filename ?? '';
            tmp = path.join(tmpDir, randomUUID());
            await pipeline(part.file, fs.createWriteStream(tmp));
            truncated = part.file.truncated;
          }
        } catch (e) {
          if ((e as { code?: string }).code === 'FST_FILES_LIMIT') throw new ApiError(400, M.oneFile);
          throw new ApiError(400, M.wrongFormat);
        }
        if (files === 0 || !tmp) throw new ApiError(400, M.fileRequired);
        if (files > 1) throw new ApiError(400, M.oneFile);
        if (!/\.xlsx?$/i.test(name)) throw new ApiError(400, M.wrongFormat);
        if (truncated) throw new ApiError(400, 'fileTooLarge', { limit: Math.round(o.maxBytes / 1048576) });
        const cover = fields.isCovered;
        if (cover !== '0' && cover !== '1') throw new ApiError(400, M.coverRequired);
        const size = (await fsp.stat(tmp)).size;
        if (size === 0) throw new ApiError(400, M.fileEmpty);
        const head = Buffer.alloc(8);
        const fd = await fsp.open(tmp, 'r');
        await fd.read(head, 0, 8, 0);
        await fd.close();
        if (isOle2(head)) throw new ApiError(400, M.xlsUnsupported);
        if (!isZip(head)) throw new ApiError(400, M.wrongFormat);
        const t = await loadTemplate(engine, user, fields.templateId);
        await assertButton(engine, o.grants, user, t, 'import');
        await engine.authorize(user, t.resource, 'add');
        if (cover === '1') await engine.authorize(user, t.resource, 'edit');
        const params: ImportParams = { ref: String(t.template.id), templateId: String(t.template.id), isCovered: cover === '1', lang: req.lang };
        const from = tmp;
        const prepare = async (folder: string) => {
          await fsp.rename(from, path.join(folder, INPUT));
          tmp = null;
        };
        const title = String(t.template.fileName);
        if (size > o.inlineBytes) {
          const jobId = await jobs.enqueue(IMPORT_KIND, user, params, { title, prepare });
          return ok({ jobId }, M.queued[req.lang], req.lang);
        }
        const job = await jobs.runNow(IMPORT_KIND, user, params, { title, prepare });
        const result = (job.result ?? {}) as Record<string, unknown>;
        const errorFile = job.hasFile ? `/api/blade-job/job/file?id=${job.id}` : null;
        if (job.status === 'done') return ok({ jobId: job.id, ...result, errorFile }, String(result.message ?? ''), req.lang);
        const text = job.error ?? M.wrongFormat[req.lang];
        throw new ApiError(400, { zh: text, en: text }, undefined, { jobId: job.id, errorFile, ...result });
      } finally {
        if (tmp) await fsp.rm(tmp, { force: true });
      }
    });
  });
}
