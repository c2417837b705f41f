/**
 * The form designer's route (`/designer`, `/designer/<area>/<resource>`), a lazily loaded chunk of its own
 * (DESIGN §7, §10), rendered outside React StrictMode (Designable's widgets do not survive double effects).
 *
 * Layout (Designable's studio): on the left the palette (click or drag), the outline of the tree and the
 * history; in the centre the canvas; on the right the tabs 字段属性 and 表单属性; the toolbar above. With a
 * resource name the form of `GET /api/system/schema/detail?name=` is loaded and can be saved and published;
 * without one the designer starts empty (import, generate and preview still work).
 *
 * A record's form (`/designer/<area>/<resource>?id=<key>&field=<field>`, a list operation of result `design`,
 * e.g. a content model's field design): the record is read from `<api>/detail?id=` and its `field` (a form, or
 * nothing yet: an empty canvas) goes on the canvas; 保存 writes it back with `POST <api>/submit {<key>: id,
 * <field>: form}` — the resource's own edit grant and checks apply (the server's message is shown on a
 * refusal), so this mode is not limited to administrators and has no publishing.
 */
import React, { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Result, Space, Spin, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import {
  ComponentTreeWidget,
  CompositePanel,
  Designer,
  HistoryWidget,
  OutlineTreeWidget,
  SettingsPanel,
  StudioPanel,
  ToolbarPanel,
  ViewPanel,
  ViewportPanel,
  Workspace,
  WorkspacePanel,
  useWorkbench,
} from '@pind/designable-react';
import type { Engine } from '@pind/designable-core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { ResourceSchema } from '../src/shared/schema/types.js';
import { currentRole, useSession } from '../src/client/runtime/session.js';
import { useLocalEditorAssets } from './assets.js';
import { canvasComponents } from './canvas.js';
import { createEngine, loadTree, setDesignerLanguage } from './engine.js';
import { Palette } from './Palette.js';
import { SettingsTabs } from './settings.js';
import { Toolbar } from './Toolbar.js';
import { loadRecordForm, loadResource, type RecordTarget } from './api.js';
import type { DesignedForm } from './transform.js';
import './designer.css';
import { ADMIN_ALIAS } from '../src/shared/contract/tenancy.js';
import { registerDesignerTexts } from './texts.js';

// the designer's texts reach i18next with its chunk (texts.ts)
registerDesignerTexts();

useLocalEditorAssets();

const EMPTY_FORM: DesignedForm = { type: 'object', properties: {} };

/** Puts `form` on the canvas once the workspace exists (and again when `form` changes). */
function TreeLoader({ form }: { form: DesignedForm }) {
  const workbench = useWorkbench();
  const ws = workbench?.currentWorkspace;
  useEffect(() => {
    if (ws) loadTree(ws, form);
  }, [ws, form]);
  return null;
}

export interface DesignerStudioProps {
  engine: Engine;
  form: DesignedForm;
  resource?: ResourceSchema;
  /** A record's form being designed (saved through the resource's submit instead of as a schema version). */
  target?: RecordTarget;
  title: React.ReactNode;
  onBack?: () => void;
}

/** The studio itself (the page without the loading of the resource; tests render it directly). */
export function DesignerStudio({ engine, form, resource, target, title, onBack }: DesignerStudioProps) {
  const { t } = useTranslation();
  // the registry as it is when the studio opens (a component registered since is on the canvas too)
  const canvas = useMemo(() => canvasComponents(), []);
  return (
    <Designer engine={engine} theme="light">
      <StudioPanel
        className="kc-dz"
        logo={
          <Space className="kc-dz-title">
            {onBack && <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t('dz.back')} onClick={onBack} />}
            <Typography.Text strong>{title}</Typography.Text>
          </Space>
        }
        actions={<Toolbar resource={resource} target={target} />}
      >
        <CompositePanel>
          <CompositePanel.Item title={t('dz.palette')} icon="Component">
            <Palette />
          </CompositePanel.Item>
          <CompositePanel.Item title="panels.OutlinedTree" icon="Outline">
            <OutlineTreeWidget />
          </CompositePanel.Item>
          <CompositePanel.Item title="panels.History" icon="History">
            <HistoryWidget />
          </CompositePanel.Item>
        </CompositePanel>
        <Workspace id="form">
          <TreeLoader form={form} />
          <WorkspacePanel>
            <ToolbarPanel>
              <Typography.Text type="secondary">{t('dz.paletteHint')}</Typography.Text>
            </ToolbarPanel>
            <ViewportPanel style={{ height: '100%' }}>
              <ViewPanel type="DESIGNABLE">{() => <ComponentTreeWidget components={canvas} />}</ViewPanel>
            </ViewportPanel>
          </WorkspacePanel>
        </Workspace>
        <SettingsPanel title={t('dz.title')}>
          <SettingsTabs />
        </SettingsPanel>
      </StudioPanel>
    </Designer>
  );
}

export default function DesignerPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const s = useSession();
  const name = (params['*'] ?? '').replace(/^\/+|\/+$/g, '') || undefined;
  const [search] = useSearchParams();
  const recordId = search.get('id') ?? undefined;
  const field = search.get('field') ?? undefined;
  const engine = useMemo(() => createEngine(), []);
  const [state, setState] = useState<{ resource?: ResourceSchema; form?: DesignedForm; target?: RecordTarget; error?: string }>({});
  const lang = i18n.language === 'en' ? 'en' : 'zh';

  useEffect(() => setDesignerLanguage(lang), [lang]);
  useEffect(() => {
    let gone = false;
    if (!name) setState({ form: EMPTY_FORM });
    else {
      setState({});
      loadResource(name)
        .then(async (resource) => {
          if (!recordId || !field) return { resource, form: (resource.form ?? EMPTY_FORM) as DesignedForm };
          const { form, target } = await loadRecordForm(resource, recordId, field);
          return { resource, form: form ?? EMPTY_FORM, target };
        })
        .then((next) => !gone && setState(next))
        .catch((e: Error) => !gone && setState({ error: e.message }));
    }
    return () => {
      gone = true;
    };
  }, [name, recordId, field]);

  if (!s.token) return null;
  // the server allows schema changes to platform administrators only; others are told so here (DESIGN §1.3:
  // the client only hides, the server enforces)
  if (!(recordId && field) && currentRole(s)?.roleAlias !== ADMIN_ALIAS) {
    return <Result status="403" title="403" subTitle={t('dz.noAccess')} extra={<Button onClick={() => navigate('/wel/index')}>{t('dz.back')}</Button>} />;
  }
  if (state.error) {
    return (
      <Result
        status="warning"
        title={t('dz.loadFailed')}
        subTitle={<Alert type="error" message={state.error} />}
        extra={<Button onClick={() => navigate(-1)}>{t('dz.back')}</Button>}
      />
    );
  }
  if (!state.form) {
    return (
      <div style={{ textAlign: 'center', marginTop: '20vh' }} role="status">
        <Spin />
        <div>{t('dz.loading')}</div>
      </div>
    );
  }
  const res = state.resource;
  const resTitle = res ? `${lang === 'en' ? res.titleEn : res.title}` : '';
  const title = state.target ? `${t('dz.title')} · ${resTitle} · ${state.target.label}` : res ? `${t('dz.title')} · ${resTitle} (${res.name})` : t('dz.title');
  return <DesignerStudio engine={engine} form={state.form} resource={res} target={state.target} title={title} onBack={() => navigate(-1)} />;
}
