// @vitest-environment jsdom
/**
 * The online editor page (DocxEditorPage; issue 17): opening takes the lock and loads the current bytes into the
 * editor (DocxCanvas, replaced here by a stand-in: jsdom cannot lay out Word — the real editor is exercised by
 * tests/e2e/docx-editor.spec.ts); 保存 and Ctrl+S post the packed .docx as a new version; another holder's lock
 * opens read-only with a banner naming them; the version drawer lists, previews (docx-preview, replaced) and
 * restores versions; English texts; no fileId.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import React, { forwardRef, useImperativeHandle } from 'react';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { FakeServer, ok, renderApp, setLang, type FakeRequest } from '../runtime/test-utils.js';
import { DocxEditorPage } from './DocxEditorPage.js';

const editor = vi.hoisted(() => ({ props: [] as Array<Record<string, unknown>>, packed: new Uint8Array([0x50, 0x4b, 3, 4, 9]).buffer }));
vi.mock('./editor/DocxCanvas.js', () => {
  const Stand = forwardRef<unknown, Record<string, any>>(function Stand(p, ref) {
    editor.props.push(p);
    useImperativeHandle(ref, () => ({
      save: async () => {
        p.onSave(editor.packed);
        return editor.packed;
      },
    }));
    return <div data-testid="canvas">{p.readOnly ? 'read-only' : 'editable'}</div>;
  });
  return { default: Stand, DocxCanvas: Stand };
});
const previewed = vi.hoisted(() => ({ count: 0 }));
vi.mock('docx-preview', () => ({
  renderAsync: async (_bytes: unknown, el: HTMLElement) => {
    previewed.count++;
    el.textContent = '版本正文';
  },
}));

const B = '/api/onlyoffice/endpoint';
const lock = (mine: boolean) => ({ userId: mine ? '1' : '2', userName: mine ? '李科' : '刘研', since: '2026-11-25 10:00:00', lastActive: '2026-11-25 10:00:00', expiresAt: '2026-11-25 10:05:00', mine });
const opened = (mode: 'edit' | 'view', version = 1, canEdit = true) => ({
  fileId: '42', fileName: '投标文件.docx', extension: 'docx', size: 1000, version, mode, canEdit, lock: mode === 'edit' ? lock(true) : canEdit ? lock(false) : null, lockIdleSeconds: 300,
});
const history = (current: number) => ({
  fileId: '42', currentVersion: current,
  history: Array.from({ length: current }, (_, i) => current - i).map((v) => ({ version: v, size: 1000 + v, createUser: '1', createUserName: '李科', createTime: `2026-11-25 10:0${v}:00`, restoredFrom: null, current: v === current })),
});

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  editor.props = [];
  previewed.count = 0;
  server = new FakeServer().install();
  server.on('GET', `${B}/file-history-data`, ok('docx bytes'));
  server.on('POST', `${B}/close`, ok({ released: true }));
});

const open = (url = '/smartdoc/editor?fileId=42') =>
  renderApp(<RouterProvider router={createMemoryRouter([{ path: '*', element: <DocxEditorPage /> }], { initialEntries: [url] })} />);
const lastProps = () => editor.props[editor.props.length - 1];

describe('the online editor page', () => {
  it('opens for editing, saves with the button and with Ctrl+S as new versions', async () => {
    let version = 1;
    server.on('GET', `${B}/edit`, () => ok(opened('edit', version)));
    server.on('POST', `${B}/save`, () => {
      version++;
      return { status: 200, json: { code: 200, success: true, msg: '保存成功', data: { fileId: '42', version, size: 5, createTime: '2026-11-25 10:09:00', restoredFrom: null } } };
    });
    open();
    expect(await screen.findByRole('heading', { name: '投标文件.docx' })).toBeTruthy();
    expect(await screen.findByTestId('canvas')).toBeTruthy();
    expect(screen.getByTestId('canvas').textContent).toBe('editable');
    expect(screen.getByTestId('editor-version').textContent).toBe('版本 1');
    expect(screen.getByText('编辑中')).toBeTruthy();
    expect(server.calls(`${B}/edit`)[0].query.fileId).toBe('42');
    expect(server.calls(`${B}/file-history-data`)[0].query).toEqual({ fileId: '42' });
    expect(lastProps().buffer).toBeInstanceOf(ArrayBuffer);

    act(() => (lastProps().onChange as () => void)());
    expect(screen.getByText('未保存')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(screen.getByTestId('editor-version').textContent).toBe('版本 2'));
    const saved = server.calls(`${B}/save`)[0];
    expect(saved.query.fileId).toBe('42');
    expect(saved.headers['Content-Type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(new Uint8Array(saved.body as ArrayBuffer)).toEqual(new Uint8Array(editor.packed));
    expect(screen.queryByText('未保存')).toBeNull();

    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    await waitFor(() => expect(screen.getByTestId('editor-version').textContent).toBe('版本 3'));
    expect(server.calls(`${B}/save`)).toHaveLength(2);
  });

  it('opens read-only with a banner naming the holder when someone else edits', async () => {
    server.on('GET', `${B}/edit`, ok(opened('view')));
    open();
    expect(await screen.findByText('刘研 正在编辑此文档（2026-11-25 10:00:00 起），您当前只能查看')).toBeTruthy();
    expect((await screen.findByTestId('canvas')).textContent).toBe('read-only');
    expect(screen.getByText('只读')).toBeTruthy();
    expect((screen.getByRole('button', { name: /保\s*存/ }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    expect(server.calls(`${B}/save`)).toHaveLength(0);
  });

  it('says so when the caller may not edit', async () => {
    server.on('GET', `${B}/edit`, ok(opened('view', 1, false)));
    open();
    expect(await screen.findByText('您没有编辑该文档的权限，当前只能查看')).toBeTruthy();
  });

  it('lists versions in the drawer, previews one and restores it', async () => {
    let version = 2;
    server.on('GET', `${B}/edit`, () => ok(opened('edit', version)));
    server.on('GET', `${B}/file-history`, () => ok(history(version)));
    server.on('POST', `${B}/restore`, (req: FakeRequest) => {
      version++;
      return ok({ fileId: '42', version, size: 1001, createTime: '2026-11-25 10:09:00', restoredFrom: Number(req.query.version) });
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: /历史版本/ }));
    const drawer = await screen.findByRole('dialog');
    await waitFor(() => expect(within(drawer).getAllByRole('row')).toHaveLength(3));
    expect(within(drawer).getByText('当前版本')).toBeTruthy();
    expect(within(drawer).getAllByText('李科')).toHaveLength(2);

    fireEvent.click(within(drawer).getAllByRole('button', { name: /预\s*览/ })[1]);
    expect(await screen.findByText('版本 1 预览')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('version-preview').textContent).toBe('版本正文'));
    expect(server.calls(`${B}/file-history-data`).some((c) => c.query.version === '1')).toBe(true);
    const closes = screen.getAllByRole('button', { name: 'Close' }); // the drawer's, then the preview's
    fireEvent.click(closes[closes.length - 1]);

    const loads = server.calls(`${B}/file-history-data`).filter((c) => !c.query.version).length;
    fireEvent.click(within(drawer).getByRole('button', { name: /恢\s*复/ }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(server.calls(`${B}/restore`)).toHaveLength(1));
    expect(server.calls(`${B}/restore`)[0].query).toEqual({ fileId: '42', version: '1' });
    await waitFor(() => expect(screen.getByTestId('editor-version').textContent).toBe('版本 3'));
    // the editor reloads the document's current bytes
    expect(server.calls(`${B}/file-history-data`).filter((c) => !c.query.version).length).toBe(loads + 1);
  });

  it('speaks English', async () => {
    setLang('en');
    server.on('GET', `${B}/edit`, ok(opened('view')));
    open();
    expect(await screen.findByText('刘研 is editing this document (since 2026-11-25 10:00:00); you can only view it')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Versions/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Save/ })).toBeTruthy();
    expect(screen.getByTestId('editor-version').textContent).toBe('Version 1');
  });

  it('asks for nothing without a fileId', async () => {
    open('/smartdoc/editor');
    expect(await screen.findByText('缺少要编辑的文档（fileId）')).toBeTruthy();
    expect(server.requests).toHaveLength(0);
  });
});
