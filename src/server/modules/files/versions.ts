/**
 * Versions and edit locks of stored files (issue 17 "the online editor"; DESIGN §8 "Documents": edit, save as a
 * new version, lock while editing, history). The HTTP calls are editor.ts; this file is the storage rule.
 *
 * Versions (`kc_file_version`): a document keeps its `blade_attach` row — id, stored name and link — for life,
 * so every record linking to it and every module reading it (the files module's download, downloadZip, the
 * bidding documents' chapter merge) reads the *current* bytes at that stored name as before. Each version's
 * bytes are also kept in a file of their own (a fresh stored name with no attachment row, so no download
 * serves it) that never changes. Version 1 is the upload: it has no row until the first save, which first
 * copies the bytes as uploaded into version 1's file. A save or a restore writes version n + 1 and replaces the
 * current bytes (a rename over the stored name: readers see the old or the new file, never half of one). A
 * restore is a new version with the chosen version's bytes, byte for byte (`restored_from` says which).
 *
 * Locks (`kc_file_lock`): one row per document, the holder and their last sign of life. A lock lapses
 * `idleSeconds` after the last sign of life (the open editor refreshes it every 30 s; a closed browser stops),
 * and is released by close. Taking a lock is one statement (an upsert that only overwrites a lapsed lock or
 * the caller's own), so two users opening at once cannot both get it.
 *
 * Writes happen in one transaction holding the attachment row (`FOR UPDATE`): two saves of one document are
 * serialised and get consecutive versions. Files are written before the commit and removed again when the
 * transaction fails; the rename over the current bytes is the transaction's last step before the commit.
 */
import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { sql, type Db } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';
import type { ModuleMigrations } from '../../core/db/migrate.js';
import type { EditLock, FileVersion } from '../../../shared/contract/editor.js';
import type { LocalFileStore } from '../../core/file-store.js';
import type { StoredFile } from '../../core/file-access.js';

type Row = Record<string, unknown>;

export const migrations: ModuleMigrations = {
  '0001_file_versions': {
    async up(db: Kysely<any>) {
      await sql`CREATE TABLE kc_file_version (
        id bigint PRIMARY KEY, tenant_id varchar(12) NOT NULL, attach_id bigint NOT NULL, version integer NOT NULL,
        name varchar(500) NOT NULL, size bigint NOT NULL, sha256 char(64) NOT NULL, restored_from integer,
        create_user bigint, create_time timestamptz NOT NULL DEFAULT now())`.execute(db);
      await sql`CREATE UNIQUE INDEX kc_file_version_key ON kc_file_version (tenant_id, attach_id, version)`.execute(db);
      await sql`CREATE TABLE kc_file_lock (
        tenant_id varchar(12) NOT NULL, attach_id bigint NOT NULL, user_id bigint NOT NULL,
        since timestamptz NOT NULL DEFAULT now(), last_active timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, attach_id))`.execute(db);
    },
  },
};

/** The attachment row a document is (a live row of the caller's tenant). */
export interface DocRow extends StoredFile {
  createTime: string;
  updateUser: string;
  updateTime: string;
}

const fmt = (col: string, tz: string) => sql`to_char(${sql.ref(col)} AT TIME ZONE ${tz}, 'YYYY-MM-DD HH24:MI:SS')`;

export class FileVersions {
  constructor(
    private readonly db: Db,
    private readonly store: LocalFileStore,
    private readonly timeZone: string,
    /** Seconds without a sign of life after which a lock lapses. */
    readonly idleSeconds: number,
  ) {}

  /** The live attachment `id` of `tenantId`, or null. */
  async find(tenantId: string, id: string, db: Db = this.db, forUpdate = false): Promise<DocRow | null> {
    const tz = this.timeZone;
    const r = await sql<Row>`
      SELECT id::text AS id, tenant_id, name, original_name, extension, attach_size::text AS size, create_user::text AS create_user,
             ${fmt('create_time', tz)} AS create_time, coalesce(update_user, create_user)::text AS update_user,
             ${fmt('update_time', tz)} AS update_time
        FROM blade_attach WHERE tenant_id = ${tenantId} AND id = ${id}::bigint AND is_deleted = 0
        ${forUpdate ? sql`FOR UPDATE` : sql``}`.execute(db);
    const x = r.rows[0];
    if (!x) return null;
    return {
      id: String(x.id), tenantId: String(x.tenant_id), name: String(x.name), originalName: String(x.original_name ?? ''),
      extension: String(x.extension ?? ''), size: Number(x.size ?? 0), createUser: String(x.create_user ?? ''),
      createTime: String(x.create_time ?? ''), updateUser: String(x.update_user ?? ''), updateTime: String(x.update_time ?? ''),
    };
  }

