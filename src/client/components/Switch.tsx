/**
 * Switch: @formily/antd-v5's Switch (value ↔ checked), reading 是 / 否 (Yes / No) in readPretty instead of a
 * disabled switch.
 */
import React from 'react';
import { Switch as AntdSwitch } from 'antd';
import { connect, mapProps, mapReadPretty } from '@formily/react';
import { PreviewText } from '@formily/antd-v5';
import { useTranslation } from 'react-i18next';

function YesNo({ value }: { value?: unknown }) {
  const { t } = useTranslation();
  const placeholder = PreviewText.usePlaceholder();
  if (value === undefined || value === null) return <span>{placeholder}</span>;
  return <span>{value ? t('cmp.yes') : t('cmp.no')}</span>;
}

export const Switch = connect(
  AntdSwitch,
  mapProps({ value: 'checked' }, (props) => {
    const { value: _value, ...rest } = props as Record<string, unknown>;
    return rest;
  }),
  mapReadPretty(YesNo),
);
