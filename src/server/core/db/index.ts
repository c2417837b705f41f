/**
 * The database handle: a `pg` pool wrapped by Kysely (DESIGN §2 SQL), plus how values cross the boundary.
 *
 * Value conventions (DESIGN §6):
 * - `bigint` (int8) comes back as a string: snowflake ids exceed 2^53 and are strings in JSON.
 * - `numeric` comes back as a JS number (amounts and measures in this domain fit a double).
 * - `date` comes back as `yyyy-MM-dd`; `timestamptz` as `yyyy-MM-dd HH:mm:ss` in the configured time zone
 *   (every connection sets `TimeZone`, so the text form PostgreSQL sends is already local time).
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';

/** Kysely with untyped tables: resource tables are created from schemas at run time. */
export type Db = Kysely<any>;

const types = {
  getTypeParser(oid: number, format?: any) {
    switch (oid) {
      case 20: // int8
      case 1700: // numeric
        return oid === 20 ? (v: string) => v : (v: string) => Number(v);
      case 1082: // date
        return (v: string) => v;
      case 1114: // timestamp
      case 1184: // timestamptz: "2026-11-22 17:37:14.123+08" → "2026-11-22 17:37:14"
        return (v: string) => v.slice(0, 19);
      default:
        return pg.types.getTypeParser(oid, format);
    }
  },
};

export interface Database {
  db: Db;
  pool: pg.Pool;
  url: string;
  close(): Promise<void>;
}

/**
 * Opens a pool of at most `max` connections (default 20) to `url`, each in time zone `timeZone`, with a 60 s
 * statement timeout and JIT compilation off: the platform's queries are short OLTP reads and writes, and
 * PostgreSQL's JIT (on by default since 12) compiles any plan costed above jit_above_cost — a deep list page
 * over 100k rows — spending tens to hundreds of milliseconds compiling a query that runs in a few (measured in
 * `npm run bench:api`, mixed scenario).
 */
export function openDatabase(url: string, timeZone: string, max = 20): Database {
  const pool = openPool(url, timeZone, { max });
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    pool,
    url,
    close: async () => {
      await db.destroy();
    },
  };
}

/** What a pool's connections are opened with besides the defaults of `openDatabase`. */
export interface PoolOptions {
  /** Most connections at once. */
  max: number;
  /** More server settings for every connection (`-c name=value`), e.g. a pool of one kind of query. */
  settings?: Record<string, string>;
  /** A connection is closed and replaced after this many queries (what it keeps, e.g. prepared plans, goes with it). */
  maxUses?: number;
}

/**
 * A `pg` pool to `url` with the value conventions above and every connection in time zone `timeZone`, with a
 * 60 s statement timeout, JIT off (see `openDatabase`) and `o.settings`. Names and values of settings are the
 * caller's constants, never input. Errors of idle connections are logged, not thrown.
 */
export function openPool(url: string, timeZone: string, o: PoolOptions): pg.Pool {
  const settings = { TimeZone: timeZone, statement_timeout: '60000', jit: 'off', ...o.settings };
  const pool = new pg.Pool({
    connectionString: url,
    max: o.max,
    ...(o.maxUses ? { maxUses: o.maxUses } : {}),
    types: types as any,
    options: Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`).join(' '),
  });
  pool.on('error', (e) => console.error('[db] idle client error:', e.message));
  return pool;
}

/**
 * Runs a `CREATE … IF NOT EXISTS` statement (`ddl`, complete SQL text) made at run time, serialized per `name`
 * (the object created) across every connection and node by an advisory lock held for the statement's
 * transaction. Why: IF NOT EXISTS is not safe under concurrency — two first calls at once both find nothing and
 * the second fails on a catalog's unique index (pg_namespace, pg_type, pg_class: 23505), a 500 for the caller.
 */
export async function createOnce(db: Db, name: string, ddl: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`kc-ddl:${name}`}))`.execute(trx);
    await sql.raw(ddl).execute(trx);
  });
}

export { sql };
