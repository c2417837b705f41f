/**
 * The stored files of the bidding area (issue 17): a bid's files are ordinary uploads — blade_attach rows and
 * their bytes in the files module's store (`<DATA_DIR>/files/upload/{yyyyMMdd}/{uuid}.{ext}`), so that the
 * download, the attachment list and the online editor treat them as any file. The editor's save keeps the row
 * (its id) and points it at the new bytes, so `read` always answers a chapter's current version.
 */
import { Readable } from 'node:stream';
import { sql, type Db } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';
import type { AuthUser } from '../../core/context.js';
import { isId } from '../../../shared/contract/ids.js';
import type { LocalFileStore } from '../../core/file-store.js';
import { FILE_DOMAIN } from '../../core/file-store.js';

export interface StoredFile {
  attachId: string;
  name: string;
  originalName: string;
  extension: string;
  bytes: Buffer;
}

export class BidFiles {
  constructor(
    private readonly db: Db,
    private readonly store: LocalFileStore,
    private readonly timeZone: string,
  ) {}

  /** The live file of `tenantId` with blade_attach id `attachId` or stored name `name`, with its current bytes; null when unknown or missing on disk. */
  async read(tenantId: string, by: { attachId?: string; name?: string }): Promise<StoredFile | null> {
    if (by.attachId !== undefined && !isId(by.attachId)) return null;
    const row = (
      await (by.attachId !== undefined
        ? sql<{ id: string; name: string; original_name: string; extension: string }>`SELECT id::text AS id, name, original_name, extension FROM blade_attach
            WHERE tenant_id = ${tenantId} AND id = ${by.attachId}::bigint AND is_deleted = 0`
        : sql<{ id: string; name: string; original_name: string; extension: string }>`SELECT id::text AS id, name, original_name, extension FROM blade_attach
            WHERE tenant_id = ${tenantId} AND name = ${by.name ?? ''} AND is_deleted = 0 ORDER BY id DESC LIMIT 1`
      ).execute(this.db)
    ).rows[0];
    if (!row) return null;
    const abs = this.store.resolve(row.name);
    if (!abs) return null;
    const fs = await import('node:fs/promises');
    const bytes = await fs.readFile(abs).catch(() => null);
    if (!bytes) return null;
    return { attachId: row.id, name: row.name, originalName: row.original_name, extension: (row.extension || '').toLowerCase(), bytes };
  }

  /**
   * Stores `bytes` as a new upload of `user` named `originalName` (extension `ext`, whitelisted by the caller);
   * the row is written in `trx` and the bytes are removed again if `trx` fails (`discard` in the answer).
   */
  async create(trx: Db, user: AuthUser, bytes: Buffer, originalName: string, ext: string): Promise<{ attachId: string; name: string; link: string; discard: () => Promise<void> }> {
    const received = await this.store.receive(Readable.from([bytes]), 0);
    const name = this.store.newName(ext, this.timeZone);
    const abs = await this.store.commit(received.tmp, name);
    const link = `${FILE_DOMAIN}/${name}`;
    const id = nextId();
    await sql`INSERT INTO blade_attach (id, tenant_id, link, domain, name, original_name, extension, attach_size, create_user, create_dept, update_user)
              VALUES (${id}::bigint, ${user.tenantId}, ${link}, ${FILE_DOMAIN}, ${name}, ${originalName}, ${ext}, ${bytes.length},
                      ${user.userId}::bigint, ${user.deptId || null}::bigint, ${user.userId}::bigint)`.execute(trx);
    return { attachId: id, name, link, discard: () => this.store.discard(abs) };
  }
}
