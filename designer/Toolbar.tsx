/**
 * The designer's toolbar (spec 002 §2, §4): undo / redo (disabled at the first and the last step; ctrl-Z,
 * ctrl-shift-Z and ctrl-Y do the same), import (drawer 导入JSON, 50%: an invalid text is an error and the form
 * stays as it was), generate (drawer 生成JSON, 50%: indent 1–4, copy), preview (drawer 预览, 60%: the form
 * as the runtime renders it, with a working submit; an empty form has 'no content to show'), clear (asks
 * first; an empty form has 'no content to clear'), and for a resource opened by name: save (a draft version
 * on the server) and publish (that version); for a record's form (`target`, DesignerPage's record mode): save
 * only, back into the record through the resource's submit (保存成功).
 */
import React, { useMemo, useState } from 'react';
import { Alert, App, Button, Drawer, Empty, InputNumber, Space, Tooltip, Typography } from 'antd';
import {
  ClearOutlined,
  CloudUploadOutlined,
  CodeOutlined,
  EyeOutlined,
  ImportOutlined,
  RedoOutlined,
  SaveOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import { createForm } from '@formily/core';
import { observer } from '@formily/react';
import { useWorkbench } from '@pind/designable-react';
import type { Workspace } from '@pind/designable-core';
import { useTranslation } from 'react-i18next';
import { FormBody, formSchemaOf, recordOf } from '../src/client/runtime/FormBody.js';
import type { ResourceSchema } from '../src/shared/schema/types.js';
import { formToTree, isFormNode, treeToForm, type DesignedForm } from './transform.js';
import { JsonEditor } from './JsonEditor.js';
import { LIMITS } from './rules.js';
import { publishVersion, saveDraft, saveRecordForm, type RecordTarget, type SavedVersion } from './api.js';

function useWorkspace(): Workspace | undefined {
  const workbench = useWorkbench();
  return workbench?.activeWorkspace ?? workbench?.currentWorkspace;
}

/** Parses an imported text: a form node, or a resource schema whose `form` is one. */
export function parseImport(text: string): { form?: DesignedForm; error?: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: (e as Error).message };
  }
  const form = v && typeof v === 'object' && !Array.isArray(v) && 'form' in (v as object) ? (v as { form: unknown }).form : v;
  if (!isFormNode(form)) return { error: 'not-form' };
  return { form };
}

export const HistoryButtons = observer(() => {
  const { t } = useTranslation();
  const ws = useWorkspace();
  const history = ws?.history;
  return (
    <Space.Compact>
      <Tooltip title={`${t('dz.undo')} (Ctrl+Z)`}>
        <Button aria-label={t('dz.undo')} icon={<UndoOutlined />} disabled={!history?.allowUndo} onClick={() => history?.undo()} />
      </Tooltip>
      <Tooltip title={`${t('dz.redo')} (Ctrl+Shift+Z / Ctrl+Y)`}>
        <Button aria-label={t('dz.redo')} icon={<RedoOutlined />} disabled={!history?.allowRedo} onClick={() => history?.redo()} />
      </Tooltip>
    </Space.Compact>
  );
});

function ImportDrawer({ open, onClose, ws }: { open: boolean; onClose: () => void; ws?: Workspace }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const apply = () => {
    const { form, error: e } = parseImport(text);
    if (!form || !ws) {
      const reason = e === 'not-form' ? t('dz.importNotForm') : e ?? '';
      console.error(`[designer] illegal config: ${reason}`);
      setError(t('dz.importInvalid', { reason }));
      return;
    }
    setError(null);
    ws.operation.tree.from(formToTree(form));
    ws.operation.selection.select(ws.operation.tree);
    void message.success(t('dz.imported'));
    onClose();
  };
  return (
    <Drawer
      title={t('dz.import')}
      width="50%"
      open={open}
      onClose={onClose}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{t('dz.cancel')}</Button>
          <Button type="primary" onClick={apply}>
            {t('dz.ok')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('dz.importHint')}</Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} role="alert" />}
      <JsonEditor value={text} onChange={setText} label={t('dz.import')} height={520} />
    </Drawer>
  );
}

async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall back below */
  }
  const area = document.createElement('textarea');
  area.value = text;
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand?.('copy') ?? false;
  area.remove();
  return ok;
}

function GenerateDrawer({ open, onClose, ws }: { open: boolean; onClose: () => void; ws?: Workspace }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [indent, setIndent] = useState(2);
  const json = useMemo(() => (open && ws ? JSON.stringify(treeToForm(ws.operation.tree), null, indent) : ''), [open, ws, indent]);
  return (
    <Drawer
      title={t('dz.generate')}
      width="50%"
      open={open}
      onClose={onClose}
      destroyOnHidden
      extra={
        <Space>
          <span>{t('dz.indent')}</span>
          <InputNumber aria-label={t('dz.indent')} size="small" min={LIMITS.indent[0]} max={LIMITS.indent[1]} precision={0} value={indent} onChange={(v) => setIndent(Math.min(LIMITS.indent[1], Math.max(LIMITS.indent[0], Number(v ?? 2))))} />
          <Button type="primary" onClick={() => void copyText(json).then((ok) => (ok ? message.success(t('dz.copied')) : message.error(t('dz.copyFailed'))))}>
            {t('dz.copy')}
          </Button>
        </Space>
      }
    >
      <JsonEditor value={json} readOnly label={t('dz.generate')} height={560} />
    </Drawer>
  );
}

