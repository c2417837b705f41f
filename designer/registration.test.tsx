// @vitest-environment jsdom
/**
 * One registration per component (DESIGN §1.2), end to end: a component nobody has seen before is registered
 * here with ONE `registerComponent` call — component, title, group, palette entry with icon, settings, designer
 * rule, texts — and without touching any other file it
 *
 * - is in the runtime registry: it resolves, has registry metadata, and renders inside the runtime's Formily
 *   SchemaField from a schema naming it (editable and read-only);
 * - is in the designer's palette (its group, its title, its icon) and a click adds its node to the form;
 * - gets its settings form: its own setting (labelled with a text of its registration), without the common
 *   settings it turned off, writing into the node; its designer rule (a chosen value) gives the required rule
 *   the 请选择 message;
 * - is drawn on the designer's canvas with the component itself.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { StarOutlined } from '@ant-design/icons';
import { createForm } from '@formily/core';
import { connect, FormProvider, mapReadPretty } from '@formily/react';
import { paletteItems, registerComponent, registryEntries, resolveComponent, SchemaField, unregisterComponent } from '../src/client/components/registry.js';
import { FakeServer, renderApp, setLang } from '../src/client/runtime/test-utils.js';
import { kindOf, palette } from './palette.js';
import { clickPalette, renderStudio, waitForHistory } from './test-utils.js';

/** A star score: `value` of `count` stars, a click on a star sets it; read-only it says "n / count". */
function StarInput({ value, onChange, count = 5 }: { value?: number; onChange?: (v: number) => void; count?: number }) {
  return (
    <span className="test-stars" role="group" aria-label="stars">
      {Array.from({ length: count }, (_, i) => (
        <button key={i} type="button" aria-label={`star ${i + 1}`} aria-pressed={i < (value ?? 0)} onClick={() => onChange?.(i + 1)}>
          {i < (value ?? 0) ? '★' : '☆'}
        </button>
      ))}
    </span>
  );
}
const StarScore = connect(StarInput, mapReadPretty(({ value, count = 5 }: { value?: number; count?: number }) => <span className="test-stars-text">{`${value ?? 0} / ${count}`}</span>));

registerComponent({
  name: 'StarScore',
  component: StarScore,
  title: { zh: '星级评分', en: 'Star score' },
  group: 'others',
  palette: { key: 'stars', icon: StarOutlined, schema: { type: 'number', 'x-component-props': { count: 5 } } },
  settings: { placeholder: false, defaultValue: false, fields: [{ type: 'number', path: 'x-component-props.count', label: 'cmp.stars.count', min: 1, max: 10, precision: 0 }] },
  designer: { choice: true },
  texts: { 'cmp.stars.count': { zh: '星星总数', en: 'Number of stars' } },
});

afterAll(() => {
  unregisterComponent('StarScore');
});

beforeEach(() => {
  setLang('zh');
  new FakeServer().install();
});

describe('a component registered with one call', () => {
  it('is in the runtime registry and renders inside a SchemaField', async () => {
    expect(resolveComponent('StarScore')).toBe(StarScore);
    expect(registryEntries()).toContainEqual({ name: 'StarScore', title: { zh: '星级评分', en: 'Star score' }, group: 'others' });
    const schema = {
      type: 'object' as const,
      properties: {
        score: { type: 'number' as const, title: '满意度', 'x-decorator': 'FormItem', 'x-component': 'StarScore', 'x-component-props': { count: 4 } },
        fixed: { type: 'number' as const, title: '往年', 'x-decorator': 'FormItem', 'x-component': 'StarScore', 'x-pattern': 'readPretty' },
      },
    };
    const form = createForm<{ score?: number; fixed?: number }>({ values: { fixed: 3 } });
    renderApp(
      <FormProvider form={form}>
        <SchemaField schema={schema} />
      </FormProvider>,
    );
    expect(await screen.findByText('满意度')).toBeTruthy();
    const stars = within(screen.getByRole('group', { name: 'stars' }));
    expect(stars.getAllByRole('button')).toHaveLength(4);
    fireEvent.click(stars.getByRole('button', { name: 'star 3' }));
    expect(form.values.score).toBe(3);
    await waitFor(() => expect(stars.getByRole('button', { name: 'star 3' }).getAttribute('aria-pressed')).toBe('true'));
    expect(screen.getByText('3 / 5')).toBeTruthy();
  });

  it('is offered by the designer’s palette, with its settings form and rules', async () => {
    const item = paletteItems().find((p) => p.key === 'stars')!;
    expect(item).toMatchObject({ group: 'others', component: 'StarScore', title: { zh: '星级评分', en: 'Star score' }, registration: 'StarScore' });
    expect(item.schema).toMatchObject({ type: 'number', title: '星级评分', titleEn: 'Star score', 'x-decorator': 'FormItem', 'x-component': 'StarScore' });
    expect(palette().filter((p) => p.group === 'others').map((p) => p.key)).toEqual(['icon', 'switch', 'rate', 'slider', 'color', 'stars']);
    expect(kindOf({ 'x-component': 'StarScore' })).toBe('stars');

    const { ws, tree } = renderStudio({ type: 'object', properties: {} });
    await waitForHistory(ws(), 1);
    const source = document.querySelector('[data-palette-key="stars"]') as HTMLElement;
    expect(source.textContent).toBe('星级评分');
    expect(source.querySelector('.kc-dz-palette-icon .anticon-star')).toBeTruthy();
    clickPalette('stars');
    await waitFor(() => expect(tree().children.map((c) => c.props['x-component'])).toEqual(['StarScore']));
    const node = tree().children[0];
    // the canvas draws the component itself
    await waitFor(() => expect(document.querySelectorAll('.test-stars button')).toHaveLength(5));

    // the settings form: its own setting, labelled by its registration's text, writing into the node
    const settings = (await screen.findByText('星星总数')).closest('form') as HTMLElement;
    expect(within(settings).getByText('星级评分')).toBeTruthy(); // the type shown is the item's title
    expect(within(settings).queryByText('占位提示')).toBeNull();
    expect(within(settings).queryByText('默认值')).toBeNull();
    const count = within(settings).getByRole('spinbutton', { name: '星星总数' }) as HTMLInputElement;
    expect(count.value).toBe('5');
    fireEvent.change(count, { target: { value: '7' } });
    await waitFor(() => expect(node.props['x-component-props']).toEqual({ count: 7 }));
    // its rule: a chosen value, so required reads 请选择 + label
    fireEvent.click(within(settings).getByRole('switch', { name: '是否必填' }));
    await waitFor(() => expect(node.props['x-validator']).toEqual([{ required: true, message: '请选择星级评分', messageEn: 'Please select Star score' }]));

    setLang('en');
    expect(await within(settings).findByText('Number of stars')).toBeTruthy();
    expect(document.querySelector('[data-palette-key="stars"]')?.textContent).toBe('Star score');
  });
});
