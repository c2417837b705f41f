/// <reference types="vite/client" />
/**
 * Snapshot tests of the generated stories (DESIGN §9): every story of every storybook/generated/*.stories.tsx
 * module, composed with the preview's annotations (providers, zh, the API mock), rendered under jsdom; once
 * its data has rendered (the list's first fixture row, the form's first label) and the page is quiet (no
 * request in flight, the markup unchanged over a few ticks), its markup must equal the snapshot in
 * storybook/__snapshots__/. A schema change shows up as a snapshot diff: review it, then `npx vitest run
 * --project client storybook -u`.
 *
 * The markup is normalized so that it depends on the schema and the runtime only: antd's css-in-js hash
 * classes (`css-dev-only-do-not-override-…`, which follow antd's version and theme) are removed, and ids
 * made from global counters (React's `:r1:`, rc-select's `rc_select_3`, dnd-kit's `DndDescribedBy-2` ...)
 * are numbered in order of appearance within the story, so that a story's snapshot does not depend on which
 * stories ran before it. It is printed compactly (`printMarkup`: one element a line, text inline, icons as
 * `<svg data-icon="…"/>` without their paths) — a readable diff per field rather than pretty-format's
 * attribute-per-line output, at a quarter of the size.
 *
 * Speed: the stories are rendered under @ant-design/cssinjs's `StyleProvider mock="server"` (antd's own
 * styling engine, told not to inject <style> elements): jsdom parses every injected rule, which made the
 * suite six times slower, and styles are not part of the markup anyway.
 */
import React from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { act, render, waitFor } from '@testing-library/react';
import { StyleProvider } from '@ant-design/cssinjs';
import { composeStories, setProjectAnnotations, type Meta } from '@storybook/react-vite';
import { dataFields } from '../src/shared/schema/derive.js';
import preview from './preview.js';
import { fixtures, mockActivity } from './mock.js';

const annotations = setProjectAnnotations([preview]);
beforeAll(annotations.beforeAll);

type StoriesModule = Record<string, unknown> & { default: Meta };
const modules = import.meta.glob<StoriesModule>('./generated/*.stories.tsx', { eager: true });

/** Class tokens that follow antd's version or theme, not the schema. */
const VOLATILE_CLASS = /^(css-dev-only-do-not-override-|css-var-)/;
/** Ids made from global counters: React's useId, rc-components' and dnd-kit's counters. */
const COUNTER_ID = /(:r[0-9a-z]+:|\b(?:rc_select|rc-tabs|rc-menu-uuid|rc_unique|DndDescribedBy|DndLiveRegion|rc-upload)-?_?\d+(?:-\d+)*)/g;
const ID_ATTRS = ['id', 'for', 'aria-controls', 'aria-owns', 'aria-labelledby', 'aria-describedby', 'aria-activedescendant', 'data-menu-id', 'href'];

/** A copy of `root` with the volatile classes removed and counter ids renumbered in order of appearance. */
function normalize(root: HTMLElement): HTMLElement {
  const copy = root.cloneNode(true) as HTMLElement;
  const ids = new Map<string, string>();
  const renumber = (value: string) =>
    value.replace(COUNTER_ID, (m) => {
      if (!ids.has(m)) ids.set(m, `id-${ids.size + 1}`);
      return ids.get(m)!;
    });
  for (const el of [copy, ...copy.querySelectorAll('*')]) {
    const cls = el.getAttribute('class');
    if (cls !== null) {
      const kept = cls.split(/\s+/).filter((c) => c && !VOLATILE_CLASS.test(c));
      if (kept.length) el.setAttribute('class', kept.join(' '));
      else el.removeAttribute('class');
    }
    for (const attr of ID_ATTRS) {
      const v = el.getAttribute(attr);
      if (v !== null) el.setAttribute(attr, renumber(v));
    }
  }
  return copy;
}

/** Compact markup of a snapshot (see the module comment), wrapped so that the serializer below prints it as is. */
class Markup {
  constructor(readonly text: string) {}
}
expect.addSnapshotSerializer({ test: (v) => v instanceof Markup, serialize: (v: Markup) => v.text });

const attrText = (el: Element, only?: string[]) =>
  [...el.attributes]
    .filter((a) => !only || only.includes(a.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((a) => ` ${a.name}="${a.value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`)
    .join('');

function printMarkup(el: Element, depth = 0): string {
  const pad = '  '.repeat(depth);
  const tag = el.tagName.toLowerCase();
  if (tag === 'svg') return `${pad}<svg${attrText(el, ['class', 'data-icon'])}/>`;
  const kids = [...el.childNodes].filter((n) => n.nodeType === 1 || (n.nodeType === 3 && n.textContent!.trim() !== ''));
  const open = `${pad}<${tag}${attrText(el)}`;
  if (!kids.length) return `${open}/>`;
  if (kids.length === 1 && kids[0].nodeType === 3) return `${open}>${kids[0].textContent!.trim()}</${tag}>`;
  const inner = kids.map((n) => (n.nodeType === 3 ? `${pad}  ${n.textContent!.trim()}` : printMarkup(n as Element, depth + 1)));
  return [`${open}>`, ...inner, `${pad}</${tag}>`].join('\n');
}

/** Waits until no API call is in flight and the markup stays the same for three ticks in a row. */
async function settle(container: HTMLElement): Promise<void> {
  let last = '';
  let quiet = 0;
  for (let n = 0; n < 300 && quiet < 3; n++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 10));
    });
    const html = container.innerHTML;
    quiet = mockActivity().inFlight === 0 && html === last ? quiet + 1 : 0;
    last = html;
  }
  if (quiet < 3) throw new Error('the story did not settle');
}

for (const [file, mod] of Object.entries(modules).sort(([a], [b]) => a.localeCompare(b))) {
  const name = (mod.default.parameters as { resource?: string } | undefined)?.resource;
  const resource = name ? fixtures.byName.get(name) : undefined;
  const stories = composeStories(mod) as Record<string, React.FC>;

  describe(file.replace(/^.*\//, ''), () => {
    it('names its resource schema', () => {
      expect(resource, `${file}: parameters.resource`).toBeDefined();
    });
    if (!resource) return;
    const first = dataFields(resource.form).find(({ node }) => !node['x-reactions'] && node['x-display'] === undefined);
    // a resource with its own detail schema shows that: its first labelled field, if any (a result screen may have none)
    const detailFirst = resource.detail
      ? dataFields(resource.detail).find(({ node }) => node['x-decorator'] === 'FormItem' && !node['x-reactions'] && node['x-display'] === undefined)
      : first;

    for (const [storyName, Story] of Object.entries(stories)) {
      it(storyName, async () => {
        const { container } = render(
          <StyleProvider mock="server">
            <Story />
          </StyleProvider>,
        );
        if (storyName === 'List') {
          const key = fixtures.firstKey(resource);
          await waitFor(() => expect(container.querySelector(`tr[data-row-key="${key}"]`)).not.toBeNull(), { timeout: 20_000 });
        } else if (storyName === 'Detail' ? detailFirst : first) {
          const field = (storyName === 'Detail' ? detailFirst : first)!;
          const label = field.node.title ?? field.name;
          await waitFor(() => expect(container.textContent).toContain(label), { timeout: 20_000 });
        }
        await settle(container);
        expect(new Markup(printMarkup(normalize(container)))).toMatchSnapshot();
      });
    }
  });
}
