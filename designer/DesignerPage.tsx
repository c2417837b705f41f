/**
 * The form designer's route (`/designer`, `/designer/<area>/<resource>`), a lazily loaded chunk of its own
 * (DESIGN §7, §10), rendered outside React StrictMode (Designable's widgets do not survive double effects).
 *
 * Layout (Designable's studio): on the left the palette (click or drag), the outline of the tree and the
 * history; in the centre the canvas; on the right the tabs 字段属性 and 表单属性; the toolbar above. With a
 * resource name the form of `GET /api/system/schema/detail?name=` is loaded and can be saved and published;
 * without one the designer starts empty (import, generate and preview still work).
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
import { useNavigate, useParams } from 'react-router-dom';
import type { ResourceSchema } from '../src/shared/schema/types.js';
import { currentRole, useSession } from '../src/client/runtime/session.js';
import { useLocalEditorAssets } from './assets.js';
import { canvasComponents } from './canvas.js';
import { createEngine, loadTree, setDesignerLanguage } from './engine.js';
import { Palette } from './Palette.js';
import { SettingsTabs } from './settings.js';
import { Toolbar } from './Toolbar.js';
import { loadResource } from './api.js';
import type { DesignedForm } from './transform.js';
import './designer.css';
import { ADMIN_ALIAS } from '../src/shared/contract/tenancy.js';

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
  title: React.ReactNode;
  onBack?: () => void;
}

/** The studio itself (the page without the loading of the resource; tests render it directly). */
export function DesignerStudio({ engine, form, resource, title, onBack }: DesignerStudioProps) {
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
        actions={<Toolbar resource={resource} />}
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
  const engine = useMemo(() => createEngine(), []);
  const [state, setState] = useState<{ resource?: ResourceSchema; form?: DesignedForm; error?: string }>({});
  const lang = i18n.language === 'en' ? 'en' : 'zh';

  useEffect(() => setDesignerLanguage(lang), [lang]);
  useEffect(() => {
    let gone = false;
    if (!name) setState({ form: EMPTY_FORM });
    else {
      setState({});
      loadResource(name)
        .then((resource) => !gone && setState({ resource, form: (resource.form ?? EMPTY_FORM) as DesignedForm }))
        .catch((e: Error) => !gone && setState({ error: e.message }));
    }
    return () => {
      gone = true;
    };
  }, [name]);

  if (!s.token) return null;
  // the server allows schema changes to platform administrators only; others are told so here (DESIGN §1.3:
  // the client only hides, the server enforces)
  if (currentRole(s)?.roleAlias !== ADMIN_ALIAS) {
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
  const title = res ? `${t('dz.title')} · ${lang === 'en' ? res.titleEn : res.title} (${res.name})` : t('dz.title');
  return <DesignerStudio engine={engine} form={state.form} resource={res} title={title} onBack={() => navigate(-1)} />;
}
