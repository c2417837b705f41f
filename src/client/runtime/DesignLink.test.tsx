// @vitest-environment jsdom
/**
 * A list operation of result `design` (portal/model's 设计): each row links to the form designer on the row's
 * designed field — `/designer/portal/model?id=<key>&field=form` — labelled in the user's language; the other
 * row buttons stay.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { screen, within } from '@testing-library/react';
import modelJson from '../../../schemas/portal/model.json';
import type { ResourceSchema } from '../../shared/schema/types.js';
import { ResourcePage } from './ResourcePage.js';
import { renderApp, setLang } from './test-utils.js';
import { baseServer } from './fixtures.js';
import { designerUrl } from './DesignLink.js';

const model = modelJson as unknown as ResourceSchema;

beforeEach(() => {
  setLang('zh');
  const server = baseServer([model]);
  server.on('GET', '/api/portal/model/list', { records: [{ id: '21', name: '期刊模型', code: 'journal' }, { id: '22', name: '专利模型', code: 'patent' }], total: 2, size: 10, current: 1, pages: 1 });
});
afterEach(() => setLang('zh'));

describe('DesignLink', () => {
  it('links every model row to the designer on its field design', async () => {
    renderApp(<ResourcePage name="portal/model" />);
    const row = (await screen.findByText('期刊模型')).closest('tr')!;
    const link = within(row).getByRole('link', { name: '设计' });
    expect(link.getAttribute('href')).toBe('/designer/portal/model?id=21&field=form');
    expect(within(row).getByRole('button', { name: /编\s*辑|修\s*改/ })).toBeTruthy();
    const other = screen.getByText('专利模型').closest('tr')!;
    expect(within(other).getByRole('link', { name: '设计' }).getAttribute('href')).toBe('/designer/portal/model?id=22&field=form');
  });

  it('says Design in English', async () => {
    setLang('en');
    renderApp(<ResourcePage name="portal/model" />);
    const row = (await screen.findByText('期刊模型')).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'Design' })).toBeTruthy();
    expect(designerUrl(model, { designField: 'form' }, '7')).toBe('/designer/portal/model?id=7&field=form');
  });
});
