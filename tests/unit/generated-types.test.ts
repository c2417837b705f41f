/**
 * The record types derived from the schemas (json-schema-to-ts, DESIGN §4) are current: the generated file
 * equals what `npm run gen:types` would write now, so a schema change cannot leave the types behind.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate, GENERATED_FILE, typeName } from '../../scripts/gen-types.js';

describe('generated record types', () => {
  it('match the schemas (run `npm run gen:types` after changing a schema)', () => {
    expect(fs.readFileSync(GENERATED_FILE, 'utf8')).toBe(generate());
  });

  it('name each resource’s types after its name', () => {
    expect(typeName('basic/patent')).toBe('Patent');
    expect(typeName('project/base-info')).toBe('BaseInfo');
    expect(typeName('portal/model', ['flow/model', 'portal/model', 'basic/patent'])).toBe('PortalModel');
    expect(typeName('basic/patent', ['flow/model', 'portal/model', 'basic/patent'])).toBe('Patent');
    expect(generate()).toContain('export type PatentRecord = PatentInput & SystemFields;');
  });
});
