// @vitest-environment jsdom
/**
 * The public document previews (DocumentPreviewPage; issue 12): the page reads the document its token names
 * from /api/documents/preview and renders it with docx-preview (replaced here: jsdom cannot lay out Word),
 * titled by its route in zh and en; a bad or missing token shows the server's message.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { fail, FakeServer, ok, renderApp, setLang } from '../runtime/test-utils.js';
import { DocumentPreviewPage } from './DocumentPreviewPage.js';

const rendered = vi.hoisted(() => ({ blobs: [] as unknown[] }));
vi.mock('docx-preview', () => ({
  renderAsync: async (blob: unknown, el: HTMLElement) => {
    rendered.blobs.push(blob);
    el.textContent = '任务书正文';
  },
}));

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  rendered.blobs = [];
  server = new FakeServer().install();
});

const open = (url: string) => renderApp(<RouterProvider router={createMemoryRouter([{ path: '*', element: <DocumentPreviewPage /> }], { initialEntries: [url] })} />);

describe('document preview pages', () => {
  it('renders the document its token names, titled by the route, with a download button', async () => {
    server.on('GET', '/api/documents/preview', ok('docx bytes'));
    open('/previewTaskBook?token=abc.def');
    expect(await screen.findByRole('heading', { name: '任务书' })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('document-body').textContent).toBe('任务书正文'));
    expect(server.calls('/api/documents/preview')[0].query.token).toBe('abc.def');
    expect(rendered.blobs).toHaveLength(1);
    expect((screen.getByRole('button', { name: /下\s*载/ }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('speaks English', async () => {
    setLang('en');
    server.on('GET', '/api/documents/preview', ok('docx bytes'));
    open('/previewAcceptReport?token=t');
    expect(await screen.findByRole('heading', { name: 'Acceptance report' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: /Download/ })).toBeTruthy();
  });

  it("shows the server's message for an expired link, and asks nothing without a token", async () => {
    server.on('GET', '/api/documents/preview', fail(401, '预览链接无效或已过期'));
    open('/previewReport?token=old');
    expect(await screen.findByText('预览链接无效或已过期')).toBeTruthy();
    expect(rendered.blobs).toHaveLength(0);
    open('/previewReport');
    await waitFor(() => expect(screen.getAllByText('预览链接无效或已过期')).toHaveLength(2));
    expect(server.calls('/api/documents/preview')).toHaveLength(1);
  });
});
