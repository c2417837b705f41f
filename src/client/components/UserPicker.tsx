/**
 * UserPicker: names a platform user of the tenant — a project's leader, a chapter's writer, an inventor who is a
 * platform user. A searchable Select over the user directory (`GET /api/blade-user/user-select`, any signed-in
 * user: server modules/system/user-directory.ts): typing searches names and accounts, an option reads
 * 姓名（账号） · 部门, the value is the user's id (what `x-ref: user` fields store and the server checks). A stored
 * value is named through the same call (`ids`); one the directory does not know (a name typed before the directory
 * existed, a removed user) shows as it is. Read-only it is the user's name.
 * `UserSelect` is the bare control, for components outside Formily (the bidding screens).
 */
import React, { useEffect, useMemo, useState } from 'react';
import { Select, type SelectProps } from 'antd';
import { connect, mapReadPretty } from '@formily/react';
import { useTranslation } from 'react-i18next';
import { useGet } from './env.js';

export const USER_SELECT_URL = '/api/blade-user/user-select';

export interface DirectoryUser {
  id: string;
  realName: string;
  account: string;
  deptName?: string | null;
}

const labelOf = (u: DirectoryUser) => `${u.realName}（${u.account}）${u.deptName ? ` · ${u.deptName}` : ''}`;

/** The stored value's user (null while loading, or when the directory does not know it). */
function useNamed(value: string | undefined) {
  const known = typeof value === 'string' && /^\d{1,19}$/.test(value);
  const { data } = useGet<DirectoryUser[]>(known ? USER_SELECT_URL : null, { ids: value }, { silent: true });
  return data?.[0] ?? null;
}

/** The bare control: `value` a user id, `onChange(id | undefined)`. */
export function UserSelect({ value, onChange, ...rest }: Omit<SelectProps, 'value' | 'onChange' | 'options'> & { value?: string; onChange?: (value: string | undefined) => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setKeyword(typed.trim()), 250);
    return () => window.clearTimeout(timer);
  }, [typed]);
  const { data: found, isLoading } = useGet<DirectoryUser[]>(USER_SELECT_URL, { keyword, size: 20 }, { silent: true });
  const named = useNamed(value);
  const options = useMemo(() => {
    const list = [...(named ? [named] : []), ...(found ?? []).filter((u) => u.id !== named?.id)];
    const opts = list.map((u) => ({ value: u.id, label: labelOf(u) }));
    // a stored value the directory does not know stays visible as it is
    if (value && !list.some((u) => u.id === value)) opts.unshift({ value, label: value });
    return opts;
  }, [found, named, value]);
  return (
    <Select
      showSearch
      allowClear
      filterOption={false}
      placeholder={t('cmp.user.placeholder')}
      loading={isLoading}
      {...rest}
      value={value || undefined}
      options={options}
      onSearch={setTyped}
      onChange={(v) => onChange?.((v as string | undefined) ?? undefined)}
    />
  );
}

/** Read-only: the user's name (the value as it is when the directory does not know it). */
export function UserName({ value }: { value?: string }) {
  const named = useNamed(value);
  return <span className="kc-user-name">{named ? named.realName : (value ?? '')}</span>;
}

export const UserPicker = connect(UserSelect, mapReadPretty(UserName));
