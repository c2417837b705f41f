/**
 * /previewFile (spec 000 §2.2: a public route, no tab; issue 18; DESIGN §8 Documents): a stored file shown in
 * the browser — `?url=<the file's link>` (an attachment's `link`, as put-file answers it, e.g.
 * `/api/blade-resource/oss/endpoint/file/upload/20261125/<uuid>.pdf`; `name=` optionally gives the title). The
 * spec names the route only; `url` is the parameter BladeX's preview links (kkFileView's `onlinePreview?url=`)
 * carry, and no external preview server is used (the `fileViewServer` parameter is not needed).
 *
 * - Or `?id=<attachment id>` (put-file's `attachId`): its link and name come from basicfile's getDirPath?id=
 *   (the caller's tenant only), then as above.
 * - Only a file of this site: a `url` of another origin is refused before any request (只能预览本站的文件) —
 *   the CSP's connect-src 'self' would refuse it anyway.
 * - The file is read with the session's headers (runtime/api.ts `authHeaders`): the server answers only a
 *   live attachment of the caller's tenant. Without a session (401) the page offers the login, which comes
 *   back here afterwards (return-to.ts); other failures show the server's message.
 * - By the file's extension (its name from Content-Disposition, else from the url; components/file-preview.ts): .docx → docx-preview
 *   (its lazy chunk); .pdf → the browser's own PDF viewer in a frame over a blob: URL (CSP frame-src admits
 *   blob:, nothing else was loosened); png jpg jpeg bmp gif webp svg → an image; txt csv log md json xml →
 *   the text (UTF-8, else GB18030); anything else → 该文件类型不支持在线预览 with the download button, which
 *   every kind offers.
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Result, Spin, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSession } from '../runtime/session.js';
import { authHeaders } from '../runtime/api.js';
import { rememberReturn } from './return-to.js';
import { extensionOf, previewKind, type PreviewKind } from '../components/file-preview.js';

export { previewKind };

const T = {
  title: { zh: '文件预览', en: 'File preview' },
  download: { zh: '下载', en: 'Download' },
  noUrl: { zh: '缺少要预览的文件地址', en: 'No file to preview was given' },
  foreign: { zh: '只能预览本站的文件', en: 'Only files of this site can be previewed' },
  failed: { zh: '文件无法读取', en: 'The file cannot be read' },
  login: { zh: '请登录后查看该文件', en: 'Sign in to see this file' },
  loginButton: { zh: '去登录', en: 'Sign in' },
  unsupported: { zh: '该文件类型不支持在线预览，请下载后查看', en: 'This kind of file cannot be shown in the browser: download it to read it' },
  render: { zh: '文档格式无法在浏览器中显示，请下载后查看', en: 'This document cannot be shown in the browser: download it to read it' },
};

/** Where an attachment named by its id lies (modules/files/basicfile.ts). */
const DIR_URL = '/api/basic/basicfile/getDirPath';

const MIME: Record<string, string> = { pdf: 'application/pdf', svg: 'image/svg+xml', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', bmp: 'image/bmp' };
/** The file name of a Content-Disposition header (RFC 6266 `filename*` first), or undefined. */
export function dispositionName(header: string | null): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      /* fall back to the plain name */
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(header)?.[1];
}

/** The text of a file: UTF-8, or GB18030 when it is not valid UTF-8 (files saved by Chinese Windows editors). */
async function decodeText(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('gb18030').decode(bytes);
  }
}

interface Loaded {
  blob: Blob;
  name: string;
  kind: PreviewKind;
  url?: string; // a blob: URL (pdf, image)
  text?: string;
}