function PreviewDrawer({ open, onClose, form, resource }: { open: boolean; onClose: () => void; form: DesignedForm | null; resource?: ResourceSchema }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [submitted, setSubmitted] = useState<string | null>(null);
  const empty = !form || !Object.keys(form.properties).length;
  const prepared = useMemo(() => {
    if (!form || empty) return null;
    const res = { ...(resource ?? { name: 'designer/preview', title: '', titleEn: '', api: '/api/designer/preview', table: 'preview', endpoints: ['list'] }), form } as ResourceSchema;
    return formSchemaOf(res, lang, form);
  }, [form, empty, resource, lang]);
  const pattern = form?.['x-pattern'];
  const formily = useMemo(() => (open && prepared ? createForm({ pattern: pattern === 'readPretty' || pattern === 'readOnly' || pattern === 'disabled' ? pattern : 'editable' }) : null), [open, prepared, pattern]);
  const submit = async () => {
    if (!formily) return;
    try {
      await formily.submit((values) => setSubmitted(JSON.stringify(recordOf(values), null, 2)));
    } catch {
      // invalid: the fields show their messages (DESIGN §13: a failed submit rejects)
      setSubmitted(null);
    }
  };
  return (
    <Drawer
      title={t('dz.preview')}
      width="60%"
      open={open}
      onClose={() => {
        setSubmitted(null);
        onClose();
      }}
      destroyOnHidden
      extra={
        !empty && (
          <Space>
            <Button onClick={() => void formily?.reset().then(() => setSubmitted(null))}>{t('dz.reset')}</Button>
            <Button type="primary" onClick={() => void submit()}>
              {t('dz.submit')}
            </Button>
          </Space>
        )
      }
    >
      {empty || !prepared || !formily ? (
        <Empty description={t('dz.previewEmpty')} />
      ) : (
        <>
          <FormBody form={formily} prepared={prepared} lang={lang} />
          {submitted !== null && (
            <Alert type="success" showIcon message={t('dz.submitted')} description={<pre className="kc-dz-submitted">{submitted}</pre>} style={{ marginTop: 16 }} />
          )}
        </>
      )}
    </Drawer>
  );
}

export interface ToolbarProps {
  /** The resource opened by name (save and publish need it). */
  resource?: ResourceSchema;
  /** A record's form: save writes it back to the record (no versions, no publishing). */
  target?: RecordTarget;
}

export const Toolbar = observer(({ resource, target }: ToolbarProps) => {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const ws = useWorkspace();
  const [drawer, setDrawer] = useState<'import' | 'generate' | 'preview' | null>(null);
  const [previewForm, setPreviewForm] = useState<DesignedForm | null>(null);
  const [saved, setSaved] = useState<SavedVersion | null>(null);
  const [busy, setBusy] = useState<'save' | 'publish' | null>(null);
  const tree = ws?.operation.tree;
  const hasContent = !!tree?.children.length;

  const clear = () => {
    if (!tree) return;
    if (!tree.children.length) {
      void message.info(t('dz.clearEmpty'));
      return;
    }
    modal.confirm({
      title: t('dz.clearConfirm'),
      okText: t('dz.ok'),
      cancelText: t('dz.cancel'),
      onOk: () => {
        tree.setChildren();
        ws?.operation.selection.select(tree);
        void message.success(t('dz.cleared'));
      },
    });
  };

  const save = async () => {
    if (!resource || !tree) return;
    setBusy('save');
    try {
      if (target) {
        await saveRecordForm(target, treeToForm(tree));
        void message.success(t('dz.recordSaved'));
        return;
      }
      const answer = await saveDraft(resource, treeToForm(tree));
      setSaved(answer);
      void message.success(t('dz.saved', { version: answer.version }));
    } catch {
      // the api client has shown the server's message
    } finally {
      setBusy(null);
    }
  };

  const publish = () => {
    if (!resource || !saved) return;
    modal.confirm({
      title: t('dz.publish'),
      content: t('dz.publishConfirm', { version: saved.version }),
      okText: t('dz.ok'),
      cancelText: t('dz.cancel'),
      onOk: async () => {
        setBusy('publish');
        try {
          await publishVersion(resource.name, saved.version);
          void message.success(t('dz.published', { version: saved.version }));
        } catch {
          /* shown by the api client */
        } finally {
          setBusy(null);
        }
      },
    });
  };

  return (
    <Space className="kc-dz-toolbar" wrap>
      <HistoryButtons />
      <Button icon={<ImportOutlined />} onClick={() => setDrawer('import')}>
        {t('dz.import')}
      </Button>
      <Button icon={<CodeOutlined />} onClick={() => setDrawer('generate')}>
        {t('dz.generate')}
      </Button>
      <Button
        icon={<EyeOutlined />}
        onClick={() => {
          setPreviewForm(tree ? treeToForm(tree) : null);
          setDrawer('preview');
        }}
      >
        {t('dz.preview')}
      </Button>
      <Button icon={<ClearOutlined />} danger={hasContent} onClick={clear}>
        {t('dz.clear')}
      </Button>
      {resource ? (
        <>
          <Button type="primary" icon={<SaveOutlined />} loading={busy === 'save'} onClick={() => void save()}>
            {t('dz.save')}
          </Button>
          {!target && (
            <Button icon={<CloudUploadOutlined />} disabled={!saved} loading={busy === 'publish'} onClick={publish}>
              {t('dz.publish')}
            </Button>
          )}
          {saved && <Typography.Text type="secondary">{t('dz.draft', { version: saved.version })}</Typography.Text>}
        </>
      ) : (
        <Typography.Text type="secondary">{t('dz.noResource')}</Typography.Text>
      )}
      <ImportDrawer open={drawer === 'import'} onClose={() => setDrawer(null)} ws={ws} />
      <GenerateDrawer open={drawer === 'generate'} onClose={() => setDrawer(null)} ws={ws} />
      <PreviewDrawer open={drawer === 'preview'} onClose={() => setDrawer(null)} form={previewForm} resource={resource} />
    </Space>
  );
});
