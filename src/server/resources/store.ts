/**
 * The schema store (DESIGN §4: 'schemas live in the folder and in the database — what the designer
 * publishes, with history; the registry serves the published version when there is one, else the
 * folder's'). Tables: migration 0003 (`kc_schema_version`, `kc_schema_log`).
 *
 * Versions: per resource name, version 0 is the folder's (`schemas/…json` as loaded at start; never stored)
 * and versions 1, 2, … are what administrators saved from the designer. A stored version is a `draft`, the
 * `published` one (at most one per name: the one served) or `archived` (published once, superseded). No
 * published row = the folder's version is served.
 *
 * - `submit` saves a draft: it overwrites the caller's draft when that is the newest version of the name,
 *   else it adds version max+1. The schema must pass the meta-schema and the registry's rules (400 naming
 *   the fault), keep the name, api, table, key and tenant scope of the resource (400 naming what changed),
 *   and a brand-new resource must not claim a table that already exists (a core table, say).
 * - `publish` makes a version current (a draft, an archived one, or 0 = the folder's) in ONE transaction:
 *   the same checks, then the table sync is planned (`planSync`: a lossy change — a narrower varchar,
 *   another type — is refused with 400 naming the field, and nothing changes), run (add-only: new tables,
 *   new columns, lossless widening, indexes), the version marked published (the previous one archived),
 *   the event logged, and `NOTIFY kc_schema, '<name>'` sent — PostgreSQL delivers it on commit, so every
 *   node (the kernel's LISTEN client, app.ts) reloads the resource from the store only once it is there.
 *   The publishing node reloads at once, so its next request already sees the new version.
 * - `rollback` is a publish of a version that was published before (archived) or of the folder's version
 *   0: the old schema is served again, columns it does not know stay in the table with their data (sync
 *   only adds), they are just not part of the form any more.
 *
 * Publishing takes the advisory lock of table sync (SYNC_LOCK), so it never overlaps a node's start-up sync
 * or another publish; saves and publishes of one name also take a per-name lock.
 *
 * Reloads (NOTIFY or local) run one at a time in arrival order and always read the current version from
 * the database, so nodes converge on what was committed last whatever order their reloads finish in; a
 * periodic `resync` catches up with notifications a node missed while its LISTEN connection was down.
 */
import { createHash } from 'node:crypto';
import { CHANNEL, type Channels } from '../core/channels.js';
import { sql, type Db } from '../core/db/index.js';
import { ApiError } from '../core/envelope.js';
import { nextId } from '../core/ids.js';
import type { AuthUser } from '../core/context.js';
import type { ResourceSchema } from '../../shared/schema/types.js';
import { SchemaLoadError, type Registry, type Resource } from './registry.js';
import { planSync, SyncError, SYNC_LOCK, type SyncReport } from './sync.js';

/** The NOTIFY channel of published schemas; the payload is the resource name. */
export const SCHEMA_CHANNEL = CHANNEL.schema;
/** The version number of the folder's schema. */
export const FOLDER_VERSION = 0;

export type VersionState = 'draft' | 'published' | 'archived';

/** One version of a resource schema, as the API answers it (without the schema itself). */
export interface VersionInfo {
  name: string;
  version: number;
  state: VersionState;
  /** True for the version served now. */
  current: boolean;
  /** `folder` for version 0 (schemas/), `store` for saved versions. */
  source: 'folder' | 'store';
  remark: string | null;
  createUser: string | null;
  createUserName: string | null;
  createTime: string | null;
  updateTime: string | null;
  publishUser: string | null;
  publishUserName: string | null;
  publishTime: string | null;
}

export interface VersionDetail extends VersionInfo {
  schema: ResourceSchema;
}

/** One publish or rollback. */
export interface SchemaEvent {
  id: string;
  name: string;
  action: 'publish' | 'rollback';
  version: number;
  fromVersion: number;
  userId: string | null;
  userName: string | null;
  tenantId: string | null;
  createTime: string;
}

