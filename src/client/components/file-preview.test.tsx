// @vitest-environment jsdom
/**
 * Attachments the browser can show (file-preview.ts; spec 000 §2.2 /previewFile; issue 18): their kind by
 * extension, the /previewFile address, and FileUpload's read-only list offering 预览 (Preview) in a new window
 * for those files only, beside the download link.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { screen } from '@testing-library/react';
import { createForm } from '@formily/core';
import { FormProvider } from '@formily/react';
import { SchemaField } from './registry.js';
import { extensionOf, previewHref, previewKind } from './file-preview.js';
import { renderApp, setLang } from '../runtime/test-utils.js';
import { baseServer } from '../runtime/fixtures.js';

const BASE = '/api/blade-resource/oss/endpoint/file/upload/20261125/';

beforeEach(() => {
  setLang('zh');
  baseServer();
});

describe('file preview', () => {
  it('kinds and addresses', () => {
    expect(extensionOf('a/b/报告.DOCX?x=1')).toBe('docx');
    expect(['x.docx', 'x.pdf', 'x.webp', 'x.md', 'x.doc', 'x.psd', 'x.tiff', 'x'].map(previewKind)).toEqual(['docx', 'pdf', 'image', 'text', 'other', 'other', 'other', 'other']);
    expect(previewHref(`${BASE}1.pdf`, '专利证书.pdf')).toBe(`/previewFile?url=${encodeURIComponent(`${BASE}1.pdf`)}&name=${encodeURIComponent('专利证书.pdf')}`);
    expect(previewHref(`${BASE}2.zip`, '资料.zip')).toBeUndefined();
  });

  it('the read-only attachment list offers 预览 for the files the browser can show, in a new window', async () => {
    const form = createForm({
      readPretty: true,
      initialValues: {
        files: [
          { name: 'upload/20261125/1.pdf', link: `${BASE}1.pdf`, originalName: '专利证书.pdf' },
          { name: 'upload/20261125/2.zip', link: `${BASE}2.zip`, originalName: '资料.zip' },
        ],
      },
    });
    renderApp(
      <FormProvider form={form}>
        <SchemaField schema={{ type: 'object', properties: { files: { type: 'array', 'x-component': 'FileUpload' } } as never }} />
      </FormProvider>,
    );
    expect(await screen.findByText('专利证书.pdf')).toBeTruthy();
    const links = screen.getAllByRole('link', { name: '预览' }) as HTMLAnchorElement[];
    expect(links).toHaveLength(1);
    expect(links[0].getAttribute('href')).toBe(previewHref(`${BASE}1.pdf`, '专利证书.pdf'));
    expect(links[0].target).toBe('_blank');
    expect(links[0].rel).toContain('noopener');
    expect(screen.getByText('资料.zip')).toBeTruthy();
  });
});