export function FilePreviewPage() {
  const { lang } = useSession();
  const navigate = useNavigate();
  const { search, pathname } = useLocation();
  const params = new URLSearchParams(search);
  const raw = params.get('url') ?? '';
  const id = params.get('id') ?? '';
  const given = params.get('name') ?? undefined;
  const body = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ loading: boolean; error?: string; login?: boolean; renderError?: boolean; rendered?: boolean; file?: Loaded }>({ loading: true });
  const title = state.file?.name ?? given ?? T.title[lang];

  useEffect(() => {
    document.title = title;
  }, [title]);

  useEffect(() => {
    let live = true;
    let objectUrl: string | undefined;
    const target = raw ? new URL(raw, window.location.origin) : undefined;
    if (!target && !id) {
      setState({ loading: false, error: T.noUrl[lang] });
      return;
    }
    if (target && target.origin !== window.location.origin) {
      setState({ loading: false, error: T.foreign[lang] });
      return;
    }
    /** GET `url` with the session's headers: the response, or null after the failure was shown. */
    const read = async (url: string): Promise<Response | null> => {
      const res = await fetch(url, { headers: authHeaders() });
      if (!live) return null;
      if (res.status === 401) return (setState({ loading: false, login: true }), null);
      if (res.ok) return res;
      const msg = await res.json().then((j: { msg?: string }) => j.msg, () => undefined);
      if (live) setState({ loading: false, error: msg || T.failed[lang] });
      return null;
    };
    (async () => {
      let path = target ? target.pathname + target.search : '';
      let known = given;
      if (!target) {
        // an attachment by its id: where it lies and its name (basicfile getDirPath?id=, the caller's tenant only)
        const where = await read(`${DIR_URL}?id=${encodeURIComponent(id)}`);
        if (!where) return;
        const info = ((await where.json()) as { data?: { link?: string; originalName?: string } }).data;
        if (!info?.link) return live && setState({ loading: false, error: T.failed[lang] });
        path = new URL(info.link, window.location.origin).pathname;
        known = known ?? info.originalName;
      }
      const res = await read(path);
      if (!res) return;
      const name = known ?? dispositionName(res.headers.get('content-disposition')) ?? decodeURIComponent(path.split('?')[0].split('/').pop() ?? '');
      const kind = previewKind(name);
      const fetched = await res.blob();
      const blob = MIME[extensionOf(name)] ? new Blob([fetched], { type: MIME[extensionOf(name)] }) : fetched;
      const file: Loaded = { blob, name, kind };
      if (kind === 'pdf' || kind === 'image') file.url = objectUrl = URL.createObjectURL(blob);
      if (kind === 'text') file.text = await decodeText(blob);
      if (!live) return;
      setState({ loading: false, file });
    })().catch(() => live && setState({ loading: false, error: T.failed[lang] }));
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [raw, id, given, lang]);

  // a Word document is laid out by docx-preview once its container is on the page
  const file = state.file;
  useEffect(() => {
    if (file?.kind !== 'docx' || !body.current) return;
    let live = true;
    import('docx-preview')
      .then(({ renderAsync }) => renderAsync(file.blob, body.current!, undefined, { inWrapper: true, ignoreLastRenderedPageBreak: true }))
      .then(() => live && setState((s) => ({ ...s, rendered: true })))
      .catch(() => live && setState((s) => ({ ...s, renderError: true })));
    return () => {
      live = false;
    };
  }, [file]);

  const download = () => {
    if (!file) return;
    const url = URL.createObjectURL(file.blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = file.name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };

  if (state.login)
    return (
      <Result
        status="403"
        title={title}
        subTitle={T.login[lang]}
        extra={
          <Button type="primary" onClick={() => (rememberReturn(pathname + search), navigate('/login'))}>
            {T.loginButton[lang]}
          </Button>
        }
      />
    );
  if (state.error) return <Result status="warning" title={title} subTitle={state.error} />;
  return (
    <div className="kc-file-preview" data-kind={file?.kind} style={{ maxWidth: 1100, margin: '0 auto', padding: 24 }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 16, marginBottom: 16 }}>
        <Typography.Title level={3} style={{ margin: 0, overflowWrap: 'anywhere' }}>
          {title}
        </Typography.Title>
        <Button icon={<DownloadOutlined />} disabled={!file} onClick={download}>
          {T.download[lang]}
        </Button>
      </div>
      {(state.loading || (file?.kind === 'docx' && !state.rendered && !state.renderError)) && <Spin />}
      {state.renderError && <Alert type="info" showIcon message={T.render[lang]} />}
      {file?.kind === 'other' && <Alert type="info" showIcon message={T.unsupported[lang]} />}
      {file?.kind === 'pdf' && <iframe title={file.name} src={file.url} data-testid="pdf-frame" style={{ width: '100%', height: '80vh', border: '1px solid #d9d9d9' }} />}
      {file?.kind === 'image' && <img alt={file.name} src={file.url} style={{ maxWidth: '100%', display: 'block', margin: '0 auto' }} />}
      {file?.kind === 'text' && (
        <pre data-testid="text-body" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', background: '#fafafa', border: '1px solid #f0f0f0', padding: 16, maxHeight: '80vh', overflow: 'auto' }}>
          {file.text}
        </pre>
      )}
      <div ref={body} data-testid="document-body" />
    </div>
  );
}