interface VersionRow {
  id: string;
  name: string;
  version: number;
  schema?: ResourceSchema;
  state: VersionState;
  remark: string | null;
  base_hash: string | null;
  create_user: string | null;
  create_user_name: string | null;
  create_time: string;
  update_time: string;
  publish_user: string | null;
  publish_user_name: string | null;
  publish_time: string | null;
}

const INFO_COLUMNS = sql.raw(
  'id, name, version, state, remark, base_hash, create_user, create_user_name, create_time, update_time, publish_user, publish_user_name, publish_time',
);

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A stable hash of a schema (the folder's version a draft was based on). */
export function schemaHash(schema: unknown): string {
  return createHash('sha256').update(JSON.stringify(schema)).digest('hex');
}

const whoName = (user: AuthUser) => (user.realName || user.account || user.userName || '').slice(0, 100) || null;

function toInfo(row: VersionRow): VersionInfo {
  return {
    name: row.name,
    version: row.version,
    state: row.state,
    current: row.state === 'published',
    source: 'store',
    remark: row.remark,
    createUser: row.create_user,
    createUserName: row.create_user_name,
    createTime: row.create_time,
    updateTime: row.update_time,
    publishUser: row.publish_user,
    publishUserName: row.publish_user_name,
    publishTime: row.publish_time,
  };
}

/** True when the resource's rows belong to tenants (not `scope.tenant: false`, not `scope.platform`). */
const tenanted = (s: ResourceSchema) => s.scope?.tenant !== false && s.scope?.platform !== true;

/** What may not change between versions of one resource: its identity, its endpoints' base and its table's shape. */
function fixedChange(name: string, prev: ResourceSchema, next: ResourceSchema): ApiError | null {
  const pairs: Array<[string, unknown, unknown]> = [
    ['name', prev.name, next.name],
    ['api', prev.api, next.api],
    ['table', prev.table, next.table],
    ['key', prev.key ?? 'id', next.key ?? 'id'],
    ['scope.tenant', tenanted(prev), tenanted(next)],
  ];
  for (const [key, from, to] of pairs) if (from !== to) return new ApiError(400, 'schemaFixed', { name, key, from: String(from), to: String(to) });
  return null;
}

export class SchemaStore {
  private queue: Promise<void> = Promise.resolve();
  /** `name@version` of published versions this node could not serve (see overlay and resync). */
  private readonly unservable = new Set<string>();

  constructor(
    readonly db: Db,
    readonly registry: Registry,
    /** Progress and warning lines (startKernel's log). */
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /**
   * At start, after the folder's schemas are loaded and before tables are synced: serves the published
   * version of every resource that has one. A stored version that no longer passes the checks (the
   * meta-schema changed, say) is skipped with a warning and the folder's version is served: data in the
   * database never stops a server from starting. Answers `name@version` of each version overlaid.
   */
  async overlay(): Promise<string[]> {
    const rows = await sql<VersionRow>`SELECT name, version, schema, base_hash FROM kc_schema_version WHERE state = 'published' ORDER BY name`.execute(this.db);
    const out: string[] = [];
    for (const row of rows.rows) {
      try {
        this.registry.replace(this.registry.candidate(row.schema, `${row.name}@${row.version}`, row.version));
        out.push(`${row.name}@${row.version}`);
        const folder = this.registry.folder.get(row.name);
        if (folder && row.base_hash && row.base_hash !== schemaHash(folder.schema)) {
          this.log(
            `schema ${row.name}: ${folder.file} changed since version ${row.version} was saved; version ${row.version} is served ` +
              '(publish a new version, or roll back to version 0, to serve the file)',
          );
        }
      } catch (e) {
        this.unservable.add(`${row.name}@${row.version}`);
        this.log(`schema ${row.name}: published version ${row.version} cannot be served (${(e as Error).message}); serving the folder's version`);
      }
    }
    return out;
  }

  /** Reloads a resource whenever a node publishes it (`kc_schema`, core/channels.ts). */
  async listen(channels: Channels): Promise<void> {
    await channels.subscribe(CHANNEL.schema, (payload) => {
      if (!payload) return;
      this.reload(payload).catch((e) => this.log(`schema ${payload}: reload failed: ${(e as Error).message}`));
    });
  }

  /**
   * Reloads every resource whose served version is not the store's current one: the safety net for a
   * notification this node missed (its LISTEN connection was down, say), run periodically by the kernel.
   * A published version that cannot be served is reported once, not on every run. Answers the names reloaded.
   */
  async resync(): Promise<string[]> {
    const rows = await sql<{ name: string; version: number }>`SELECT name, version FROM kc_schema_version WHERE state = 'published'`.execute(this.db);
    const published = new Map(rows.rows.map((r) => [r.name, r.version]));
    const stale = new Set<string>();
    for (const [name, version] of published) {
      if (this.registry.resources.get(name)?.version !== version && !this.unservable.has(`${name}@${version}`)) stale.add(name);
    }
    for (const r of this.registry.resources.values()) if (r.version !== FOLDER_VERSION && !published.has(r.schema.name)) stale.add(r.schema.name);
    const done: string[] = [];
    for (const name of stale) {
      try {
        await this.reload(name);
        done.push(name);
      } catch (e) {
        this.unservable.add(`${name}@${published.get(name)}`);
        this.log(`schema ${name}: reload failed: ${(e as Error).message}`);
      }
    }
    return done;
  }

  /**
   * Serves the current version of `name` as the store says (the published one, else the folder's; neither:
   * the resource is no longer served). `prepared` is that version already derived (the publishing node's).
   */
  reload(name: string, prepared?: Resource): Promise<void> {
    const run = this.queue.then(() => this.apply(name, prepared));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async apply(name: string, prepared?: Resource): Promise<void> {
    const row = (await sql<VersionRow>`SELECT version, schema FROM kc_schema_version WHERE name = ${name} AND state = 'published'`.execute(this.db)).rows[0];
    const have = this.registry.resources.get(name);
    if (row) {
      if (have?.version === row.version) return;
      this.registry.replace(prepared?.version === row.version ? prepared : this.registry.candidate(row.schema, `${name}@${row.version}`, row.version));
      return;
    }
    const folder = this.registry.folder.get(name);
    if (!folder) {
      if (have) this.registry.remove(name);
      return;
    }
    if (have?.version === FOLDER_VERSION) return;
    this.registry.replace(prepared?.version === FOLDER_VERSION ? prepared : this.registry.candidate(folder.schema, folder.file, FOLDER_VERSION));
  }

  /** Checks and derives `parsed` (400 naming the fault); the caller discards the result. */
  private derive(parsed: unknown, file: string, version: number): Resource {
    try {
      return this.registry.candidate(parsed, file, version);
    } catch (e) {
      if (e instanceof SchemaLoadError) throw new ApiError(400, 'schemaInvalid', { file: e.file, fault: e.fault });
      throw e;
    }
  }

  /**
   * The version that fixes `name`'s identity: the served one, else the folder's, else the newest version that
   * was ever published (a new resource rolled back); null for a resource that never existed.
   */
  private async reference(db: Db, name: string): Promise<ResourceSchema | null> {
    const served = this.registry.resources.get(name) ?? this.registry.folder.get(name);
    if (served) return served.schema;
    const row = (
      await sql<{ schema: ResourceSchema }>`SELECT schema FROM kc_schema_version WHERE name = ${name} AND state <> 'draft' ORDER BY version DESC LIMIT 1`.execute(db)
    ).rows[0];
    return row?.schema ?? null;
  }

  /** 400 when `schema` changes what must stay, or when a new resource would take over an existing table. */
  private async vetIdentity(db: Db, schema: ResourceSchema): Promise<void> {
    const prev = await this.reference(db, schema.name);
    if (prev) {
      const err = fixedChange(schema.name, prev, schema);
      if (err) throw err;
      return;
    }
    const taken = await sql`SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ${schema.table}`.execute(db);
    if (taken.rows.length) throw new ApiError(400, 'schemaTableTaken', { table: schema.table });
  }

  private async lockName(db: Db, name: string): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`kc_schema:${name}`}))`.execute(db);
  }

  /**
   * Saves a draft from `{schema, remark?, name?}` (`name`, when given, is the resource being edited and must
   * be the schema's). Answers the saved version with its schema.
   */
  async submit(user: AuthUser, body: unknown): Promise<VersionDetail> {
    if (!isObject(body)) throw new ApiError(400, 'bodyNotObject');
    const { schema, remark, name } = body;
    if (schema === undefined || schema === null) throw new ApiError(400, 'missingParam', { param: 'schema' });
    if (!isObject(schema)) throw new ApiError(400, 'badParam', { param: 'schema' });
    if (remark !== undefined && remark !== null && (typeof remark !== 'string' || remark.length > 500)) throw new ApiError(400, 'badParam', { param: 'remark' });
    if (name !== undefined && (typeof name !== 'string' || name.length > 200)) throw new ApiError(400, 'badParam', { param: 'name' });
    const label = typeof schema.name === 'string' && schema.name ? schema.name : (name ?? 'schema');
    if (name !== undefined && name !== schema.name) throw new ApiError(400, 'schemaFixed', { name, key: 'name', from: name, to: String(schema.name ?? '') });
    const checked = this.derive(schema, label, 0);
    this.registry.discard(checked);
    const s = checked.schema;
    const folder = this.registry.folder.get(s.name);
    return this.db.transaction().execute(async (trx) => {
      await this.lockName(trx, s.name);
      await this.vetIdentity(trx, s);
      const latest = (
        await sql<VersionRow>`SELECT ${INFO_COLUMNS} FROM kc_schema_version WHERE name = ${s.name} ORDER BY version DESC LIMIT 1 FOR UPDATE`.execute(trx)
      ).rows[0];
      const json = JSON.stringify(s);
      let saved: VersionRow;
      if (latest && latest.state === 'draft' && latest.create_user === user.userId) {
        saved = (
          await sql<VersionRow>`UPDATE kc_schema_version SET schema = ${json}::json, remark = ${remark ?? null}, update_time = now()
                                 WHERE id = ${latest.id}::bigint RETURNING ${INFO_COLUMNS}`.execute(trx)
        ).rows[0];
      } else {
        saved = (
          await sql<VersionRow>`INSERT INTO kc_schema_version (id, name, version, schema, state, remark, base_hash, create_user, create_user_name)
                                 VALUES (${nextId()}::bigint, ${s.name}, ${(latest?.version ?? 0) + 1}, ${json}::json, 'draft', ${remark ?? null},
                                         ${folder ? schemaHash(folder.schema) : null}, ${user.userId}::bigint, ${whoName(user)})
                                 RETURNING ${INFO_COLUMNS}`.execute(trx)
        ).rows[0];
      }
      return { ...toInfo(saved), schema: s };
    });
  }

  /**
   * Makes `version` of `name` the served one (see the file comment). `rollback` only accepts a version that
   * was published before (or 0, the folder's). Answers the version and what the table sync did.
   */
  async publish(user: AuthUser, name: string, version: number, action: 'publish' | 'rollback'): Promise<VersionInfo & { sync: SyncReport }> {
    let candidate: Resource | undefined;
    try {
      const report = await this.db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(${SYNC_LOCK})`.execute(trx);
        await this.lockName(trx, name);
        const current = (await sql<{ version: number }>`SELECT version FROM kc_schema_version WHERE name = ${name} AND state = 'published'`.execute(trx)).rows[0];
        const currentVersion = current?.version ?? FOLDER_VERSION;
        let schema: unknown;
        let file: string;
        let state: VersionState;
        if (version === FOLDER_VERSION) {
          const folder = this.registry.folder.get(name);
          if (!folder) throw new ApiError(404, 'schemaVersionNotFound', { name, version });
          schema = folder.schema;
          file = folder.file;
          state = current ? 'archived' : 'published';
        } else {
          const row = (await sql<VersionRow>`SELECT state, schema FROM kc_schema_version WHERE name = ${name} AND version = ${version} FOR UPDATE`.execute(trx)).rows[0];
          if (!row) throw new ApiError(404, 'schemaVersionNotFound', { name, version });
          schema = row.schema;
          file = `${name}@${version}`;
          state = row.state;
        }
        if (action === 'rollback' && (state !== 'archived' || version === currentVersion)) throw new ApiError(400, 'schemaRollbackTarget', { current: currentVersion });
        // publishing the version that is already current changes nothing (a retried request, say)
        if (state === 'published') return null;
        candidate = this.derive(schema, file, version);
        await this.vetIdentity(trx, candidate.schema);
        let plan: Awaited<ReturnType<typeof planSync>>;
        try {
          plan = await planSync(trx, candidate);
        } catch (e) {
          if (e instanceof SyncError) throw new ApiError(400, { zh: e.zh, en: e.en }, undefined, { field: e.field });
          throw e;
        }
        for (const statement of plan.statements) await sql.raw(statement).execute(trx);
        await sql`UPDATE kc_schema_version SET state = 'archived' WHERE name = ${name} AND state = 'published' AND version <> ${version}`.execute(trx);
        if (version !== FOLDER_VERSION) {
          await sql`UPDATE kc_schema_version SET state = 'published', publish_user = ${user.userId}::bigint, publish_user_name = ${whoName(user)}, publish_time = now()
                     WHERE name = ${name} AND version = ${version}`.execute(trx);
        }
        await sql`INSERT INTO kc_schema_log (id, name, action, version, from_version, user_id, user_name, tenant_id)
                  VALUES (${nextId()}::bigint, ${name}, ${action}, ${version}, ${currentVersion}, ${user.userId}::bigint, ${whoName(user)}, ${user.tenantId})`.execute(trx);
        // delivered on commit: the other nodes reload only once the version is there to read
        await sql`SELECT pg_notify(${SCHEMA_CHANNEL}, ${name})`.execute(trx);
        return plan.report;
      });
      await this.reload(name, candidate);
      const info = (await this.versions(name))?.find((v) => v.version === version);
      return { ...info!, sync: report ?? { created: [], added: [], widened: [] } };
    } finally {
      if (candidate) this.registry.discard(candidate);
    }
  }

  /** Every version of `name`, newest first, the folder's (0) last; null when the name is unknown. */
  async versions(name: string): Promise<VersionInfo[] | null> {
    const rows = (await sql<VersionRow>`SELECT ${INFO_COLUMNS} FROM kc_schema_version WHERE name = ${name} ORDER BY version DESC`.execute(this.db)).rows;
    const folder = this.registry.folder.get(name);
    if (!rows.length && !folder && !this.registry.resources.has(name)) return null;
    const list = rows.map(toInfo);
    if (folder) {
      const published = rows.some((r) => r.state === 'published');
      list.push({
        name, version: FOLDER_VERSION, state: published ? 'archived' : 'published', current: !published, source: 'folder', remark: folder.file,
        createUser: null, createUserName: null, createTime: null, updateTime: null, publishUser: null, publishUserName: null, publishTime: null,
      });
    }
    return list;
  }

  /** One version of `name` with its schema, or null. */
  async version(name: string, version: number): Promise<VersionDetail | null> {
    if (version === FOLDER_VERSION) {
      const folder = this.registry.folder.get(name);
      if (!folder) return null;
      const info = (await this.versions(name))!.find((v) => v.version === FOLDER_VERSION)!;
      return { ...info, schema: folder.schema };
    }
    const row = (await sql<VersionRow>`SELECT ${INFO_COLUMNS}, schema FROM kc_schema_version WHERE name = ${name} AND version = ${version}`.execute(this.db)).rows[0];
    return row ? { ...toInfo(row), schema: row.schema! } : null;
  }

  /** The publishes and rollbacks of `name`, newest first (at most 200). */
  async history(name: string): Promise<SchemaEvent[]> {
    const rows = await sql<{ id: string; name: string; action: 'publish' | 'rollback'; version: number; from_version: number; user_id: string | null; user_name: string | null; tenant_id: string | null; create_time: string }>`
      SELECT id, name, action, version, from_version, user_id, user_name, tenant_id, create_time FROM kc_schema_log
       WHERE name = ${name} ORDER BY create_time DESC, id DESC LIMIT 200`.execute(this.db);
    return rows.rows.map((r) => ({
      id: r.id, name: r.name, action: r.action, version: r.version, fromVersion: r.from_version, userId: r.user_id, userName: r.user_name, tenantId: r.tenant_id, createTime: r.create_time,
    }));
  }
}
