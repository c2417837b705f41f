// @vitest-environment jsdom
/**
 * The duplicate-check result screen (issue 15): figures of the checked file, its sources, and the two texts
 * side by side with the matched passages highlighted — on the left every passage (the chosen source's red,
 * the others' orange), on the right the chosen source's passages at their offsets in the source; choosing
 * another source changes the right text; each source's links (a file downloads, a record's source opens the
 * record's detail); check mode (a record checked on the spot, a source the user may not read); a running task
 * shows its progress; English texts.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import './catalog.js';
import { DuplicateResult, segments } from './DuplicateResult.js';
import { FakeServer, ok, renderApp, setLang } from '../runtime/test-utils.js';

let server: FakeServer;

const QUERY = '本项目研究低温储粮技术。我们在华北地区开展了试验，仓温控制在十五度以下。此外，谷冷机降温效果明显。';
const SRC_A = '前言。我们在华北地区开展了试验，仓温控制在十五度以下。结论。';
const SRC_B = '其他文献：谷冷机降温效果明显。';

const at = (text: string, piece: string) => ({ start: text.indexOf(piece), end: text.indexOf(piece) + piece.length });
const pA = '我们在华北地区开展了试验，仓温控制在十五度以下';
const pB = '谷冷机降温效果明显';

const RESULT = {
  task: { id: '9001', name: '测试任务', taskStatus: 2, progress: 100 },
  files: [
    {
      documentId: '501',
      title: '申报书.docx',
      charCount: QUERY.length,
      similarity: 61.5,
      matchedChars: 30,
      sourceCount: 2,
      sources: [
        { documentId: '601', title: '论文甲.pdf', sourceType: 'file', link: '/api/blade-resource/oss/endpoint/file/upload/20250101/a.pdf', resource: null, recordId: null, similarity: 42.11, matchedChars: 21, passageCount: 1 },
        { documentId: '602', title: '专利乙：附件.docx', sourceType: 'attach', link: null, resource: 'basic/patent', recordId: '77', similarity: 19.3, matchedChars: 9, passageCount: 1 },
      ],
      passages: [
        { sourceDocumentId: '601', sourceTitle: '论文甲.pdf', ...at(QUERY, pA), sourceStart: at(SRC_A, pA).start, sourceEnd: at(SRC_A, pA).end, length: 21 },
        { sourceDocumentId: '602', sourceTitle: '专利乙：附件.docx', ...at(QUERY, pB), sourceStart: at(SRC_B, pB).start, sourceEnd: at(SRC_B, pB).end, length: 9 },
      ],
    },
  ],
};

const TEXTS: Record<string, { id: string; title: string; content: string }> = {
  '501': { id: '501', title: '申报书.docx', content: QUERY },
  '601': { id: '601', title: '论文甲.pdf', content: SRC_A },
  '602': { id: '602', title: '专利乙：附件.docx', content: SRC_B },
};

const marks = (testId: string) => [...screen.getByTestId(testId).querySelectorAll('mark')].map((m) => [m.getAttribute('data-kind'), m.textContent]);

beforeEach(() => {
  setLang('zh');
  server = new FakeServer().install();
  server.on('GET', '/api/duplicate/duplicatetask/getResult', () => ok(RESULT));
  server.on('GET', '/api/duplicate/duplicatetask/getText', (r: { query: Record<string, string> }) => ok(TEXTS[r.query.documentId]));
});

describe('DuplicateResult', () => {
  it('shows the figures, the sources and both texts with the passages highlighted', async () => {
    renderApp(<DuplicateResult value="9001" />);
    await waitFor(() => expect(screen.getByTestId('duplicate-left')).toBeTruthy());
    expect(screen.getByText('总相似度')).toBeTruthy();
    expect(screen.getByTestId('duplicate-similarity').textContent).toBe('总相似度61.5%');
    expect(screen.getByText('42.11%')).toBeTruthy();
    expect(screen.getByText('论文甲.pdf')).toBeTruthy();
    expect(screen.getByText('附件')).toBeTruthy();
    // left: the chosen (first) source's passage in red, the other source's in orange, the rest plain
    expect(marks('duplicate-left')).toEqual([
      ['main', pA],
      ['other', pB],
    ]);
    expect(screen.getByTestId('duplicate-left').textContent).toBe(QUERY);
    await waitFor(() => expect(screen.getByTestId('duplicate-right').textContent).toBe(SRC_A));
    expect(marks('duplicate-right')).toEqual([['main', pA]]);
    expect(server.calls('/api/duplicate/duplicatetask/getResult')[0].query).toEqual({ id: '9001' });
  });

  it('a source the user may not read keeps its passages marked and shows the server’s message instead of its text', async () => {
    server.on('GET', '/api/duplicate/duplicatetask/getText', (r: { query: Record<string, string> }) =>
      r.query.documentId === '601' ? { status: 403, json: { code: 403, success: false, data: null, msg: '无权查看该来源的内容' } } : ok(TEXTS[r.query.documentId]),
    );
    renderApp(<DuplicateResult value="9001" />);
    await waitFor(() => expect(screen.getByTestId('duplicate-right-hidden').textContent).toBe('无权查看该来源的内容'));
    expect(marks('duplicate-left')).toEqual([
      ['main', pA],
      ['other', pB],
    ]);
  });

  it('choosing another source shows its text and makes its passage the red one', async () => {
    renderApp(<DuplicateResult value="9001" />);
    await waitFor(() => expect(screen.getByText('专利乙：附件.docx')).toBeTruthy());
    fireEvent.click(screen.getByText('专利乙：附件.docx'));
    await waitFor(() => expect(screen.getByTestId('duplicate-right').textContent).toBe(SRC_B));
    expect(marks('duplicate-right')).toEqual([['main', pB]]);
    expect(marks('duplicate-left')).toEqual([
      ['other', pA],
      ['main', pB],
    ]);
  });

  it('each source has its link: a file downloads, a record’s source opens that record’s detail', async () => {
    const patent = {
      name: 'basic/patent', title: '专利', titleEn: 'Patents', api: '/api/basic/patent', table: 'basic_patent', labelField: 'name',
      form: { type: 'object', properties: { name: { type: 'string', title: '专利名称', titleEn: 'Name', 'x-decorator': 'FormItem', 'x-component': 'Input' } } },
    };
    server.on('GET', '/api/system/schema/detail', (r: { query: Record<string, string> }) => (r.query.name === 'basic/patent' ? ok(patent) : ok(null)));
    server.on('GET', '/api/basic/patent/detail', (r: { query: Record<string, string> }) => ok({ id: r.query.id, name: '一种低温储粮控制方法' }));
    server.on('GET', '/api/blade-resource/oss/endpoint/file/upload/20250101/a.pdf', () => ({ status: 200, json: 'pdf' }));
    renderApp(<DuplicateResult value="9001" />);
    await waitFor(() => expect(screen.getByText('专利乙：附件.docx')).toBeTruthy());
    // the uploaded file (no record): a download link only
    expect(screen.getAllByRole('button', { name: '打开来源' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: '查看来源记录' })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: '查看来源记录' }));
    await waitFor(() => expect(screen.getByText('一种低温储粮控制方法')).toBeTruthy());
    expect(server.calls('/api/system/schema/detail')[0].query).toEqual({ name: 'basic/patent' });
    expect(server.calls('/api/basic/patent/detail')[0].query).toEqual({ id: '77' });
    // opening a record does not choose the source: the right text stays the first source's
    expect(screen.getByTestId('duplicate-right').textContent).toBe(SRC_A);
    const saved = vi.fn(() => 'blob:saved');
    Object.assign(URL, { createObjectURL: saved, revokeObjectURL: vi.fn() });
    fireEvent.click(screen.getByRole('button', { name: '打开来源' }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    expect(server.calls('/api/blade-resource/oss/endpoint/file/upload/20250101/a.pdf')).toHaveLength(1);
  });

  it('check mode: a record checked on the spot — its own text on the left, a readable source on the right, a hidden one with the server’s message', async () => {
    const CHECK = '/api/project/baseinfo/checkRepeat';
    server.on('GET', CHECK, () => ok({ ...RESULT.files[0], documentId: null, title: '低温储粮项目', content: QUERY }));
    server.on('GET', `${CHECK}/text`, (r: { query: Record<string, string> }) =>
      r.query.documentId === '601' ? ok(TEXTS['601']) : { status: 403, json: { code: 403, success: false, data: null, msg: '无权查看该来源的内容' } },
    );
    renderApp(<DuplicateResult checkUrl={CHECK} recordId="88" />);
    await waitFor(() => expect(screen.getByTestId('duplicate-left').textContent).toBe(QUERY));
    expect(server.calls(CHECK)[0].query).toEqual({ id: '88' });
    expect(server.calls('/api/duplicate/duplicatetask/getResult')).toHaveLength(0);
    expect(screen.queryByText('下载报告')).toBeNull();
    expect(marks('duplicate-left')).toEqual([
      ['main', pA],
      ['other', pB],
    ]);
    await waitFor(() => expect(screen.getByTestId('duplicate-right').textContent).toBe(SRC_A));
    expect(server.calls(`${CHECK}/text`)[0].query).toEqual({ id: '88', documentId: '601' });
    fireEvent.click(screen.getByText('专利乙：附件.docx'));
    await waitFor(() => expect(screen.getByTestId('duplicate-right-hidden').textContent).toBe('无权查看该来源的内容'));
    expect(marks('duplicate-left')).toEqual([
      ['other', pA],
      ['main', pB],
    ]);
  });

  it('a running task shows its progress', async () => {
    server.on('GET', '/api/duplicate/duplicatetask/getResult', () => ok({ task: { id: '9001', taskStatus: 1, progress: 40 }, files: [] }));
    renderApp(<DuplicateResult value="9001" />);
    await waitFor(() => expect(screen.getByText('查重中，请稍候…')).toBeTruthy());
    expect(screen.getByText('40%')).toBeTruthy();
  });

  it('a failed task shows its error', async () => {
    server.on('GET', '/api/duplicate/duplicatetask/getResult', () => ok({ task: { id: '9001', taskStatus: 3, progress: 30, errorMsg: '所选查重文件不存在或已删除' }, files: [] }));
    renderApp(<DuplicateResult value="9001" />);
    await waitFor(() => expect(screen.getByText('查重失败')).toBeTruthy());
    expect(screen.getByText('所选查重文件不存在或已删除')).toBeTruthy();
  });

  it('speaks English', async () => {
    setLang('en');
    renderApp(<DuplicateResult value="9001" />);
    await waitFor(() => expect(screen.getByText('Overall similarity')).toBeTruthy());
    expect(screen.getByText('Similar sources')).toBeTruthy();
    expect(screen.getByText('Download report')).toBeTruthy();
    expect(screen.getByText('Attachment')).toBeTruthy();
  });
});

describe('segments', () => {
  it('cuts a text into plain and highlighted parts, overlaps merged, main over other, offsets clamped', () => {
    expect(segments('abcdefghij', [{ start: 2, end: 5, kind: 'other' }, { start: 4, end: 7, kind: 'main' }, { start: 9, end: 99, kind: 'other' }])).toEqual([
      { text: 'ab', kind: 'plain' },
      { text: 'cd', kind: 'other' },
      { text: 'efg', kind: 'main' },
      { text: 'hi', kind: 'plain' },
      { text: 'j', kind: 'other' },
    ]);
    expect(segments('', [])).toEqual([]);
  });
});
