/**
 * The fixture records of the stories are records the server would accept: each passes its resource's record
 * JSON Schema (the one the server validates submits with: types, lengths, patterns, enums, date formats),
 * and the generation is deterministic (same schemas, same records), which the snapshots rely on.
 */
import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { dateFormats, recordJsonSchema, SYSTEM_FIELDS } from '../src/shared/schema/derive.js';
import { schemas } from './generated/schemas.js';
import { createFixtures, ROWS } from './fixtures.js';
import { FIELD_FORMATS } from '../src/shared/validators/index.js';

// as the server's record validator (src/server/resources/registry.ts createRecordAjv)
const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
(addFormats as unknown as (a: Ajv) => void)(ajv);
for (const [name, re] of Object.entries(dateFormats)) ajv.addFormat(name, re);
for (const [name, f] of Object.entries(FIELD_FORMATS)) ajv.addFormat(name, { type: 'string', validate: (v: string) => f.fault(v) === null });

describe('story fixtures', () => {
  const fixtures = createFixtures(schemas);

  for (const resource of schemas) {
    it(`${resource.name}: records the server would accept`, () => {
      const validate = ajv.compile(recordJsonSchema(resource));
      const rows = fixtures.rows(resource);
      expect(rows.length).toBeGreaterThanOrEqual(ROWS);
      for (const row of rows) {
        const record: Record<string, unknown> = { ...row };
        for (const f of [...SYSTEM_FIELDS, 'hasChildren']) delete record[f];
        if ((resource.key ?? 'id') !== 'id') delete record.id;
        const ok = validate(record);
        expect(ok ? [] : validate.errors?.map((e) => `${e.instancePath} ${e.message}`), JSON.stringify(record)).toEqual([]);
      }
    });
  }

  it('are the same on every generation', () => {
    const again = createFixtures(schemas);
    for (const resource of schemas) expect(again.rows(resource)).toEqual(fixtures.rows(resource));
  });

  it('build trees whose children extend their parent key', () => {
    const region = fixtures.byName.get('system/region')!;
    expect(fixtures.children(region, '00').map((r) => r.code)).toEqual(['11', '12', '13']);
    expect(fixtures.children(region, '11').map((r) => r.code)).toEqual(['1101', '1102', '1103']);
    expect(fixtures.children(region, '1101').every((r) => r.hasChildren === false)).toBe(true);
    const dict = fixtures.byName.get('system/dict')!;
    expect(fixtures.tree(dict)[0]).toMatchObject({ value: '1001', children: [{ value: '10011' }, { value: '10012' }, { value: '10013' }] });
  });

  it('label dictionary entries after the field naming the dictionary', () => {
    expect(fixtures.dict('patent_type').map((e) => [e.dictKey, e.dictValue, e.dictValueEn])).toEqual([
      ['1', '专利类型1', 'Patent type 1'],
      ['2', '专利类型2', 'Patent type 2'],
      ['3', '专利类型3', 'Patent type 3'],
    ]);
  });
});
