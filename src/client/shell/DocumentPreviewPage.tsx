/**
 * The public preview pages of the project documents (issue 12; spec 001 §2 "Public preview pages for
 * feasibility report, task book and acceptance report"): `/previewReport`, `/previewTaskBook`,
 * `/previewAcceptReport`, opened from a signed link (`?token=`, 30 minutes; the server's
 * `<api>/generateReportFile`) without signing in. The page reads the .docx from the public
 * `GET /api/documents/preview?token=` (src/server/modules/documents) and renders it in the browser with
 * docx-preview (its own lazy chunk, DESIGN §2 "documents in the browser"); a download button saves the same
 * file. A link that is invalid or expired shows the server's message (预览链接无效或已过期).
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Result, Spin } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router-dom';
import { useSession } from '../runtime/session.js';

type Text = { zh: string; en: string };

/** The document each preview route shows. */
export const PREVIEW_TITLES: Record<string, Text> = {
  '/previewReport': { zh: '可行性研究报告', en: 'Feasibility report' },
  '/previewTaskBook': { zh: '任务书', en: 'Task book' },
  '/previewAcceptReport': { zh: '验收报告', en: 'Acceptance report' },
};

const T = {
  download: { zh: '下载', en: 'Download' },
  failed: { zh: '文档无法显示', en: 'The document cannot be shown' },
  noToken: { zh: '预览链接无效或已过期', en: 'The preview link is invalid or has expired' },
  render: { zh: '文档格式无法在浏览器中显示，请下载后查看', en: 'This document cannot be shown in the browser: download it to read it' },
};

export function DocumentPreviewPage() {
  const { lang } = useSession();
  const { pathname, search } = useLocation();
  const title = (PREVIEW_TITLES[pathname] ?? { zh: '文档预览', en: 'Document preview' })[lang];
  const token = new URLSearchParams(search).get('token') ?? '';
  const body = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ loading: boolean; error?: string; renderError?: boolean; blob?: Blob }>({ loading: true });

  useEffect(() => {
    document.title = title;
  }, [title]);

  useEffect(() => {
    let live = true;
    if (!token) {
      setState({ loading: false, error: T.noToken[lang] });
      return;
    }
    (async () => {
      const res = await fetch(`/api/documents/preview?token=${encodeURIComponent(token)}`, { headers: { 'Accept-Language': lang } });
      if (!res.ok) {
        const msg = await res.json().then((j: { msg?: string }) => j.msg, () => undefined);
        if (live) setState({ loading: false, error: msg || T.failed[lang] });
        return;
      }
      const blob = await res.blob();
      if (!live) return;
      setState({ loading: false, blob });
      try {
        const { renderAsync } = await import('docx-preview');
        if (body.current) await renderAsync(blob, body.current, undefined, { inWrapper: true, ignoreLastRenderedPageBreak: true });
      } catch {
        if (live) setState({ loading: false, blob, renderError: true });
      }
    })().catch(() => live && setState({ loading: false, error: T.failed[lang] }));
    return () => {
      live = false;
    };
  }, [token, lang]);

  const download = () => {
    if (!state.blob) return;
    const url = URL.createObjectURL(state.blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `${title}.docx`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };

  if (state.error) return <Result status="warning" title={title} subTitle={state.error} />;
  return (
    <div style={{ maxWidth: 1000, margin: '0 auto', padding: 24 }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 16 }}>
        <h2 style={{ margin: 0 }}>{title}</h2>
        <Button icon={<DownloadOutlined />} disabled={!state.blob} onClick={download}>
          {T.download[lang]}
        </Button>
      </div>
      {state.loading && <Spin />}
      {state.renderError && <Alert type="info" showIcon message={T.render[lang]} />}
      <div ref={body} data-testid="document-body" />
    </div>
  );
}
