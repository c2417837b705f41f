// @vitest-environment jsdom
/**
 * The project declarations' 查重 row operation (schemas/project/baseinfo.json, issue 15): a view dialog whose
 * DuplicateResult checks the clicked row on the spot (`/api/project/baseinfo/checkRepeat?id=` of that row)
 * and shows the repeating project side by side with the declaration's text.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import baseinfoJson from '../../../schemas/project/baseinfo.json';
import type { ResourceSchema } from '../../shared/schema/types.js';
import { ResourcePage } from './ResourcePage.js';
import { ok, renderApp, setLang, type FakeServer } from './test-utils.js';
import { baseServer } from './fixtures.js';

const NAME = '智能粮库关键技术研究';
const OTHER = `前期项目：${NAME}（一期）`;
let server: FakeServer;

beforeEach(() => {
  setLang('zh');
  server = baseServer([baseinfoJson as unknown as ResourceSchema]);
  server.on('GET', '/api/project/baseinfo/list', ok({ records: [{ id: '301', name: NAME, projectStatus: 1 }, { id: '302', name: '另一项目', projectStatus: 1 }], total: 2, size: 10, current: 1, pages: 1 }));
  server.on('GET', '/api/project/baseinfo/checkRepeat', ok({
    documentId: null, title: NAME, charCount: NAME.length, similarity: 100, matchedChars: NAME.length, sourceCount: 1, content: NAME,
    sources: [{ documentId: '701', title: '前期项目', sourceType: 'record', link: null, resource: 'project/baseinfo', recordId: '299', similarity: 100, matchedChars: NAME.length, passageCount: 1 }],
    passages: [{ sourceDocumentId: '701', sourceTitle: '前期项目', start: 0, end: NAME.length, sourceStart: OTHER.indexOf(NAME), sourceEnd: OTHER.indexOf(NAME) + NAME.length, length: NAME.length }],
  }));
  server.on('GET', '/api/project/baseinfo/checkRepeat/text', ok({ id: '701', title: '前期项目', content: OTHER, resource: 'project/baseinfo', recordId: '299' }));
});

describe('查重 on the project declarations', () => {
  it('checks the clicked row and shows both texts with the repeated name highlighted', async () => {
    renderApp(<ResourcePage name="project/baseinfo" />);
    await screen.findByText(NAME);
    const row = screen.getByText(NAME).closest('tr')! as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: /查\s*重/ }));
    await waitFor(() => expect(screen.getByTestId('duplicate-left').textContent).toBe(NAME));
    expect(server.calls('/api/project/baseinfo/checkRepeat')[0].query).toEqual({ id: '301' });
    expect(screen.getByTestId('duplicate-similarity').textContent).toBe('总相似度100%');
    await waitFor(() => expect(screen.getByTestId('duplicate-right').textContent).toBe(OTHER));
    expect([...screen.getByTestId('duplicate-right').querySelectorAll('mark')].map((m) => m.textContent)).toEqual([NAME]);
    expect(server.calls('/api/project/baseinfo/checkRepeat/text')[0].query).toEqual({ id: '301', documentId: '701' });
  });
});
