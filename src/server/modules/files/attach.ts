/**
 * The attachment administration (spec 002 §2 'attachment', §7 `blade-resource/attach` list, detail, remove,
 * submit; issue 9): the generic resource `resource/attach` (schemas/resource/attach.json) over `blade_attach`,
 * the table every upload writes a row to (`put-file`, routes.ts). Tenant-scoped: an administrator sees and
 * removes the uploads of their own tenant only (another tenant's ids are 404, nothing changes); the grants are
 * the menu `attach` and its buttons (administrators).
 *
 * What the schema cannot say, as engine hooks:
 * - an attachment is created by uploading a file, never by `submit`: a submit without an id is refused with
 *   400 附件只能通过上传文件新增 (nothing stored); an edit may change only `originalName` (the name a download
 *   is saved under — the stored name, link, size and extension are `x-server-only`);
 * - removing an attachment deletes its stored file (`<DATA_DIR>/files/<name>`), and the files of the versions the
 *   online editor kept of it (`kc_file_version`, versions.ts), once the removal committed
 *   (`afterCommit`: a removal that fails keeps its file). Records that still link to the file (a patent's
 *   annex …) then link to nothing: the download answers 404, as for any removed attachment. A file already
 *   missing on disk is no error.
 */
import type { ResourceEngine } from '../../resources/engine.js';
import { ApiError } from '../../core/envelope.js';
import type { Db } from '../../core/db/index.js';
import { sql } from '../../core/db/index.js';
import type { LocalFileStore } from '../../core/file-store.js';

export const ATTACH_RESOURCE = 'resource/attach';

const M = {
  uploadOnly: { zh: '附件只能通过上传文件新增', en: 'Attachments are added by uploading a file' },
};

/** Registers the attachment hooks of the module comment; `store` holds the files, `db` the rows. */
export function registerAttachHooks(engine: ResourceEngine, store: LocalFileStore, db: Db, log: (e: unknown) => void): void {
  engine.hooks(ATTACH_RESOURCE, {
    beforeSubmit({ isNew }) {
      if (isNew) throw new ApiError(400, M.uploadOnly);
    },
    async afterCommit({ action, ids, user }) {
      if (action !== 'remove') return;
      // the rows are removed (committed): their stored names, in the caller's tenant
      const rows = await sql<{ name: string }>`
        SELECT name FROM blade_attach WHERE id = ANY(${ids}::bigint[]) AND tenant_id = ${user.tenantId} AND is_deleted = 1`.execute(db);
      // with the versions the online editor kept of them (versions.ts; their rows stay as the history's record)
      const versions = await sql<{ name: string }>`
        SELECT name FROM kc_file_version WHERE attach_id = ANY(${ids}::bigint[]) AND tenant_id = ${user.tenantId}`.execute(db);
      for (const { name } of [...rows.rows, ...versions.rows]) {
        const abs = store.resolve(name);
        if (abs) await store.discard(abs).catch(log);
      }
    },
  });
}
