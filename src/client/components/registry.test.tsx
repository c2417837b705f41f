// @vitest-environment jsdom
/**
 * The one component registry (DESIGN §1.2): every component any schema in schemas/ names (x-component and
 * x-decorator, dotted names included) resolves; every registered name has designer metadata with zh and en
 * titles and a palette group, and every metadata entry names a registered component.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { components, registryEntries, resolveComponent, SchemaField } from './registry.js';

const ROOT = path.resolve(__dirname, '../../../schemas');

function schemaFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === '_meta' ? [] : schemaFiles(p);
    return d.name.endsWith('.json') ? [p] : [];
  });
}

function namedComponents(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => namedComponents(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if ((k === 'x-component' || k === 'x-decorator') && typeof v === 'string') out.add(v);
      else namedComponents(v, out);
    }
  }
  return out;
}

const GROUPS = ['layout', 'input', 'choice', 'upload', 'date', 'richtext', 'others', 'business'];

describe('registry', () => {
  it('has every component the schemas name', () => {
    const files = schemaFiles(ROOT);
    expect(files.length).toBeGreaterThan(1);
    const names = new Set<string>();
    for (const f of files) namedComponents(JSON.parse(fs.readFileSync(f, 'utf8')), names);
    expect(names.size).toBeGreaterThan(5);
    const missing = [...names].filter((n) => !resolveComponent(n));
    expect(missing).toEqual([]);
  });

  it('describes every entry in both languages and in a palette group', () => {
    for (const e of registryEntries) {
      expect(e.title.zh, e.name).toBeTruthy();
      expect(e.title.en, e.name).toBeTruthy();
      expect(GROUPS, e.name).toContain(e.group);
      expect(resolveComponent(e.name), e.name).toBeTruthy();
    }
    const described = new Set(registryEntries.map((e) => e.name));
    expect(Object.keys(components).filter((n) => !described.has(n))).toEqual([]);
    expect(new Set(registryEntries.map((e) => e.name)).size).toBe(registryEntries.length);
  });

  it('builds the SchemaField from the registry and resolves dotted names', () => {
    expect(SchemaField).toBeTruthy();
    expect(resolveComponent('Input.TextArea')).toBeTruthy();
    expect(resolveComponent('Radio.Group')).toBeTruthy();
    expect(resolveComponent('NoSuchWidget')).toBeUndefined();
    expect(resolveComponent('Input.NoSuch')).toBeUndefined();
  });
});
