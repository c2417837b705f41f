/**
 * Scalar coercion (DESIGN §6): numbers and booleans sent for string fields become their text, as Jackson binds
 * them for the original's Java clients; everything else is left for validation to judge.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { coerceScalars } from './coerce.js';
import type { FormNode, ResourceSchema } from './types.js';

const patent: ResourceSchema = JSON.parse(fs.readFileSync(fileURLToPath(new URL('../../../schemas/basic/patent.json', import.meta.url)), 'utf8'));

describe('coerceScalars', () => {
  it('turns numbers and booleans sent for string fields of the patent form into text, through layout nodes', () => {
    const values: Record<string, unknown> = { type: 2, projectType: 3, name: 12345, postcode: 100032, region: true, isTransfer: true, projectSource: 3 };
    expect(coerceScalars(patent.form, values)).toBe(values);
    expect(values).toEqual({ type: '2', projectType: '3', name: '12345', postcode: '100032', region: 'true', isTransfer: true, projectSource: 3 });
  });

  it('descends into array sub-forms and objects; leaves numbers of number fields', () => {
    const values: Record<string, unknown> = { ownershipDetailForm: [{ name: 7, rank: 1 }, null, 'x'], userNamesDetailForm: [{ userName: false, rank: 2 }] };
    coerceScalars(patent.form, values);
    expect(values).toEqual({ ownershipDetailForm: [{ name: '7', rank: 1 }, null, 'x'], userNamesDetailForm: [{ userName: 'false', rank: 2 }] });
  });

  it('leaves strings for number fields, objects and arrays for string fields, null, and unknown fields alone', () => {
    const values: Record<string, unknown> = { projectSource: '3', name: { a: 1 }, address: [1, 2], code: null, nosuch: 5 };
    coerceScalars(patent.form, values);
    expect(values).toEqual({ projectSource: '3', name: { a: 1 }, address: [1, 2], code: null, nosuch: 5 });
  });

  it('coerces items of a list of strings, nested objects, untyped fields; keeps a value that is one of the enum as sent', () => {
    const form: FormNode = {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' } },
        box: { type: 'void', properties: { plain: { title: '无类型' } } },
        addr: { type: 'object', properties: { zip: { type: 'string' }, n: { type: 'integer' } } },
        level: { type: 'string', enum: [1, 2] },
        state: { type: 'string', enum: [{ label: '草稿', value: '0' }, { label: '已提交', value: '1' }] },
      },
    };
    const values: Record<string, unknown> = { tags: [1, 'b', true], plain: 9, addr: { zip: 100000, n: 5 }, level: 1, state: 1 };
    coerceScalars(form, values);
    expect(values).toEqual({ tags: ['1', 'b', 'true'], plain: '9', addr: { zip: '100000', n: 5 }, level: 1, state: '1' });
  });
});
