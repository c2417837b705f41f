/**
 * Menu search (spec 000 §2.5, widened by issue 18 defect 4): a dialog whose input matches leaf menu names
 * anywhere, in zh, en or the pinyin initials of the zh name (menu.ts `searchLeaves`), and opens the chosen one.
 *
 * Keyboard: the input has the focus as soon as the dialog opens; ↓ / ↑ move through the hits (the first is
 * active after every change of the query), Enter opens the active hit, Esc closes the dialog.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Button, Empty, Input, Modal, type InputRef } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { menuLabel, searchLeaves, useOpenMenu, type MenuItem } from './menu.js';

export function MenuSearch({ menus }: { menus: MenuItem[] }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<InputRef>(null);
  const openMenu = useOpenMenu();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const hits = searchLeaves(menus, q);

  useEffect(() => setActive(0), [q]);
  // the dialog takes the focus for itself as it opens: hand it to the input right after
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => input.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, [open]);

  const close = () => {
    setOpen(false);
    setQ('');
  };
  const choose = (m: MenuItem | undefined) => {
    if (!m) return;
    close();
    openMenu(m);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!hits.length) return;
      setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : hits.length - 1)) % hits.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      choose(hits[active]);
    }
  };

  return (
    <>
      <Button type="text" icon={<SearchOutlined />} aria-label={t('menu.search')} title={t('menu.search')} onClick={() => setOpen(true)} />
      <Modal
        open={open}
        title={t('menu.search')}
        footer={null}
        keyboard
        onCancel={close}
        destroyOnHidden
        afterOpenChange={(o) => o && input.current?.focus()}
      >
        <Input
          ref={input}
          autoFocus
          allowClear
          value={q}
          onChange={(e) => setQ(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={t('menu.searchHint')}
          prefix={<SearchOutlined />}
          role="combobox"
          aria-expanded={hits.length > 0}
          aria-controls="kc-menu-search-hits"
          aria-activedescendant={hits[active] ? `kc-menu-hit-${hits[active].id}` : undefined}
        />
        {q.trim() !== '' && (
          <ul id="kc-menu-search-hits" className="kc-menu-hits" role="listbox" aria-label={t('menu.search')}>
            {hits.map((m, i) => (
              <li
                key={m.id}
                id={`kc-menu-hit-${m.id}`}
                role="option"
                aria-selected={i === active}
                className={`kc-menu-hit${i === active ? ' kc-menu-hit-active' : ''}${m.isEnabled ? '' : ' kc-menu-disabled'}`}
                onMouseEnter={() => setActive(i)}
                onClick={() => choose(m)}
              >
                {menuLabel(m, lang)}
              </li>
            ))}
            {hits.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('menu.searchEmpty')} />}
          </ul>
        )}
      </Modal>
    </>
  );
}
