/**
 * The schema registry and table sync (DESIGN §4): every shipped schema loads and derives; a faulty schema
 * stops the start with a message naming the file and the fault; table sync only adds, widens without loss,
 * and refuses a change that would lose data (with a message that says why), changing nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../src/server/core/config.js';
import { openDatabase, sql, type Database } from '../../src/server/core/db/index.js';
import { checkSchema, Registry, SchemaLoadError } from '../../src/server/resources/registry.js';
import { syncTables, SyncError } from '../../src/server/resources/sync.js';
import { columnsOf, dataFields, recordJsonSchema } from '../../src/shared/schema/derive.js';
import type { ResourceSchema } from '../../src/shared/schema/types.js';

/** The resource schema files under schemas/ (the folders the registry skips excluded). */
function schemaFiles(dir = path.join(repoRoot, 'schemas')): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!e.name.startsWith('_') && e.name !== 'locales' && e.name !== 'flows') out.push(...schemaFiles(p));
    } else if (e.name.endsWith('.json')) out.push(p);
  }
  return out;
}

describe('the shipped schemas', () => {
  const registry = Registry.loadFolder();
  const files = schemaFiles();

  it('all load (the registry holds one resource per file) and pass the meta-schema', () => {
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(registry.resources.size).toBe(files.length);
    for (const f of files) {
      const parsed = JSON.parse(fs.readFileSync(f, 'utf8'));
      expect(checkSchema(parsed), path.relative(repoRoot, f)).toEqual([]);
      expect(registry.resources.has(parsed.name), path.relative(repoRoot, f)).toBe(true);
    }
    // the folder's validators are compiled on first use (registry.ts deriveResource): every one compiles
    for (const r of registry.resources.values()) expect(typeof r.validate, r.file).toBe('function');
    expect(registry.get('basic/patent').file).toBe(path.join('schemas', 'basic', 'patent.json'));
    expect(registry.get('system/region').schema.table).toBe('blade_region');
  });

  it('each resource derives a record JSON Schema and a column for every data field', () => {
    for (const r of registry.resources.values()) {
      const fields = dataFields(r.schema.form).map((f) => f.name);
      expect(fields.length, r.schema.name).toBeGreaterThan(0);
      const record = recordJsonSchema(r.schema) as { type: string; properties: Record<string, unknown>; additionalProperties: boolean };
      expect(record.type).toBe('object');
      expect(record.additionalProperties).toBe(false);
      for (const f of fields) expect(record.properties, `${r.schema.name}.${f}`).toHaveProperty(f);
      const columns = columnsOf(r.schema);
      for (const f of fields) expect(columns.some((c) => c.field === f), `${r.schema.name}.${f}`).toBe(true);
      expect(new Set(columns.map((c) => c.column)).size, `${r.schema.name}: column names are unique`).toBe(columns.length);
      for (const c of ['create_user', 'create_dept', 'create_time', 'update_user', 'update_time', 'status', 'is_deleted']) {
        expect(columns.map((x) => x.column), r.schema.name).toContain(c);
      }
      expect(typeof r.validate).toBe('function');
      expect(r.byField.get(r.key), `${r.schema.name}: key column`).toBeDefined();
    }
  });

  it('maps the patent columns as DESIGN §4 says', () => {
    const cols = new Map(registry.get('basic/patent').columns.map((c) => [c.column, c.sqlType]));
    expect(cols.get('name')).toBe('character varying(100)');
    expect(cols.get('project_name')).toBe('character varying(50)');
    expect(cols.get('apply_date')).toBe('date');
    expect(cols.get('project_source')).toBe('bigint');
    expect(cols.get('is_transfer')).toBe('boolean');
    expect(cols.get('annex')).toBe('jsonb');
    expect(cols.get('assignee')).toBe('jsonb');
    expect(cols.get('ownership_detail_form')).toBe('jsonb');
    expect(cols.get('id')).toBe('bigint');
    expect(cols.get('tenant_id')).toBe('character varying(12)');
    expect(cols.get('create_user')).toBe('bigint');
    expect(cols.get('create_dept')).toBe('bigint');
    expect(cols.get('create_time')).toBe('timestamp with time zone');
    expect(cols.get('update_user')).toBe('bigint');
    expect(cols.get('update_time')).toBe('timestamp with time zone');
    expect(cols.get('status')).toBe('integer');
    expect(cols.get('is_deleted')).toBe('integer');
    expect(cols.has('grid')).toBe(false); // layout nodes are not columns
  });

  it('the record validator refuses a too long name, a misformatted date and an unknown field', () => {
    const r = registry.get('basic/patent');
    expect(r.validate({ name: 'x'.repeat(101) })).toBe(false);
    expect(r.validate({ applyDate: '2024/03/15' })).toBe(false);
    expect(r.validate({ unknownField: 1 })).toBe(false);
    expect(r.validate({ name: '一种方法', applyDate: '2024-03-15', projectSource: 3, isTransfer: false })).toBe(true);
  });
});

