// @vitest-environment jsdom
/**
 * /previewFile (spec 000 §2.2; issue 18): a stored file by its link (or its attachment id), read with the session's headers and shown
 * by kind — .docx through docx-preview (replaced here: jsdom cannot lay out Word), .pdf in a frame over a blob:
 * URL (the browser's viewer), images, text (UTF-8 and GB18030); another kind offers the download; a link of
 * another site is refused without a request; without a session the page offers the login; a missing file
 * shows the server's message; English.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { renderApp, setLang } from '../runtime/test-utils.js';
import { signInAs } from '../runtime/fixtures.js';
import { clearSession } from '../runtime/session.js';
import { dispositionName, FilePreviewPage, previewKind } from './FilePreviewPage.js';

const rendered = vi.hoisted(() => ({ blobs: [] as unknown[] }));
vi.mock('docx-preview', () => ({
  renderAsync: async (blob: unknown, el: HTMLElement) => {
    rendered.blobs.push(blob);
    el.textContent = '可行性报告正文';
  },
}));

const LINK = '/api/blade-resource/oss/endpoint/file/upload/20261125/abc';
interface Sent {
  url: string;
  headers: Record<string, string>;
}
let sent: Sent[];
let files: Record<string, { body: BodyInit; type: string; name: string } | { status: number; msg: string }>;

beforeEach(() => {
  setLang('zh');
  signInAs('kyry');
  rendered.blobs = [];
  sent = [];
  files = {};
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    sent.push({ url, headers: (init.headers ?? {}) as Record<string, string> });
    const headers = init.headers as Record<string, string>;
    const f = files[url];
    if (!headers['Blade-Auth']) return new Response(JSON.stringify({ code: 401, success: false, msg: '请求未授权' }), { status: 401 });
    if (!f) return new Response(JSON.stringify({ code: 404, success: false, msg: '数据不存在' }), { status: 404 });
    if ('status' in f) return new Response(JSON.stringify({ code: f.status, success: false, msg: f.msg }), { status: f.status });
    return new Response(f.body, { status: 200, headers: { 'content-type': f.type, 'content-disposition': `inline; filename="x"; filename*=UTF-8''${encodeURIComponent(f.name)}` } });
  });
  let n = 0;
  URL.createObjectURL = vi.fn(() => `blob:http://localhost/${++n}`);
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const open = (url: string) => renderApp(<RouterProvider router={createMemoryRouter([{ path: '*', element: <FilePreviewPage /> }], { initialEntries: [url] })} />);
const at = (link: string) => `/previewFile?url=${encodeURIComponent(link)}`;

describe('/previewFile', () => {
  it('kinds by extension, and the name of a Content-Disposition', () => {
    expect(['a.docx', 'b.PDF', 'c.jpeg', 'd.svg', 'e.txt', 'f.csv', 'g.doc', 'h.zip', 'noext'].map(previewKind)).toEqual(['docx', 'pdf', 'image', 'image', 'text', 'text', 'other', 'other', 'other']);
    expect(dispositionName(`inline; filename="_.pdf"; filename*=UTF-8''${encodeURIComponent('专利证书.pdf')}`)).toBe('专利证书.pdf');
    expect(dispositionName('attachment; filename="plain.txt"')).toBe('plain.txt');
    expect(dispositionName(null)).toBeUndefined();
  });

  it('a .docx through docx-preview, titled by its own name, with the session’s token', async () => {
    files[`${LINK}.docx`] = { body: 'PK docx bytes', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', name: '可行性研究报告.docx' };
    open(at(`${LINK}.docx`));
    expect(await screen.findByRole('heading', { name: '可行性研究报告.docx' })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('document-body').textContent).toBe('可行性报告正文'));
    expect(rendered.blobs).toHaveLength(1);
    expect(sent[0].headers['Blade-Auth']).toBe('bearer test-token');
    expect((screen.getByRole('button', { name: /下\s*载/ }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('a .pdf in the browser’s viewer: a frame over a blob: URL of type application/pdf', async () => {
    files[`${LINK}.pdf`] = { body: '%PDF-1.4 bytes', type: 'application/pdf', name: '专利证书.pdf' };
    open(at(`${LINK}.pdf`));
    const frame = (await screen.findByTestId('pdf-frame')) as HTMLIFrameElement;
    expect(frame.getAttribute('src')).toMatch(/^blob:/);
    const blob = vi.mocked(URL.createObjectURL).mock.calls[0][0] as Blob;
    expect(blob.type).toBe('application/pdf');
    expect(screen.getByRole('heading', { name: '专利证书.pdf' })).toBeTruthy();
  });

  it('an image as an image', async () => {
    files[`${LINK}.png`] = { body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), type: 'image/png', name: '证书扫描件.png' };
    open(at(`${LINK}.png`));
    const img = (await screen.findByRole('img', { name: '证书扫描件.png' })) as HTMLImageElement;
    expect(img.getAttribute('src')).toMatch(/^blob:/);
  });

  it('text as text, UTF-8 or GB18030', async () => {
    files[`${LINK}.txt`] = { body: '第一行\n第二行 UTF-8', type: 'text/plain', name: '说明.txt' };
    open(at(`${LINK}.txt`));
    await waitFor(() => expect(screen.getByTestId('text-body').textContent).toBe('第一行\n第二行 UTF-8'));
    // “粮食” in GB18030
    files[`${LINK}2.txt`] = { body: new Uint8Array([0xc1, 0xb8, 0xca, 0xb3]), type: 'text/plain', name: '旧文件.txt' };
    open(at(`${LINK}2.txt`));
    await waitFor(() => expect(screen.getAllByTestId('text-body').some((e) => e.textContent === '粮食')).toBe(true));
  });

  it('an attachment by its id: getDirPath?id= gives its link and name, then the file is shown', async () => {
    files[`${LINK}9.txt`] = { body: '按编号打开', type: 'text/plain', name: 'ignored.txt' };
    const where = `/api/basic/basicfile/getDirPath?id=9`;
    files[where] = { body: JSON.stringify({ code: 200, success: true, data: { link: `${LINK}9.txt`, originalName: '编号文件.txt' } }), type: 'application/json', name: 'x.json' };
    open('/previewFile?id=9');
    await waitFor(() => expect(screen.getByTestId('text-body').textContent).toBe('按编号打开'));
    expect(screen.getByRole('heading', { name: '编号文件.txt' })).toBeTruthy();
    expect(sent.map((x) => x.url)).toEqual([where, `${LINK}9.txt`]);
    open('/previewFile?id=404');
    expect(await screen.findByText('数据不存在')).toBeTruthy();
  });

  it('another kind offers the download; a link of another site is refused without a request', async () => {
    files[`${LINK}.zip`] = { body: 'PK zip', type: 'application/zip', name: '资料.zip' };
    open(at(`${LINK}.zip`));
    expect(await screen.findByText('该文件类型不支持在线预览，请下载后查看')).toBeTruthy();
    open(at('https://evil.example.com/x.pdf'));
    expect(await screen.findByText('只能预览本站的文件')).toBeTruthy();
    expect(sent.map((s) => s.url)).toEqual([`${LINK}.zip`]);
    open('/previewFile');
    expect(await screen.findByText('缺少要预览的文件地址')).toBeTruthy();
  });

  it('a missing file shows the server’s message; without a session the page offers the login', async () => {
    open(at(`${LINK}-gone.pdf`));
    expect(await screen.findByText('数据不存在')).toBeTruthy();
    clearSession();
    open(at(`${LINK}.pdf`));
    expect(await screen.findByText('请登录后查看该文件')).toBeTruthy();
    expect(screen.getByRole('button', { name: /去\s*登\s*录/ })).toBeTruthy();
  });

  it('speaks English', async () => {
    setLang('en');
    files[`${LINK}.zip`] = { body: 'PK zip', type: 'application/zip', name: 'data.zip' };
    open(at(`${LINK}.zip`));
    expect(await screen.findByText('This kind of file cannot be shown in the browser: download it to read it')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Download/ })).toBeTruthy();
    setLang('zh');
  });
});
