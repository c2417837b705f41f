/**
 * Menu search (spec 000 §2.5): a dialog whose autocomplete matches leaf menu names by prefix,
 * case-insensitively (zh and en names), and opens the chosen one; Esc closes it.
 */
import { useState } from 'react';
import { AutoComplete, Button, Empty, Modal } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { menuLabel, searchLeaves, useOpenMenu, type MenuItem } from './menu.js';

export function MenuSearch({ menus }: { menus: MenuItem[] }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const openMenu = useOpenMenu();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const hits = searchLeaves(menus, q);
  return (
    <>
      <Button type="text" icon={<SearchOutlined />} aria-label={t('menu.search')} title={t('menu.search')} onClick={() => setOpen(true)} />
      <Modal open={open} title={t('menu.search')} footer={null} keyboard onCancel={() => setOpen(false)} destroyOnHidden>
        <AutoComplete
          autoFocus
          style={{ width: '100%' }}
          value={q}
          onChange={setQ}
          placeholder={t('menu.search')}
          notFoundContent={q ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('menu.searchEmpty')} /> : null}
          options={hits.map((m) => ({ value: m.id, label: menuLabel(m, lang) }))}
          onSelect={(id: string) => {
            const m = hits.find((h) => h.id === id);
            setOpen(false);
            setQ('');
            if (m) openMenu(m);
          }}
        />
      </Modal>
    </>
  );
}
