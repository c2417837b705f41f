/**
 * MenuPanel (issue 18 'Menu panel: the user's shortcut panel on the home page, with an administrator's default';
 * spec 002 §7 system/menupanel): the signed-in user's shortcuts — the screens they picked, in their order,
 * each opening its screen — and an editor to pick, order and save them.
 *
 * Data (src/server/modules/system/menupanel.ts; each answer `{menuIds, menus, isDefault, choices}`):
 * `GET /api/system/menupanel/getMyPanel` (the user's panel, else the tenant's default: then marked 默认),
 * `POST saveMyPanel {menuIds}`, `GET getDefaultPanel` (恢复默认 fills the editor with it) and
 * `POST configurationDefaultPanel {menuIds}` (设为默认, offered when the role holds the top-menu edit grant
 * `topmenu_edit` — read from `GET /api/blade-system/menu/buttons`, the shell's permission source; the server
 * checks it again). The editor's options are `choices`: the screens the role may open.
 *
 * Opening a shortcut follows spec 000 §2.4: `isOpen` 2 → a new window; a path starting with http or containing
 * html → the embedded page /myiframe/{path}; else the route. Outside a router (the designer's canvas) the
 * shortcuts are plain text. Registered as `MenuPanel` (catalog.tsx); the home dashboard
 * (schemas/_pages/dashboard.json) places it first. Props: none.
 */
import React, { useState } from 'react';
import { Button, Empty, List, Modal, Select, Space, Spin, Tag, Typography, message } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, CloseOutlined, SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useInRouterContext, useNavigate } from 'react-router-dom';
import { buttonCode } from '../../shared/contract/grants.js';
import { useEnv, useGet, useLang } from './env.js';

export const MENU_PANEL_API = '/api/system/menupanel';

/** A screen as the panel calls answer it (appList's flat node). */
export interface PanelMenu {
  id: string;
  name: string;
  nameEn?: string | null;
  path?: string | null;
  isOpen?: number;
}

/** The answer of the panel calls. */
export interface PanelAnswer {
  menuIds: string[];
  menus: PanelMenu[];
  isDefault: boolean;
  choices: PanelMenu[];
}

interface ButtonNode {
  code: string;
  category: number;
  children?: ButtonNode[];
}

const label = (m: PanelMenu, lang: 'zh' | 'en') => (lang === 'en' && m.nameEn ? m.nameEn : m.name);

/** Where a shortcut leads (spec 000 §2.4): `{newWindow, to}`. */
export function shortcutTarget(m: PanelMenu): { newWindow: boolean; to: string } | null {
  if (!m.path) return null;
  if (m.isOpen === 2) return { newWindow: true, to: m.path };
  const external = /^https?:/i.test(m.path) || m.path.includes('html');
  return { newWindow: false, to: external ? `/myiframe/${encodeURIComponent(m.path)}` : m.path };
}

/** True when the button tree holds `code`. */
function holds(nodes: ButtonNode[] | undefined, code: string): boolean {
  return (nodes ?? []).some((n) => (n.category === 2 && n.code === code) || holds(n.children, code));
}

/** The shortcut buttons; each opens its screen (a router is needed to navigate). */
function Shortcuts({ menus }: { menus: PanelMenu[] }) {
  const lang = useLang();
  const navigate = useNavigate();
  return (
    <Space wrap size={[8, 8]}>
      {menus.map((m) => (
        <Button
          key={m.id}
          autoInsertSpace={false}
          data-testid="menu-panel-item"
          onClick={() => {
            const target = shortcutTarget(m);
            if (!target) return;
            if (target.newWindow) window.open(target.to, '_blank', 'noopener');
            else navigate(target.to);
          }}
        >
          {label(m, lang)}
        </Button>
      ))}
    </Space>
  );
}

