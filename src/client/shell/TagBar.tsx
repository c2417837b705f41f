/**
 * The tag bar (spec 000 §2.5 Tag bar, §4 Tabs): one tag per opened page, the active one following the route;
 * the home tag is fixed; a menu whose meta says `isTab` false opens no tag (spec 000 §2.1); a tag is closable only when more than one is open; closing the active tag opens its
 * neighbour; close others, close all (back to the home page) and clear cache (asks 是否需要清除缓存?, then
 * says 清除完毕). The page title is the active tag's label (spec 000 §2.1).
 */
import { useEffect } from 'react';
import { Dropdown, Modal, Tabs, message } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { mutate } from 'swr';
import { updateSession, useSession, type Tag } from '../runtime/session.js';
import { findByPath, type MenuItem } from './menu.js';
import { shellTexts } from './texts.js';
import { pageForPath } from '../runtime/menu-pages.js';

export const HOME_PATH = '/wel/index';

/** The tags after closing `value`, and where to go when it was the active one (its right, else left neighbour). */
/** The console (spec 000 §2.3 /wel/dashboard): a fixed route outside the menu, with a tag of its own. */
export const CONSOLE_PATH = '/wel/dashboard';

export function closeTag(tags: Tag[], value: string, active: string): { tags: Tag[]; next: string | null } {
  const i = tags.findIndex((t) => t.value === value);
  if (i < 0 || tags.length <= 1 || value === HOME_PATH) return { tags, next: null };
  const rest = tags.filter((t) => t.value !== value);
  if (value !== active) return { tags: rest, next: null };
  const neighbour = tags[i + 1] ?? tags[i - 1];
  return { tags: rest, next: neighbour.value };
}

export function TagBar({ menus }: { menus: MenuItem[] }) {
  const { t, i18n } = useTranslation();
  const s = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const path = location.pathname;

  // the active tag follows the route; a new route opens a tag
  useEffect(() => {
    const home: Tag = { value: HOME_PATH, label: shellTexts['route.home'].zh, labelEn: shellTexts['route.home'].en };
    let tags = s.tags.some((x) => x.value === HOME_PATH) ? s.tags : [home, ...s.tags];
    if (!tags.some((x) => x.value === path)) {
      const chain = findByPath(menus, path);
      const m = chain?.[chain.length - 1];
      // a menu whose meta disables tabs opens none (spec 000 §2.1; route-flags.ts)
      if (m) tags = m.meta?.isTab === false ? tags : [...tags, { value: path, label: m.name, labelEn: m.nameEn ?? undefined }];
      else if (path.startsWith('/userCenter')) tags = [...tags, { value: path, label: shellTexts['user.info'].zh, labelEn: shellTexts['user.info'].en }];
      else if (path === CONSOLE_PATH) tags = [...tags, { value: path, label: shellTexts['user.dashboard'].zh, labelEn: shellTexts['user.dashboard'].en }];
      else if (pageForPath(path)) tags = [...tags, { value: path, label: pageForPath(path)!.title, labelEn: pageForPath(path)!.titleEn }];
    }
    if (tags !== s.tags) updateSession({ tags });
  }, [path, menus, s.tags]);

  const label = (x: Tag) => (lang === 'en' && x.labelEn ? x.labelEn : x.label);
  const active = s.tags.find((x) => x.value === path);
  useEffect(() => {
    if (active) document.title = label(active);
  });

  const onClose = (value: string) => {
    const { tags, next } = closeTag(s.tags, value, path);
    updateSession({ tags });
    if (next) navigate(next);
  };

  const menu = {
    items: [
      { key: 'others', label: t('tags.closeOthers') },
      { key: 'all', label: t('tags.closeAll') },
      { key: 'cache', label: t('tags.clearCache') },
    ],
    onClick: ({ key }: { key: string }) => {
      if (key === 'others') updateSession({ tags: s.tags.filter((x) => x.value === HOME_PATH || x.value === path) });
      if (key === 'all') {
        updateSession({ tags: s.tags.filter((x) => x.value === HOME_PATH) });
        navigate(HOME_PATH);
      }
      if (key === 'cache')
        Modal.confirm({
          title: t('tags.clearCacheConfirm'),
          okText: t('common.ok'),
          cancelText: t('common.cancel'),
          onOk: async () => {
            await mutate(() => true, undefined, { revalidate: true });
            void message.success(t('tags.cleared'));
          },
        });
    },
  };

  return (
    <div className="kc-tagbar">
      <Tabs
        type="editable-card"
        size="small"
        hideAdd
        activeKey={path}
        onChange={(k) => navigate(k)}
        onEdit={(k, action) => action === 'remove' && onClose(String(k))}
        items={s.tags.map((x) => ({ key: x.value, label: label(x), closable: s.tags.length > 1 && x.value !== HOME_PATH }))}
        tabBarExtraContent={
          <Dropdown menu={menu}>
            <DownOutlined className="kc-tagbar-more" aria-label="tags" />
          </Dropdown>
        }
      />
    </div>
  );
}
