/**
 * The online editor page `/smartdoc/editor?fileId=<id>` (issue 17 "the online editor"; spec 002 §7
 * onlyoffice/endpoint; DESIGN §8 "Documents": DOCX edited in the browser, no document server). `fileId` is the
 * attachment id of an uploaded .docx (the bidding documents link their chapters here).
 *
 * - Opening calls `edit`: the caller takes the edit lock (mode edit) or opens read-only — with a banner naming
 *   who holds the lock and since when, or saying the caller may not edit. The current bytes
 *   (`file-history-data`) load into @eigenpal/docx-editor-react (DocxCanvas, a lazy chunk).
 * - 保存 (and Ctrl+S / ⌘S anywhere on the page) packs the document and posts it (`save`): a new version; the
 *   toolbar shows the version number and 未保存 while there are unsaved changes.
 * - While editing, `edit` is called every 30 s (the lock's heartbeat); a lapsed lock taken by someone else turns
 *   the page read-only with a banner. While read-only, `editStatus` is polled every 15 s and, once nobody holds
 *   the lock, 开始编辑 reopens the document (its newest bytes) for editing.
 * - 历史版本 opens the version drawer (VersionDrawer: preview with docx-preview, restore).
 * - Leaving the page (route change or closing the tab) releases the lock (`close`, keepalive).
 */
