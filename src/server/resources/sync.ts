/**
 * Table sync (DESIGN §4): makes each resource's table match its schema by adding only.
 *
 * - A missing table is created with every column, the key as primary key, and the indexes below.
 * - A missing column is added (nullable; existing rows keep their data).
 * - A column whose type changes without loss is widened: varchar(n) → varchar(m ≥ n), varchar → text,
 *   integer → bigint. Any other change (a narrower length, another type) is refused with `SyncError`
 *   naming the table, the field and both types; nothing of that resource is changed (one transaction).
 * - Columns that left the schema stay (their data is kept).
 * - Indexes (every one starting with tenant_id on tenant tables, DESIGN §12): the list order
 *   (tenant_id, create_time DESC, key DESC) over live rows; (tenant_id, create_user) and
 *   (tenant_id, create_dept) for myList and list-for-myCompany; a pg_trgm GIN index per `like` search field
 *   (DESIGN §13: ILIKE '%…%' is seconds without it); a b-tree per `equal` search field and per tree parent;
 *   (tenant_id, column, key) over live rows per sortable list column (a sorted page is an index scan).
 *
 * Sync runs under a transaction-scoped advisory lock, so nodes starting together do not race.
 */
import { sql, type Db } from '../core/db/index.js';
import type { Resource } from './registry.js';
import { t } from '../../shared/i18n/messages.js';

/** The transaction-scoped advisory lock every table sync takes (start-up syncs and publishing, store.ts). */
export const SYNC_LOCK = 7172001;

export class SyncError extends Error {
  constructor(
    readonly zh: string,
    readonly en: string,
    readonly field: string,
  ) {
    super(zh);
  }
}

/** Normalises a type to information_schema spelling: `varchar(12)` → `character varying(12)`. */
export function normaliseType(tpe: string): string {
  const s = tpe.trim().toLowerCase();
  const m = /^(?:varchar|character varying)\s*\((\d+)\)$/.exec(s);
  if (m) return `character varying(${m[1]})`;
  const aliases: Record<string, string> = {
    varchar: 'character varying',
    int: 'integer',
    int4: 'integer',
    int8: 'bigint',
    timestamptz: 'timestamp with time zone',
    bool: 'boolean',
    float8: 'double precision',
  };
  return aliases[s] ?? s;
}

/** True when a column of type `from` can become `to` without losing data. */
export function isLossless(from: string, to: string): boolean {
  if (from === to) return true;
  const len = (s: string) => Number(/^character varying\((\d+)\)$/.exec(s)?.[1] ?? NaN);
  if (from.startsWith('character varying(') && to.startsWith('character varying(')) return len(to) >= len(from);
  if ((from.startsWith('character varying') || from === 'character varying') && to === 'text') return true;
  if (from === 'integer' && to === 'bigint') return true;
  return false;
}

