// @vitest-environment jsdom
/**
 * The schema round trip (DESIGN §9): every resource schema in schemas/ (each JSON file with a `form`) loads into the designer's tree
 * (Designable's transformer, and a real Designable TreeNode as the canvas holds it) and comes back out unchanged
 * apart from the designer-only keys — which are gone from the output.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { createDesigner, TreeNode } from '@pind/designable-core';
import { cleanNode, DESIGNER_KEYS, formToTree, isFormNode, treeToForm } from './transform.js';

const ROOT = path.resolve(__dirname, '../schemas');

function schemaFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === '_meta' || d.name === 'locales' ? [] : schemaFiles(p);
    return d.name.endsWith('.json') ? [p] : [];
  });
}

function designerKeysIn(node: unknown, out: string[] = [], at = 'form'): string[] {
  if (!node || typeof node !== 'object') return out;
  const n = node as Record<string, any>;
  for (const k of DESIGNER_KEYS) if (k in n) out.push(`${at}.${k}`);
  for (const [name, child] of Object.entries(n.properties ?? {})) designerKeysIn(child, out, `${at}.${name}`);
  if (n.items && typeof n.items === 'object') designerKeysIn(n.items, out, `${at}.items`);
  return out;
}

/** The resource schemas (page schemas under _pages have no form and are not designed here). */
const files = schemaFiles(ROOT).filter((f) => {
  const json = JSON.parse(fs.readFileSync(f, 'utf8'));
  return json && typeof json === 'object' && json.form && typeof json.form === 'object';
});

describe('schema round trip through the designer', () => {
  it('finds the schemas', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
  });

  /** Every field's path in document order (`grid.title`, …): what the designer must keep in order. */
  const fieldOrder = (node: unknown, at = ''): string[] => {
    const props = (node as { properties?: Record<string, unknown> } | null)?.properties ?? {};
    return Object.entries(props).flatMap(([k, v]) => [`${at}${k}`, ...fieldOrder(v, `${at}${k}.`)]);
  };

  for (const file of files) {
    const rel = path.relative(ROOT, file);
    it(`${rel}: form → tree → form is the same form`, () => {
      const resource = JSON.parse(fs.readFileSync(file, 'utf8'));
      const form = resource.form;
      expect(isFormNode(form)).toBe(true);
      const tree = formToTree(form);
      expect(tree.componentName).toBe('Form');
      const back = treeToForm(tree);
      expect(back).toEqual(cleanNode(form));
      // the field order is kept too (the order of every `properties`; a node's own keys may come in any order)
      expect(fieldOrder(back)).toEqual(fieldOrder(cleanNode(form)));
      expect(designerKeysIn(back)).toEqual([]);
    });

    it(`${rel}: through a Designable tree as the canvas holds it`, () => {
      const resource = JSON.parse(fs.readFileSync(file, 'utf8'));
      const engine = createDesigner({ rootComponentName: 'Form' });
      const node = new TreeNode({ componentName: 'Form', props: {} });
      node.from(formToTree(resource.form));
      expect(engine).toBeTruthy();
      expect(treeToForm(node.serialize())).toEqual(cleanNode(resource.form));
      expect(treeToForm(node)).toEqual(cleanNode(resource.form));
    });
  }

  it('keeps the order of the tree, drops x-index and the designer ids', () => {
    const form = {
      type: 'object' as const,
      'x-component-props': { labelWidth: 100 },
      properties: {
        b: { type: 'string' as const, title: 'B', 'x-index': 1, 'x-component': 'Input' },
        a: { type: 'string' as const, title: 'A', 'x-index': 0, 'x-component': 'Input' },
      },
    };
    const back = treeToForm(formToTree(form));
    expect(Object.keys(back.properties)).toEqual(['a', 'b']);
    expect(back).toEqual({ type: 'object', 'x-component-props': { labelWidth: 100 }, properties: { a: { type: 'string', title: 'A', 'x-component': 'Input' }, b: { type: 'string', title: 'B', 'x-component': 'Input' } } });
  });

  it('keeps a sub-form row and its fields, and an upload item type', () => {
    const form = {
      type: 'object' as const,
      properties: {
        rows: { type: 'array' as const, 'x-component': 'ArrayTable', items: { type: 'object' as const, properties: { n: { type: 'string' as const, 'x-component': 'Input' } } } },
        files: { type: 'array' as const, 'x-component': 'FileUpload', items: { type: 'object' as const } },
      },
    };
    const tree = formToTree(form);
    expect(tree.children![0].children![0].props.type).toBe('object');
    expect(treeToForm(tree)).toEqual(form);
  });
});