/** The editor: pick screens, order them, save as mine (or as the tenant's default when allowed). */
function PanelEditor({ panel, onClose, onSaved }: { panel: PanelAnswer; onClose: () => void; onSaved: (p: PanelAnswer) => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { request } = useEnv();
  const [ids, setIds] = useState<string[]>(() => panel.menus.map((m) => m.id));
  const [busy, setBusy] = useState(false);
  const { data: buttons } = useGet<ButtonNode[]>('/api/blade-system/menu/buttons', undefined, { silent: true });
  const mayConfigure = holds(buttons, buttonCode('topmenu', 'edit'));
  const byId = new Map(panel.choices.map((m) => [m.id, m]));
  const move = (i: number, by: number) => setIds((cur) => {
    const next = [...cur];
    const [x] = next.splice(i, 1);
    next.splice(i + by, 0, x);
    return next;
  });
  const save = async (url: string, done: string) => {
    setBusy(true);
    try {
      const saved = await request<PanelAnswer>('POST', `${MENU_PANEL_API}/${url}`, { data: { menuIds: ids } });
      void message.success(t(done));
      onSaved(saved);
    } catch {
      // the API client has shown the server's message; the editor stays open with the choice
    } finally {
      setBusy(false);
    }
  };
  const restoreDefault = async () => {
    const def = await request<PanelAnswer>('GET', `${MENU_PANEL_API}/getDefaultPanel`).catch(() => null);
    if (def) setIds(def.menus.map((m) => m.id));
  };
  return (
    <Modal
      open
      title={t('cmp.menuPanel.edit')}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space wrap>
          <Button onClick={() => void restoreDefault()} disabled={busy}>{t('cmp.menuPanel.restore')}</Button>
          {mayConfigure && (
            <Button onClick={() => void save('configurationDefaultPanel', 'cmp.menuPanel.defaultSaved')} loading={busy} data-testid="menu-panel-set-default">
              {t('cmp.menuPanel.setDefault')}
            </Button>
          )}
          <Button onClick={onClose}>{t('cmp.menuPanel.cancel')}</Button>
          <Button type="primary" onClick={() => void save('saveMyPanel', 'cmp.menuPanel.saved')} loading={busy} data-testid="menu-panel-save">
            {t('cmp.menuPanel.save')}
          </Button>
        </Space>
      }
    >
      <Select
        mode="multiple"
        style={{ width: '100%' }}
        showSearch
        optionFilterProp="label"
        placeholder={t('cmp.menuPanel.pick')}
        aria-label={t('cmp.menuPanel.pick')}
        value={ids}
        maxCount={20}
        onChange={(v: string[]) => setIds(v)}
        options={panel.choices.map((m) => ({ value: m.id, label: label(m, lang) }))}
        data-testid="menu-panel-select"
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>{t('cmp.menuPanel.orderTip')}</Typography.Paragraph>
      <List
        size="small"
        dataSource={ids}
        locale={{ emptyText: t('cmp.menuPanel.empty') }}
        renderItem={(id, i) => (
          <List.Item
            key={id}
            actions={[
              <Button key="up" size="small" type="text" icon={<ArrowUpOutlined />} disabled={i === 0} aria-label={t('cmp.menuPanel.up')} onClick={() => move(i, -1)} />,
              <Button key="down" size="small" type="text" icon={<ArrowDownOutlined />} disabled={i === ids.length - 1} aria-label={t('cmp.menuPanel.down')} onClick={() => move(i, 1)} />,
              <Button key="remove" size="small" type="text" icon={<CloseOutlined />} aria-label={t('cmp.menuPanel.remove')} onClick={() => setIds((cur) => cur.filter((x) => x !== id))} />,
            ]}
          >
            {byId.get(id) ? label(byId.get(id)!, lang) : id}
          </List.Item>
        )}
      />
    </Modal>
  );
}

export function MenuPanel() {
  const { t } = useTranslation();
  const lang = useLang();
  const inRouter = useInRouterContext();
  const { data, isLoading, error, mutate } = useGet<PanelAnswer>(`${MENU_PANEL_API}/getMyPanel`, undefined, { silent: true });
  const [editing, setEditing] = useState(false);
  if (isLoading && !data) return <Spin size="small" />;
  if (error || !data) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('cmp.menuPanel.empty')} />;
  return (
    <div className="kc-menu-panel" data-testid="menu-panel" data-default={data.isDefault}>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }}>
        {data.isDefault ? <Tag>{t('cmp.menuPanel.default')}</Tag> : <span />}
        <Button size="small" icon={<SettingOutlined />} onClick={() => setEditing(true)} data-testid="menu-panel-edit">
          {t('cmp.menuPanel.edit')}
        </Button>
      </Space>
      {data.menus.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('cmp.menuPanel.empty')} />
      ) : inRouter ? (
        <Shortcuts menus={data.menus} />
      ) : (
        <Space wrap>{data.menus.map((m) => <Tag key={m.id}>{label(m, lang)}</Tag>)}</Space>
      )}
      {editing && (
        <PanelEditor
          panel={data}
          onClose={() => setEditing(false)}
          onSaved={(p) => {
            setEditing(false);
            // the caller's panel is what was saved as theirs; a saved default shows once they have none of their own
            void mutate(p.isDefault ? undefined : p);
          }}
        />
      )}
    </div>
  );
}

/** The component's UI texts (registered with it in catalog.tsx). */
export const MENU_PANEL_TEXTS = {
  'cmp.menuPanel.edit': { zh: '编辑快捷菜单', en: 'Edit shortcuts' },
  'cmp.menuPanel.default': { zh: '默认', en: 'Default' },
  'cmp.menuPanel.empty': { zh: '尚未设置快捷菜单', en: 'No shortcuts yet' },
  'cmp.menuPanel.pick': { zh: '选择菜单', en: 'Choose menus' },
  'cmp.menuPanel.orderTip': { zh: '最多 20 个，按下面的顺序显示', en: 'At most 20, shown in the order below' },
  'cmp.menuPanel.up': { zh: '上移', en: 'Move up' },
  'cmp.menuPanel.down': { zh: '下移', en: 'Move down' },
  'cmp.menuPanel.remove': { zh: '移除', en: 'Remove' },
  'cmp.menuPanel.restore': { zh: '恢复默认', en: 'Restore default' },
  'cmp.menuPanel.setDefault': { zh: '设为默认', en: 'Set as default' },
  'cmp.menuPanel.cancel': { zh: '取消', en: 'Cancel' },
  'cmp.menuPanel.save': { zh: '保存', en: 'Save' },
  'cmp.menuPanel.saved': { zh: '快捷菜单已保存', en: 'Shortcuts saved' },
  'cmp.menuPanel.defaultSaved': { zh: '已设为默认快捷菜单', en: 'Saved as the default shortcuts' },
};