  /** The versions of `doc`, newest first; version 1 is the upload itself while no save made rows. */
  async history(doc: DocRow): Promise<FileVersion[]> {
    const tz = this.timeZone;
    const rows = (await sql<Row>`
      SELECT v.version, v.size::text AS size, v.create_user::text AS create_user, coalesce(u.real_name, u.account, '') AS user_name,
             ${fmt('v.create_time', tz)} AS create_time, v.restored_from
        FROM kc_file_version v LEFT JOIN blade_user u ON u.id = v.create_user
       WHERE v.tenant_id = ${doc.tenantId} AND v.attach_id = ${doc.id}::bigint ORDER BY v.version DESC`.execute(this.db)).rows;
    if (rows.length === 0) {
      return [{ version: 1, size: doc.size, createUser: doc.createUser, createUserName: await this.userName(doc.createUser), createTime: doc.createTime, restoredFrom: null, current: true }];
    }
    return rows.map((x, i) => ({
      version: Number(x.version), size: Number(x.size), createUser: String(x.create_user ?? ''), createUserName: String(x.user_name ?? ''),
      createTime: String(x.create_time), restoredFrom: x.restored_from === null ? null : Number(x.restored_from), current: i === 0,
    }));
  }

  /** The stored name holding version `version`'s bytes (the current file for an unsaved version 1), or null. */
  async versionName(doc: DocRow, version: number): Promise<string | null> {
    const r = await sql<{ name: string; version: number }>`
      SELECT name, version FROM kc_file_version WHERE tenant_id = ${doc.tenantId} AND attach_id = ${doc.id}::bigint AND version = ${version}`.execute(this.db);
    if (r.rows[0]) return r.rows[0].name;
    if (version !== 1) return null;
    const any = await sql`SELECT 1 FROM kc_file_version WHERE tenant_id = ${doc.tenantId} AND attach_id = ${doc.id}::bigint LIMIT 1`.execute(this.db);
    return any.rows.length ? null : doc.name;
  }

  /** The current version number of `doc`. */
  async current(doc: DocRow, db: Db = this.db): Promise<number> {
    const r = await sql<{ v: number | null }>`SELECT max(version) AS v FROM kc_file_version WHERE tenant_id = ${doc.tenantId} AND attach_id = ${doc.id}::bigint`.execute(db);
    return r.rows[0]?.v ?? 1;
  }

  /** The real name (else account) of user `id`, '' when unknown. */
  async userName(id: string): Promise<string> {
    if (!/^\d+$/.test(id)) return '';
    const r = await sql<{ n: string }>`SELECT coalesce(real_name, account, '') AS n FROM blade_user WHERE id = ${id}::bigint`.execute(this.db);
    return r.rows[0]?.n ?? '';
  }

  /** The live (not lapsed) lock of `doc`, as seen by `userId`, or null. */
  async lock(doc: DocRow, userId: string, db: Db = this.db): Promise<EditLock | null> {
    const tz = this.timeZone;
    const r = await sql<Row>`
      SELECT l.user_id::text AS user_id, coalesce(u.real_name, u.account, '') AS user_name, ${fmt('l.since', tz)} AS since,
             ${fmt('l.last_active', tz)} AS last_active,
             to_char((l.last_active + make_interval(secs => ${this.idleSeconds})) AT TIME ZONE ${tz}, 'YYYY-MM-DD HH24:MI:SS') AS expires_at
        FROM kc_file_lock l LEFT JOIN blade_user u ON u.id = l.user_id
       WHERE l.tenant_id = ${doc.tenantId} AND l.attach_id = ${doc.id}::bigint
         AND l.last_active > now() - make_interval(secs => ${this.idleSeconds})`.execute(db);
    const x = r.rows[0];
    if (!x) return null;
    return { userId: String(x.user_id), userName: String(x.user_name), since: String(x.since), lastActive: String(x.last_active), expiresAt: String(x.expires_at), mine: String(x.user_id) === userId };
  }

