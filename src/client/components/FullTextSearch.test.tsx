// @vitest-environment jsdom
/**
 * FullTextSearch through its page schema (schemas/_pages/search.json, the menu path /es/search): a keyword asks
 * searchByEs, the hits show with only the server's <em> marks kept as HTML, the number found and paging ask
 * page 2; with searchByGPT configured an 智能问答 button asks it for an answer shown above the hits; unconfigured,
 * no button. English texts. The search is kept in the address: rendered anew (as the language switch does), the
 * page shows the same hits.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { SchemaPage } from '../runtime/SchemaPage.js';
import { pageForPath } from '../runtime/menu-pages.js';
import { ok, renderApp, setLang, type FakeRequest, type FakeServer } from '../runtime/test-utils.js';
import { baseServer } from '../runtime/fixtures.js';
import { highlightHtml } from './FullTextSearch.js';

let server: FakeServer;
const hits = (page: number) =>
  Array.from({ length: 10 }, (_, i) => ({ id: String(page * 100 + i), title: `低温储粮 第${page}页 ${i + 1}`, highlight: `采用<em>低温</em><em>储粮</em><script>x</script> ${i}` }));

beforeEach(() => {
  window.history.replaceState(null, '', '/es/search'); // the search is kept in the address (?q=&source=&page=)
  setLang('zh');
  server = baseServer();
  server.on('GET', '/api/portal/content/searchByEs', (req: FakeRequest) => ok({ records: hits(Number(req.query.current)), total: 15, words: ['低温', '储粮'] }));
});

const render = () => renderApp(<SchemaPage page={pageForPath('/es/search')!} />);
const search = (v: string) => {
  const box = screen.getByPlaceholderText(/请输入关键词|Keywords/);
  fireEvent.change(box, { target: { value: v } });
  fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
};

describe('FullTextSearch', () => {
  it('keeps only the <em> marks of a highlight', () => {
    expect(highlightHtml('a<em>b</em><img src=x onerror=1>')).toBe('a<em>b</em>&#60;img src=x onerror=1&#62;');
  });

  it('searches, shows the highlighted hits and pages; no 智能问答 while unconfigured', async () => {
    server.on('GET', '/api/portal/content/searchByGPT', ok({ configured: false, answer: '', hits: [] }));
    render();
    search('低温 储粮');
    expect(await screen.findByText('低温储粮 第1页 1')).toBeTruthy();
    expect(server.calls('/api/portal/content/searchByEs')[0].query).toMatchObject({ keyword: '低温 储粮', current: '1', size: '10' });
    expect(screen.getByText('共找到 15 条')).toBeTruthy();
    const marks = document.querySelectorAll('.kc-search-highlight em');
    expect(marks.length).toBe(20);
    expect(document.querySelector('.kc-search-highlight script')).toBeNull();
    await waitFor(() => expect(server.calls('/api/portal/content/searchByGPT')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: /智能问答/ })).toBeNull();
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('低温储粮 第2页 1')).toBeTruthy();
  });

  it('keeps the search in the address: rendered anew, as after the language switch, it shows the same hits and page', async () => {
    server.on('GET', '/api/portal/content/searchByGPT', ok({ configured: false }));
    render();
    search('低温 储粮');
    expect(await screen.findByText('低温储粮 第1页 1')).toBeTruthy();
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('低温储粮 第2页 1')).toBeTruthy();
    const url = new URLSearchParams(window.location.search);
    expect([url.get('q'), url.get('page')]).toEqual(['低温 储粮', '2']);
    cleanup();
    setLang('en');
    render();
    expect(await screen.findByText('低温储粮 第2页 1')).toBeTruthy();
    expect((screen.getByPlaceholderText(/Keywords/) as HTMLInputElement).value).toBe('低温 储粮');
    // a new search starts at its first page, and clearing it leaves the address clean
    search('');
    await waitFor(() => expect(window.location.search).toBe(''));
  });

  it('says "more than" when the server stopped counting at its window, in zh and en', async () => {
    server.on('GET', '/api/portal/content/searchByGPT', ok({ configured: false }));
    server.on('GET', '/api/portal/content/searchByEs', ok({ records: hits(1), total: 100, totalBounded: true, words: ['粮温'] }));
    render();
    search('粮温');
    expect(await screen.findByText('找到超过 100 条')).toBeTruthy();
    expect(screen.queryByText('共找到 200 条')).toBeNull();
    cleanup();
    setLang('en');
    render();
    search('粮温');
    expect(await screen.findByText('More than 100 found')).toBeTruthy();
  });

  it('searches the chosen resource: achievements and projects have their own searchByEs and no 智能问答', async () => {
    server.on('GET', '/api/portal/content/searchByGPT', ok({ configured: true }));
    server.on('GET', '/api/basic/patent/searchByEs', ok({ records: [{ id: '7', title: '一种横向通风储粮装置', highlight: '<em>横向</em><em>通风</em>' }], total: 1 }));
    render();
    expect(await screen.findByRole('button', { name: /智能问答/ })).toBeTruthy();
    fireEvent.click(screen.getByText('专利'));
    search('横向通风');
    expect(await screen.findByText('一种横向通风储粮装置')).toBeTruthy();
    expect(server.calls('/api/basic/patent/searchByEs')[0].query.keyword).toBe('横向通风');
    expect(server.calls('/api/portal/content/searchByEs')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /智能问答/ })).toBeNull();
    for (const label of ['门户内容', '论文', '软件著作权', '著作', '奖励', '标准', '项目申报']) expect(screen.getByText(label)).toBeTruthy();
  });

  it('asks searchByGPT once configured and shows the answer; English', async () => {
    server.on('GET', '/api/portal/content/searchByGPT', (req: FakeRequest) =>
      ok(req.query.check === '1' ? { configured: true } : { configured: true, answer: `根据资料 [1]：${req.query.keyword}`, hits: [] }),
    );
    setLang('en');
    render();
    search('低温');
    expect(await screen.findByText('15 found')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: /Ask/ }));
    expect(await screen.findByText('根据资料 [1]：低温')).toBeTruthy();
    expect(screen.getByText('Answer (from the hits)')).toBeTruthy();
    setLang('zh');
  });
});
