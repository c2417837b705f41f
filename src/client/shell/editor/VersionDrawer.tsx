/**
 * The online editor's version drawer (issue 17: "any version can be previewed and restored"): the document's
 * versions newest first (`file-history`: version, who, when, size, restored from), each with 预览 — its bytes
 * (`file-history-data?version=`) rendered read-only by docx-preview (a lazy chunk) in a dialog — and, for a user
 * who may edit, 恢复 — after a confirmation, `POST restore` writes a new version with that version's bytes; the
 * page then reloads the document (`onRestored`).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Drawer, Modal, Popconfirm, Space, Spin, Table, Tag } from 'antd';
import type { FileVersion } from '../../../shared/contract/editor.js';
import { fileSize } from '../../runtime/format.js';
import { fileHistory, restoreVersion, versionBytes } from './api.js';
import { ET, fill } from './texts.js';

export interface VersionDrawerProps {
  fileId: string;
  open: boolean;
  lang: 'zh' | 'en';
  /** The caller may restore (holds the lock). */
  canRestore: boolean;
  /** Unsaved changes in the editor (the restore confirmation says they will be lost). */
  dirty: boolean;
  /** Changes when the document got a new version (the list reloads). */
  version: number;
  onClose(): void;
  onRestored(version: number, msg: string): void;
}

/** One version's preview: its bytes rendered by docx-preview. */
function VersionPreview({ fileId, version, lang }: { fileId: string; version: number; lang: 'zh' | 'en' }) {
  const body = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'shown' | 'failed'>('loading');
  useEffect(() => {
    let live = true;
    (async () => {
      const bytes = await versionBytes(fileId, version);
      const { renderAsync } = await import('docx-preview');
      if (!live || !body.current) return;
      body.current.innerHTML = '';
      await renderAsync(bytes, body.current, undefined, { inWrapper: true, ignoreLastRenderedPageBreak: true });
      if (live) setState('shown');
    })().catch(() => live && setState('failed'));
    return () => {
      live = false;
    };
  }, [fileId, version]);
  return (
    <>
      {state === 'loading' && <Spin />}
      {state === 'failed' && <Alert type="warning" showIcon message={ET.previewFailed[lang]} />}
      <div ref={body} data-testid="version-preview" style={{ maxHeight: '70vh', overflow: 'auto' }} />
    </>
  );
}

export function VersionDrawer(p: VersionDrawerProps) {
  const { lang } = p;
  const [rows, setRows] = useState<FileVersion[] | null>(null);
  const [preview, setPreview] = useState<number | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const load = useCallback(() => {
    fileHistory(p.fileId).then((h) => setRows(h.history), () => setRows([]));
  }, [p.fileId]);
  useEffect(() => {
    if (p.open) load();
  }, [p.open, p.version, load]);

  const restore = async (version: number) => {
    setBusy(version);
    try {
      const saved = await restoreVersion(p.fileId, version);
      p.onRestored(saved.version, fill('restored', lang, { n: version }));
      load();
    } catch {
      // the API client showed the server's message
    } finally {
      setBusy(null);
    }
  };

  return (
    <Drawer title={ET.history[lang]} open={p.open} onClose={p.onClose} width={640} destroyOnHidden>
      <Table<FileVersion>
        rowKey="version"
        size="small"
        loading={rows === null}
        dataSource={rows ?? []}
        pagination={false}
        columns={[
          {
            title: ET.colVersion[lang], dataIndex: 'version', width: 150,
            render: (v: number, r) => (
              <Space size={4} wrap>
                <span>{fill('version', lang, { n: v })}</span>
                {r.current && <Tag color="green">{ET.current[lang]}</Tag>}
                {r.restoredFrom !== null && <Tag>{fill('restoredFrom', lang, { n: r.restoredFrom })}</Tag>}
              </Space>
            ),
          },
          { title: ET.colUser[lang], dataIndex: 'createUserName', width: 100 },
          { title: ET.colTime[lang], dataIndex: 'createTime', width: 160 },
          { title: ET.colSize[lang], dataIndex: 'size', width: 90, render: (v: number) => fileSize(v) },
          {
            title: '', key: 'ops', width: 130,
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setPreview(r.version)}>{ET.preview[lang]}</Button>
                {p.canRestore && !r.current && (
                  <Popconfirm
                    title={fill('restoreConfirm', lang, { n: r.version })}
                    description={p.dirty ? ET.restoreUnsaved[lang] : undefined}
                    okText={ET.ok[lang]}
                    cancelText={ET.cancel[lang]}
                    onConfirm={() => restore(r.version)}
                  >
                    <Button type="link" size="small" loading={busy === r.version}>{ET.restore[lang]}</Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal open={preview !== null} title={preview !== null ? fill('previewTitle', lang, { n: preview }) : ''} footer={null} width={900} onCancel={() => setPreview(null)} destroyOnHidden>
        {preview !== null && <VersionPreview fileId={p.fileId} version={preview} lang={lang} />}
      </Modal>
    </Drawer>
  );
}