describe('a faulty schema', () => {
  const good = (): Record<string, any> => ({
    name: 'x/bad',
    title: '测试',
    titleEn: 'Test',
    api: '/api/x/bad',
    table: 'x_bad',
    endpoints: ['list', 'detail'],
    form: { type: 'object', properties: { grid: { type: 'void', properties: { title: { type: 'string', maxLength: 20 } } } } },
    list: { columns: [{ field: 'title' }] },
  });

  const load = (obj: unknown) => () => new Registry().add(obj, 'schemas/x/bad.json');
  const op = (key: string) => ({ key, label: '执行', labelEn: 'Run', placement: ['toolbar'], endpoint: '/api/x/run' });

  it('a column the list answers beside the record loads with its own title', () => {
    const s = good();
    s.list.columns.push({ field: 'roleName', title: '角色', titleEn: 'Roles', type: 'text' });
    expect(load(s)).not.toThrow();
  });

  it('a design operation on a field of type object loads', () => {
    const s = good();
    s.form.properties.grid.properties.design = { type: 'object', title: '设计', 'x-component': 'Input', 'x-display': 'hidden' };
    s.list.operations = [{ key: 'd', label: '设计', labelEn: 'Design', placement: ['row'], result: 'design', designField: 'design' }];
    expect(load(s)).not.toThrow();
  });

  it('the control schema loads', () => {
    expect(new Registry().add(good(), 'schemas/x/bad.json').columns.map((c) => c.column)).toContain('title');
  });

  const faults: Array<[string, (s: Record<string, any>) => void, string]> = [
    ['an unknown top-level key', (s) => (s.colour = 'red'), '/: unknown key "colour"'],
    ['a field of type strng', (s) => (s.form.properties.grid.properties.title.type = 'strng'), '/form/properties/grid/properties/title/type: must be equal to one of the allowed values'],
    ['a list column naming a missing field', (s) => s.list.columns.push({ field: 'missing' }), '/list/columns: no field "missing"'],
    ['a search field that does not exist', (s) => (s.list.search = [{ field: 'nope', operator: 'like' }]), '/list/search: no field "nope"'],
    ['a missing api', (s) => delete s.api, "must have required property 'api'"],
    ['a misspelt rule key', (s) => (s.form.properties.grid.properties.title['x-validator'] = [{ requird: true }]), 'unknown key "requird"'],
    ['a field defined twice', (s) => (s.form.properties.title = { type: 'string' }), '/form: field "title" is defined 2 times'],
    ['tree endpoints without a tree section', (s) => s.endpoints.push('lazy-tree'), '/endpoints: tree endpoints need a "tree" section'],
    ['a key that is no field', (s) => (s.key = 'code'), '/key: no field "code"'],
    ['a userLists list naming a missing field', (s) => (s.userLists = [{ endpoint: 'mine', field: 'leader' }]), '/userLists/0: no field "leader"'],
    ['a userLists list named as a generic endpoint', (s) => (s.userLists = [{ endpoint: 'list', field: 'title' }]), '/userLists/0: endpoint "list" is used twice'],
    ['a sortable column the list answers beside the record', (s) => s.list.columns.push({ field: 'roleName', title: '角色', titleEn: 'Roles', sortable: true }), '/list/columns: "roleName" is not a field and cannot be sortable'],
    ['two list operations with one key', (s) => (s.list.operations = [op('x'), op('x')]), '/list/operations: key "x" is used twice'],
    ['an operation placed nowhere', (s) => (s.list.operations = [{ ...op('x'), placement: [] }]), '/list/operations/0/placement: must NOT have fewer than 1 items'],
    ['a design operation on a field that is no object', (s) => (s.list.operations = [{ key: 'd', label: '设计', labelEn: 'Design', placement: ['row'], result: 'design', designField: 'title' }]), '/list/operations: "d" designs "title", which is no field of type object'],
    ['a sum rule naming a missing field', (s) => (s.rules = [{ sum: ['title', 'nope.amount'], equals: 'title', message: '不一致', messageEn: 'Differs' }]), '/rules/0: no field "nope"'],
    ['a before rule naming a missing field', (s) => (s.rules = [{ before: ['title', 'later'], message: '顺序', messageEn: 'Order' }]), '/rules/0: no field "later"'],
    ['a side tree without its parameter', (s) => (s.list.sideTree = { url: '/api/x/lazy-tree', title: '树', titleEn: 'Tree' }), "must have required property 'param'"],
  ];
  it.each(faults)('%s → SchemaLoadError naming the file and the fault', (_what, spoil, fault) => {
    const s = good();
    spoil(s);
    expect(load(s)).toThrow(SchemaLoadError);
    expect(load(s)).toThrow('资源定义 schemas/x/bad.json 不合法: ');
    expect(load(s)).toThrow(fault);
  });

  it('refuses a second resource with the same table', () => {
    const reg = new Registry();
    reg.add(good(), 'schemas/x/a.json');
    const other = { ...good(), name: 'x/other', api: '/api/x/other' };
    expect(() => reg.add(other, 'schemas/x/b.json')).toThrow('资源定义 schemas/x/b.json 不合法: table "x_bad" is already used by schemas/x/a.json');
    expect(reg.resources.has('x/other')).toBe(false);
  });

  it('a file that is not JSON stops loadFolder with the file name', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kc-schemas-'));
    try {
      fs.mkdirSync(path.join(dir, 'x'));
      fs.writeFileSync(path.join(dir, 'x', 'broken.json'), '{ "name": "x/broken", ');
      expect(() => Registry.loadFolder(dir)).toThrow(SchemaLoadError);
      expect(() => Registry.loadFolder(dir)).toThrow(/broken\.json 不合法: JSON: /);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('table sync', () => {
  let database: Database;
  const table = `test_sync_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;

  /** A throwaway resource whose `title` is `title`, plus `extra` fields. */
  function resource(title: Record<string, unknown>, extra: Record<string, Record<string, unknown>> = {}) {
    const schema = {
      name: 'test/sync',
      title: '同步测试',
      titleEn: 'Sync test',
      api: '/api/test/sync',
      table,
      endpoints: ['list'],
      form: { type: 'object', properties: { grid: { type: 'void', properties: { title: { title: '标题', ...title }, ...extra } } } },
      list: { search: [{ field: 'title', operator: 'like' }] },
    } as unknown as ResourceSchema;
    return new Registry().add(schema, 'schemas/test/sync.json');
  }

  async function columnTypes(): Promise<Record<string, string>> {
    const r = await sql<{ column_name: string; data_type: string; len: number | null }>`
      SELECT column_name, data_type, character_maximum_length AS len FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = ${table}`.execute(database.db);
    return Object.fromEntries(r.rows.map((c) => [c.column_name, c.len ? `${c.data_type}(${c.len})` : c.data_type]));
  }

  const rows = async () => (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} ORDER BY id`.execute(database.db)).rows;

  beforeAll(() => {
    database = openDatabase(inject('db').url, 'Asia/Shanghai', 2);
  });

  afterAll(async () => {
    await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(database.db);
    await database.close();
  });

  it('creates the table with every column, the key and the list index', async () => {
    const report = await syncTables(database.db, [resource({ type: 'string', maxLength: 20 })]);
    expect(report.created).toEqual([table]);
    const types = await columnTypes();
    expect(types).toMatchObject({
      id: 'bigint',
      tenant_id: 'character varying(12)',
      title: 'character varying(20)',
      create_user: 'bigint',
      create_time: 'timestamp with time zone',
      is_deleted: 'integer',
    });
    const idx = await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes WHERE tablename = ${table}`.execute(database.db);
    expect(idx.rows.map((i) => i.indexname)).toEqual(expect.arrayContaining([`${table}_pkey`, `${table}_list_idx`, `${table}_title_trgm`]));
    await sql`INSERT INTO ${sql.table(table)} (id, tenant_id, title) VALUES (1, '000000', '第一条记录')`.execute(database.db);
  });

  it('a second sync with the same schema changes nothing', async () => {
    const report = await syncTables(database.db, [resource({ type: 'string', maxLength: 20 })]);
    expect(report).toEqual({ created: [], added: [], widened: [] });
  });

  it('adding a field adds a column and existing rows keep their data', async () => {
    const report = await syncTables(database.db, [resource({ type: 'string', maxLength: 20 }, { amount: { type: 'number', title: '金额' } })]);
    expect(report.created).toEqual([]);
    expect(report.added).toEqual([{ table, column: 'amount' }]);
    expect((await columnTypes()).amount).toBe('numeric');
    const [row] = await rows();
    expect(row).toMatchObject({ id: '1', title: '第一条记录', amount: null, is_deleted: 0 });
  });

  it('widening varchar(20) → varchar(40) succeeds and keeps the data', async () => {
    const report = await syncTables(database.db, [resource({ type: 'string', maxLength: 40 }, { amount: { type: 'number' } })]);
    expect(report.widened).toEqual([{ table, column: 'title', from: 'character varying(20)', to: 'character varying(40)' }]);
    expect((await columnTypes()).title).toBe('character varying(40)');
    await sql`INSERT INTO ${sql.table(table)} (id, tenant_id, title) VALUES (2, '000000', ${'长'.repeat(40)})`.execute(database.db);
    expect((await rows()).map((r) => r.title)).toEqual(['第一条记录', '长'.repeat(40)]);
  });

  const lossy: Array<[string, Record<string, unknown>, string]> = [
    ['narrowing varchar(40) → varchar(10)', { type: 'string', maxLength: 10 }, 'character varying(10)'],
    ['changing string → number', { type: 'number' }, 'numeric'],
    ['changing string → boolean', { type: 'boolean' }, 'boolean'],
  ];
  it.each(lossy)('%s is refused with SyncError (会丢失数据) and changes nothing', async (_what, title, to) => {
    // the same change also adds a column: the refusal must leave that out too (one transaction)
    const r = resource(title, { amount: { type: 'number' }, note: { type: 'string', maxLength: 50 } });
    const err = await syncTables(database.db, [r]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SyncError);
    const e = err as SyncError;
    expect(e.field).toBe('title');
    expect(e.zh).toBe(`表 ${table} 的字段 title 从 character varying(40) 改为 ${to} 会丢失数据，已拒绝`);
    expect(e.message).toBe(e.zh);
    expect(e.en).toContain('would lose data');
    const types = await columnTypes();
    expect(types.title).toBe('character varying(40)');
    expect(types).not.toHaveProperty('note');
    expect((await rows()).map((x) => x.title)).toEqual(['第一条记录', '长'.repeat(40)]);
  });

  it('a field removed from the schema keeps its column and data', async () => {
    await sql`UPDATE ${sql.table(table)} SET amount = 12.5 WHERE id = 1`.execute(database.db);
    const report = await syncTables(database.db, [resource({ type: 'string', maxLength: 40 })]);
    expect(report).toEqual({ created: [], added: [], widened: [] });
    expect((await columnTypes()).amount).toBe('numeric');
    expect((await rows())[0].amount).toBe(12.5);
  });
});