import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Result, Space, Spin, Tag, Tooltip, message } from 'antd';
import { ArrowLeftOutlined, HistoryOutlined, SaveOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router-dom';
import type { EditorOpen } from '../../shared/contract/editor.js';
import { useSession } from '../runtime/session.js';
import { lazyChunk } from './chunk.js';
import { closeDoc, editStatus, openDoc, saveDoc, versionBytes } from './editor/api.js';
import type { DocxCanvasHandle } from './editor/DocxCanvas.js';
import { ET, fill } from './editor/texts.js';
import { VersionDrawer } from './editor/VersionDrawer.js';

const DocxCanvas = lazyChunk(() => import('./editor/DocxCanvas.js'));

/** How often the lock holder shows life, and how often a read-only page looks whether the lock is free (ms). */
export const HEARTBEAT_MS = 30_000;
export const STATUS_POLL_MS = 15_000;

type Banner = 'lockedBy' | 'noEdit' | 'lockLost' | null;

export function DocxEditorPage() {
  const s = useSession();
  const lang = s.lang === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const fileId = new URLSearchParams(useLocation().search).get('fileId') ?? '';
  const [info, setInfo] = useState<EditorOpen | null>(null);
  const [buffer, setBuffer] = useState<ArrayBuffer | null>(null);
  const [error, setError] = useState<string | null>(fileId ? null : ET.noFile[lang]);
  const [banner, setBanner] = useState<Banner>(null);
  const [lockFree, setLockFree] = useState(false);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [drawer, setDrawer] = useState(false);
  // a new key remounts the editor over new bytes (a restore, reopening for editing)
  const [generation, setGeneration] = useState(0);
  const canvas = useRef<DocxCanvasHandle>(null);
  const editing = info?.mode === 'edit';

  /** Opens the document (lock + current bytes) and shows it. */
  const load = useCallback(async () => {
    if (!fileId) return;
    try {
      const opened = await openDoc(fileId);
      const bytes = await versionBytes(fileId);
      setInfo(opened);
      setBuffer(bytes);
      setDirty(false);
      setLockFree(false);
      setBanner(opened.mode === 'edit' ? null : opened.canEdit ? 'lockedBy' : 'noEdit');
      setGeneration((g) => g + 1);
    } catch (e) {
      setError((e as Error).message || ET.loadFailed[lang]);
    }
  }, [fileId, lang]);

  useEffect(() => {
    void load();
  }, [load]);

  // the lock: heartbeat while editing, released when the page goes away
  useEffect(() => {
    if (!editing) return;
    const beat = setInterval(() => {
      openDoc(fileId, true).then(
        (o) => {
          if (o.mode !== 'edit') {
            setInfo(o);
            setBanner('lockLost');
          }
        },
        () => undefined,
      );
    }, HEARTBEAT_MS);
    const leave = () => closeDoc(fileId);
    window.addEventListener('pagehide', leave);
    return () => {
      clearInterval(beat);
      window.removeEventListener('pagehide', leave);
      leave();
    };
  }, [editing, fileId]);

  // read-only: is the lock free now?
  useEffect(() => {
    if (!info || editing || !info.canEdit) return;
    const poll = setInterval(() => {
      editStatus(fileId).then((st) => setLockFree(!st.locked), () => undefined);
    }, STATUS_POLL_MS);
    return () => clearInterval(poll);
  }, [info, editing, fileId]);

  /** Uploads what the editor packed (its onSave: the button, Ctrl+S and the editor's own save all end here). */
  const upload = useCallback(
    async (bytes: ArrayBuffer) => {
      setSaving(true);
      try {
        const { data, msg } = await saveDoc(fileId, bytes);
        setInfo((i) => (i ? { ...i, version: data.version, size: data.size } : i));
        setDirty(false);
        void message.success(msg || ET.save[lang]);
      } catch {
        // saveDoc showed the server's message
      } finally {
        setSaving(false);
      }
    },
    [fileId, lang],
  );

  const save = useCallback(async () => {
    if (!editing || saving || !canvas.current) return;
    const bytes = await canvas.current.save();
    if (!bytes) void message.error(ET.saveFailed[lang]);
  }, [editing, saving, lang]);

  // Ctrl+S / ⌘S saves (the browser's "save page" is not what anyone means here)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void save();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [save]);

  if (error) return <Result status="warning" title={ET.title[lang]} subTitle={error} />;
  if (!info || !buffer) return <Spin style={{ display: 'block', margin: '20vh auto' }} />;

  const holder = info.lock && !info.lock.mine ? info.lock : null;
  return (
    <div className="kc-docx-editor" style={{ display: 'flex', flexDirection: 'column', height: '100vh' }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, padding: '8px 16px', borderBottom: '1px solid rgba(0,0,0,0.08)' }}>
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(-1)}>{ET.back[lang]}</Button>
        <h2 style={{ margin: 0, fontSize: 16, flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={info.fileName}>
          {info.fileName}
        </h2>
        <Space size={4}>
          <Tag data-testid="editor-version">{fill('version', lang, { n: info.version })}</Tag>
          <Tag color={editing ? 'green' : 'orange'}>{editing ? ET.editing[lang] : ET.readOnly[lang]}</Tag>
          {dirty && <Tag color="red">{ET.unsaved[lang]}</Tag>}
        </Space>
        <Button icon={<HistoryOutlined />} onClick={() => setDrawer(true)}>{ET.history[lang]}</Button>
        <Tooltip title={ET.saveTip[lang]}>
          <Button type="primary" icon={<SaveOutlined />} disabled={!editing} loading={saving} onClick={() => void save()}>
            {ET.save[lang]}
          </Button>
        </Tooltip>
      </div>
      {banner && (
        <Alert
          type="warning"
          showIcon
          banner
          data-testid="editor-banner"
          message={banner === 'lockedBy' && holder ? fill('lockedBy', lang, { name: holder.userName, since: holder.since }) : banner === 'lockLost' ? ET.lockLost[lang] : ET.noEdit[lang]}
          action={lockFree && info.canEdit ? <Button size="small" onClick={() => void load()}>{ET.startEdit[lang]}</Button> : undefined}
          description={lockFree && info.canEdit ? ET.lockFree[lang] : undefined}
        />
      )}
      <div style={{ flex: 1, minHeight: 0 }}>
        <Suspense fallback={<Spin style={{ display: 'block', margin: '10vh auto' }} />}>
          <DocxCanvas
            key={generation}
            ref={canvas}
            buffer={buffer}
            readOnly={!editing}
            lang={lang}
            author={s.user?.realName}
            documentName={info.fileName}
            onSave={(bytes) => void upload(bytes)}
            onChange={() => setDirty(true)}
            onError={() => void message.error(ET.loadFailed[lang])}
          />
        </Suspense>
      </div>
      <VersionDrawer
        fileId={fileId}
        open={drawer}
        lang={lang}
        canRestore={editing}
        dirty={dirty}
        version={info.version}
        onClose={() => setDrawer(false)}
        onRestored={(_version, msg) => {
          void message.success(msg);
          void load();
        }}
      />
    </div>
  );
}
