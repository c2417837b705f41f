// @vitest-environment jsdom
/**
 * The one component registry (DESIGN §1.2): every component any schema in schemas/ names (x-component and
 * x-decorator, dotted names included) resolves; every registered name has designer metadata with zh and en
 * titles and a palette group, and every metadata entry names a registered component; the SchemaField built
 * from the registry renders a schema's fields with the registered components (a label, an input, a choice,
 * our Switch's 是 in readPretty); a name nobody registered resolves to nothing.
 */
import { describe, expect, it } from 'vitest';
import React from 'react';
import fs from 'node:fs';
import path from 'node:path';
import { screen } from '@testing-library/react';
import { createForm } from '@formily/core';
import { FormProvider } from '@formily/react';
import { components, registryEntries, resolveComponent, SchemaField } from './registry.js';
import { renderApp, setLang } from '../runtime/test-utils.js';

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
    for (const e of registryEntries()) {
      expect(e.title.zh, e.name).toBeTruthy();
      expect(e.title.en, e.name).toBeTruthy();
      expect(GROUPS, e.name).toContain(e.group);
      expect(resolveComponent(e.name), e.name).toBeTruthy();
    }
    const described = new Set(registryEntries().map((e) => e.name));
    expect(Object.keys(components).filter((n) => !described.has(n))).toEqual([]);
    expect(described.size).toBe(registryEntries().length);
  });

  it('renders a schema through the SchemaField with the registered components', async () => {
    setLang('zh');
    const form = createForm({ values: { name: '粮仓一号', kind: 'b', on: true } });
    const { container } = renderApp(
      <FormProvider form={form}>
        <SchemaField
          schema={{
            type: 'object',
            properties: {
              name: { type: 'string', title: '名称', 'x-decorator': 'FormItem', 'x-component': 'Input' },
              kind: { type: 'string', title: '类型', 'x-decorator': 'FormItem', 'x-component': 'Radio.Group', enum: [{ label: '甲', value: 'a' }, { label: '乙', value: 'b' }] },
              on: { type: 'boolean', title: '启用', 'x-decorator': 'FormItem', 'x-component': 'Switch', 'x-pattern': 'readPretty' },
            },
          }}
        />
      </FormProvider>,
    );
    // FormItem's label, Input's input holding the value
    expect(await screen.findByText('名称')).toBeTruthy();
    expect((screen.getByDisplayValue('粮仓一号') as HTMLInputElement).tagName).toBe('INPUT');
    // Radio.Group (a dotted name) with its options, the value's one checked
    const radios = container.querySelectorAll<HTMLInputElement>('input[type="radio"]');
    expect(radios).toHaveLength(2);
    expect([...radios].map((r) => r.checked)).toEqual([false, true]);
    // our Switch (registered by the catalog, not antd's, which would draw a switch) reads 是 when read-only
    expect(screen.getByText('是')).toBeTruthy();
    expect(container.querySelector('.ant-switch')).toBeNull();
  });

  it('resolves dotted names, and nothing else', () => {
    expect(resolveComponent('Input.TextArea')).toBeTruthy();
    expect(resolveComponent('Radio.Group')).toBeTruthy();
    expect(resolveComponent('NoSuchWidget')).toBeUndefined();
    expect(resolveComponent('Input.NoSuch')).toBeUndefined();
    expect(resolveComponent('toString')).toBeUndefined();
    expect(resolveComponent('Input.call')).toBeUndefined();
  });
});