const q = (ident: string) => '"' + ident.replace(/"/g, '""') + '"';

/** The CREATE INDEX statements of a resource (all IF NOT EXISTS). */
function indexStatements(r: Resource): string[] {
  const tbl = r.schema.table;
  const tenant = r.tenantScoped ? 'tenant_id, ' : '';
  const out = [
    `CREATE INDEX IF NOT EXISTS ${q(`${tbl}_list_idx`)} ON ${q(tbl)} (${tenant}create_time DESC, ${q(r.keyColumn)} DESC) WHERE is_deleted = 0`,
    `CREATE INDEX IF NOT EXISTS ${q(`${tbl}_cu_idx`)} ON ${q(tbl)} (${tenant}create_user) WHERE is_deleted = 0`,
    `CREATE INDEX IF NOT EXISTS ${q(`${tbl}_cd_idx`)} ON ${q(tbl)} (${tenant}create_dept) WHERE is_deleted = 0`,
  ];
  for (const s of r.schema.list?.search ?? []) {
    const col = r.byField.get(s.field);
    if (!col) continue;
    if ((s.operator ?? 'like') === 'like' && col.kind === 'text') {
      out.push(`CREATE INDEX IF NOT EXISTS ${q(`${tbl}_${col.column}_trgm`)} ON ${q(tbl)} USING gin (${q(col.column)} gin_trgm_ops)`);
    } else {
      out.push(`CREATE INDEX IF NOT EXISTS ${q(`${tbl}_${col.column}_idx`)} ON ${q(tbl)} (${tenant}${q(col.column)})`);
    }
  }
  // a sortable list column gets (tenant_id, column, key) over live rows: a page sorted by it, either way, is an
  // index scan instead of a sort of the whole tenant (query.ts breaks ties in the column's direction)
  for (const c of r.schema.list?.columns ?? []) {
    const col = r.byField.get(c.field);
    if (!c.sortable || !col || col.kind === 'json' || col.column === r.keyColumn || col.column === 'create_time') continue;
    out.push(`CREATE INDEX IF NOT EXISTS ${q(`${tbl}_${col.column}_sort`)} ON ${q(tbl)} (${tenant}${q(col.column)}, ${q(r.keyColumn)}) WHERE is_deleted = 0`);
  }
  if (r.schema.tree) {
    const col = r.byField.get(r.schema.tree.parentField)!;
    out.push(`CREATE INDEX IF NOT EXISTS ${q(`${tbl}_${col.column}_idx`)} ON ${q(tbl)} (${tenant}${q(col.column)})`);
  }
  return out;
}

export interface SyncReport {
  created: string[];
  added: Array<{ table: string; column: string }>;
  widened: Array<{ table: string; column: string; from: string; to: string }>;
}

/**
 * Plans the change of one resource's table against the live database: the statements to run, or a
 * SyncError for a lossy change. Does not execute anything.
 */
/** What the catalogue says of the tables being synced, read once for all of them (`syncTables`). */
export interface LiveCatalogue {
  /** table → its columns as information_schema.columns gives them (absent: no such table). */
  columns: Map<string, LiveColumn[]>;
  /** the names of the schema's indexes (`CREATE INDEX IF NOT EXISTS` of one of them is skipped). */
  indexes: Set<string>;
}

interface LiveColumn {
  column_name: string;
  data_type: string;
  character_maximum_length: number | null;
}

/** Reads the catalogue of `tables` in two queries (instead of one per table and one statement per index). */
async function readCatalogue(db: Db, tables: string[]): Promise<LiveCatalogue> {
  const rows = await sql<LiveColumn & { table_name: string }>`
    SELECT table_name, column_name, data_type, character_maximum_length FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = ANY(${tables}::text[])`.execute(db);
  const columns = new Map<string, LiveColumn[]>();
  for (const c of rows.rows) columns.set(c.table_name, [...(columns.get(c.table_name) ?? []), c]);
  const idx = await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()`.execute(db);
  return { columns, indexes: new Set(idx.rows.map((r) => r.indexname)) };
}

const INDEX_NAME = /^CREATE (?:UNIQUE )?INDEX IF NOT EXISTS "([^"]+)"/;

/**
 * The statements that bring `r`'s table in line with its schema (and what they do). `live`: the catalogue read
 * beforehand for many tables at once (`syncTables`); without it the table's columns are read here and every
 * index statement is planned.
 */
export async function planSync(db: Db, r: Resource, live?: LiveCatalogue): Promise<{ statements: string[]; report: SyncReport }> {
  const report: SyncReport = { created: [], added: [], widened: [] };
  const tbl = r.schema.table;
  const existing = live
    ? { rows: live.columns.get(tbl) ?? [] }
    : await sql<LiveColumn>`
    SELECT column_name, data_type, character_maximum_length FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = ${tbl}`.execute(db);
  const statements: string[] = [];
  const def = (c: Resource['columns'][number]) => {
    const tpe = normaliseType(c.sqlType);
    if (c.column === r.keyColumn) return `${q(c.column)} ${tpe} PRIMARY KEY`;
    if (c.column === 'create_time' || c.column === 'update_time') return `${q(c.column)} ${tpe} NOT NULL DEFAULT now()`;
    if (c.column === 'status') return `${q(c.column)} ${tpe} NOT NULL DEFAULT 1`;
    if (c.column === 'is_deleted') return `${q(c.column)} ${tpe} NOT NULL DEFAULT 0`;
    if (c.column === 'tenant_id') return `${q(c.column)} ${tpe} NOT NULL`;
    return `${q(c.column)} ${tpe}`;
  };
  if (existing.rows.length === 0) {
    statements.push(`CREATE TABLE ${q(tbl)} (\n  ${r.columns.map(def).join(',\n  ')}\n)`);
    report.created.push(tbl);
  } else {
    const live = new Map(
      existing.rows.map((c) => [c.column_name, c.data_type === 'character varying' && c.character_maximum_length ? `character varying(${c.character_maximum_length})` : c.data_type]),
    );
    for (const c of r.columns) {
      const want = normaliseType(c.sqlType);
      const have = live.get(c.column);
      if (have === undefined) {
        statements.push(`ALTER TABLE ${q(tbl)} ADD COLUMN ${def(c).replace(' PRIMARY KEY', '')}`);
        report.added.push({ table: tbl, column: c.column });
      } else if (have !== want) {
        if (!isLossless(have, want)) {
          throw new SyncError(
            t('lossyChange', 'zh', { table: tbl, field: c.field, from: have, to: want }),
            t('lossyChange', 'en', { table: tbl, field: c.field, from: have, to: want }),
            c.field,
          );
        }
        statements.push(`ALTER TABLE ${q(tbl)} ALTER COLUMN ${q(c.column)} TYPE ${want}`);
        report.widened.push({ table: tbl, column: c.column, from: have, to: want });
      }
    }
  }
  // an index that exists already is left alone (a name PostgreSQL truncated never matches: its IF NOT EXISTS runs)
  statements.push(...indexStatements(r).filter((s) => !live?.indexes.has(INDEX_NAME.exec(s)?.[1] ?? '')));
  return { statements, report };
}

/** Syncs the tables of `resources` in one transaction; throws SyncError (and changes nothing) on a lossy change. */
export async function syncTables(db: Db, resources: Iterable<Resource>): Promise<SyncReport> {
  const total: SyncReport = { created: [], added: [], widened: [] };
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${SYNC_LOCK})`.execute(trx);
    const list = [...resources];
    const live = await readCatalogue(trx, list.map((r) => r.schema.table));
    for (const r of list) {
      const { statements, report } = await planSync(trx, r, live);
      for (const s of statements) await sql.raw(s).execute(trx);
      total.created.push(...report.created);
      total.added.push(...report.added);
      total.widened.push(...report.widened);
    }
  });
  return total;
}
