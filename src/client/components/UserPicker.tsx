/**
 * UserPicker: names a platform user. The user directory (`GET /api/blade-user/user-list`) is not built yet,
 * so this is, for now, an Input that accepts the user's name or account as typed; the value is that text.
 * When the directory exists this becomes a searchable Select storing the user id, without any schema change
 * (schemas name `UserPicker`, not the widget behind it).
 */
import React from 'react';
import { Input, type InputProps } from 'antd';
import { connect, mapReadPretty } from '@formily/react';
import { PreviewText } from '@formily/antd-v5';
import { useTranslation } from 'react-i18next';

function UserInput(props: InputProps) {
  const { t } = useTranslation();
  return <Input allowClear placeholder={t('cmp.user.placeholder')} {...props} />;
}

export const UserPicker = connect(UserInput, mapReadPretty(PreviewText.Input));
