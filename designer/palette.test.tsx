// @vitest-environment jsdom
/**
 * One registry (DESIGN §1.2): every widget the designer's palette offers is a widget the runtime renders —
 * each item comes from a component registration (src/client/components/catalog.tsx, with registry metadata),
 * its component resolves in the runtime registry, renders
 * through the runtime's SchemaField in an editable and a read-only form, is recognised again by `kindOf`, and
 * a form made of all of them is a valid resource schema (the meta-schema) from which the server derives its
 * record schema and table columns.
 */
import { describe, expect, it } from 'vitest';
import React from 'react';
import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { createForm } from '@formily/core';
import { FormProvider } from '@formily/react';
import { components, registryEntries, resolveComponent, SchemaField } from '../src/client/components/registry.js';
import { FakeServer, renderApp } from '../src/client/runtime/test-utils.js';
import { prepareFormSchema } from '../src/client/runtime/schema.js';
import { recordJsonSchema } from '../src/shared/schema/derive.js';
import type { ResourceSchema } from '../src/shared/schema/types.js';
import { kindOf, palette, PALETTE_GROUPS, paletteItem } from './palette.js';

const SPEC_ITEMS: Record<string, string[]> = {
  layout: ['card', 'subform', 'title'],
  input: ['input', 'password', 'textarea', 'number', 'url', 'array', 'image', 'map'],
  choice: ['radio', 'checkbox', 'select', 'cascader', 'tree'],
  upload: ['upload'],
  date: ['year', 'month', 'week', 'date', 'time', 'datetime', 'daterange', 'timerange', 'datetimerange'],
  richtext: ['richtext'],
  others: ['icon', 'switch', 'rate', 'slider', 'color'],
  business: ['dict', 'dept', 'region'],
};

function allItemsForm() {
  return {
    type: 'object' as const,
    properties: Object.fromEntries(palette().map((p) => [`f_${p.key}`, p.schema])),
  };
}

describe('palette', () => {
  it('offers the items of spec 002 §2 in their groups, each titled in zh and en', () => {
    for (const [group, keys] of Object.entries(SPEC_ITEMS)) {
      expect(PALETTE_GROUPS).toContain(group);
      for (const k of keys) expect(paletteItem(k)?.group, k).toBe(group);
    }
    for (const p of palette()) {
      expect(p.title.zh.trim(), p.key).toBeTruthy();
      expect(p.title.en.trim(), p.key).toBeTruthy();
      if (p.schema.title !== undefined) expect([p.schema.title, p.schema.titleEn], p.key).toEqual([p.title.zh, p.title.en]);
    }
    // every group has items, in the spec's order within it
    expect(PALETTE_GROUPS.map((g) => palette().filter((p) => p.group === g).map((p) => p.key))).toEqual(Object.values(SPEC_ITEMS).map((keys) => expect.arrayContaining(keys)));
    expect(palette().filter((p) => p.group === 'input').map((p) => p.key)).toEqual(SPEC_ITEMS.input);
  });

  it('names only components of the runtime registry, each with designer metadata', () => {
    const described = new Set(registryEntries().map((e) => e.name));
    for (const p of palette()) {
      expect(p.schema['x-component'], p.key).toBe(p.component);
      expect(resolveComponent(p.component), p.key).toBeTruthy();
      expect(described.has(p.component), p.key).toBe(true);
      if (p.schema['x-decorator']) expect(resolveComponent(p.schema['x-decorator']), p.key).toBeTruthy();
    }
    expect(Object.keys(components)).toEqual(expect.arrayContaining(['RichText', 'Rate', 'Slider', 'ColorPicker', 'IconSelect', 'LocationInput']));
  });

  it('recognises every item again from its schema', () => {
    for (const p of palette()) expect(kindOf(p.schema as Record<string, unknown>), p.key).toBe(p.key);
  });

  it('renders every item through the runtime SchemaField, editable and read-only', async () => {
    new FakeServer().on('GET', '/api/blade-system/dept/tree', []).on('GET', '/api/blade-system/region/lazy-tree', []).install();
    for (const readPretty of [false, true]) {
      const form = createForm({ readPretty });
      const schema = prepareFormSchema(allItemsForm(), 'zh');
      const { container, unmount } = renderApp(
        <FormProvider form={form}>
          <SchemaField schema={schema as never} />
        </FormProvider>,
      );
      for (const p of palette()) {
        // a layout item without a title (the grid) renders its (empty) container; the others show their label
        if (p.schema.title && p.key !== 'title' && p.key !== 'card') expect(container.textContent, `${p.key} ${readPretty}`).toContain(p.schema.title);
        expect(form.query(`f_${p.key}`).take() ?? p.schema.type === 'void', p.key).toBeTruthy();
      }
      expect(container.querySelector('.kc-rich-text, .kc-rich-text-view, span')).toBeTruthy();
      unmount();
    }
  });

  it('makes a resource schema the meta-schema accepts and the server can derive', () => {
    const meta = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../schemas/_meta/resource.schema.json'), 'utf8'));
    const ajv = new Ajv({ strict: false, allErrors: true });
    const validate = ajv.compile(meta);
    const resource = { name: 'demo/all', title: '全部', titleEn: 'All', api: '/api/demo/all', table: 'demo_all', endpoints: ['list'], form: allItemsForm() };
    expect(validate(resource), JSON.stringify(validate.errors)).toBe(true);
    const record = recordJsonSchema(resource as unknown as ResourceSchema) as { properties: Record<string, unknown> };
    expect(Object.keys(record.properties)).toEqual(expect.arrayContaining(palette().filter((p) => p.schema.type !== 'void').map((p) => `f_${p.key}`)));
  });
});