  /**
   * Takes `doc`'s lock for `userId`, or refreshes it when they hold it; a lapsed lock of anyone is taken over.
   * Answers the lock now in force (the caller's when `mine`, else the other holder's).
   */
  async acquire(doc: DocRow, userId: string, db: Db = this.db): Promise<EditLock> {
    await sql`
      INSERT INTO kc_file_lock AS l (tenant_id, attach_id, user_id) VALUES (${doc.tenantId}, ${doc.id}::bigint, ${userId}::bigint)
      ON CONFLICT (tenant_id, attach_id) DO UPDATE
         SET user_id = excluded.user_id, last_active = now(),
             since = CASE WHEN l.user_id = excluded.user_id THEN l.since ELSE now() END
       WHERE l.user_id = excluded.user_id OR l.last_active <= now() - make_interval(secs => ${this.idleSeconds})`.execute(db);
    const lock = await this.lock(doc, userId, db);
    if (!lock) throw new Error('lock vanished'); // the row was just written or is held by someone: cannot happen
    return lock;
  }

  /** Releases `doc`'s lock when `userId` holds it; answers whether something was released. */
  async release(doc: DocRow, userId: string): Promise<boolean> {
    const r = await sql`DELETE FROM kc_file_lock WHERE tenant_id = ${doc.tenantId} AND attach_id = ${doc.id}::bigint AND user_id = ${userId}::bigint`.execute(this.db);
    return Number(r.numAffectedRows ?? 0) > 0;
  }

  /**
   * Writes a new version of `doc` from the checked temporary file `tmp` (see the module comment): in one
   * transaction holding the attachment row, with the caller's lock taken or refreshed. `check` runs inside the
   * transaction with the lock now in force and throws to refuse (another holder). Answers the new version.
   */
  async write(doc: DocRow, userId: string, tmp: string, restoredFrom: number | null, check: (lock: EditLock) => void): Promise<{ version: number; size: number; createTime: string }> {
    const bytes = await fsp.readFile(tmp);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const created: string[] = [];
    const keep = async (source: string | Buffer): Promise<string> => {
      const name = this.store.newName('docx', this.timeZone);
      const abs = this.store.resolve(name)!;
      await fsp.mkdir(path.dirname(abs), { recursive: true });
      created.push(abs);
      if (typeof source === 'string') await fsp.copyFile(source, abs);
      else await fsp.writeFile(abs, source, { mode: 0o640 });
      return name;
    };
    try {
      return await this.db.transaction().execute(async (trx) => {
        const row = await this.find(doc.tenantId, doc.id, trx, true);
        if (!row) throw new Error('document vanished');
        check(await this.acquire(row, userId, trx));
        let current = await this.current(row, trx);
        const none = (await sql`SELECT 1 FROM kc_file_version WHERE tenant_id = ${row.tenantId} AND attach_id = ${row.id}::bigint LIMIT 1`.execute(trx)).rows.length === 0;
        if (none) {
          // version 1: the bytes as uploaded, kept before they are replaced
          const abs = this.store.resolve(row.name);
          if (!abs) throw new Error(`not a stored name: ${row.name}`);
          const first = await fsp.readFile(abs);
          const name1 = await keep(first);
          await sql`INSERT INTO kc_file_version (id, tenant_id, attach_id, version, name, size, sha256, create_user, create_time)
                    SELECT ${nextId()}::bigint, tenant_id, id, 1, ${name1}, ${first.length}, ${createHash('sha256').update(first).digest('hex')}, create_user, create_time
                      FROM blade_attach WHERE id = ${row.id}::bigint AND tenant_id = ${row.tenantId}`.execute(trx);
          current = 1;
        }
        const version = current + 1;
        const name = await keep(bytes);
        const ins = await sql<{ t: string }>`
          INSERT INTO kc_file_version (id, tenant_id, attach_id, version, name, size, sha256, restored_from, create_user)
          VALUES (${nextId()}::bigint, ${row.tenantId}, ${row.id}::bigint, ${version}, ${name}, ${bytes.length}, ${sha}, ${restoredFrom}, ${userId}::bigint)
          RETURNING ${fmt('create_time', this.timeZone)} AS t`.execute(trx);
        await sql`UPDATE blade_attach SET attach_size = ${bytes.length}, update_user = ${userId}::bigint, update_time = now()
                   WHERE id = ${row.id}::bigint AND tenant_id = ${row.tenantId}`.execute(trx);
        // last step: the current bytes, replaced in one rename
        await this.store.commit(tmp, row.name);
        return { version, size: bytes.length, createTime: ins.rows[0].t };
      });
    } catch (e) {
      for (const abs of created) await this.store.discard(abs);
      throw e;
    }
  }
}
