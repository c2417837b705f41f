/**
 * Small value components of the palette's "others" group (spec 002 §2), registered once in the registry so the
 * runtime, the designer and Storybook share them:
 *
 * - `Rate`: antd Rate; readPretty shows a disabled rate.
 * - `Slider`: antd Slider (number, or [from, to] with `range`); readPretty shows the number(s).
 * - `ColorPicker`: antd ColorPicker storing the colour as a hex string (`#257e44`); readPretty shows a swatch.
 * - `IconSelect`: a choice of an @ant-design/icons name (stored as the name, e.g. `HomeOutlined`); the set is a
 *   curated list of common icons (importing every icon would add megabytes to the runtime), readPretty shows
 *   the icon and its name.
 */
import React from 'react';
import { ColorPicker as AntdColorPicker, Rate as AntdRate, Select, Slider as AntdSlider, Space } from 'antd';
import type { SelectProps } from 'antd';
import {
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  BarChartOutlined,
  BookOutlined,
  BulbOutlined,
  CalendarOutlined,
  CheckCircleOutlined,
  CloudOutlined,
  DatabaseOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  EnvironmentOutlined,
  ExperimentOutlined,
  EyeOutlined,
  FileOutlined,
  FileTextOutlined,
  FlagOutlined,
  FolderOutlined,
  GlobalOutlined,
  HeartOutlined,
  HomeOutlined,
  InfoCircleOutlined,
  LinkOutlined,
  LockOutlined,
  MailOutlined,
  MessageOutlined,
  PhoneOutlined,
  PictureOutlined,
  PlusOutlined,
  ProjectOutlined,
  SafetyOutlined,
  SearchOutlined,
  SettingOutlined,
  ShopOutlined,
  StarOutlined,
  TagOutlined,
  TeamOutlined,
  ToolOutlined,
  TrophyOutlined,
  UploadOutlined,
  UserOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { connect, mapProps, mapReadPretty } from '@formily/react';
import { PreviewText } from '@formily/antd-v5';
import { useTranslation } from 'react-i18next';

function Placeholder() {
  return <span>{PreviewText.usePlaceholder()}</span>;
}

export const Rate = connect(
  AntdRate,
  mapReadPretty((props: { value?: number; count?: number; allowHalf?: boolean }) =>
    props.value === undefined || props.value === null ? <Placeholder /> : <AntdRate disabled value={props.value} count={props.count} allowHalf={props.allowHalf} />,
  ),
);

export const Slider = connect(
  AntdSlider,
  mapReadPretty(({ value }: { value?: number | number[] }) =>
    value === undefined || value === null ? <Placeholder /> : <span>{Array.isArray(value) ? value.join(' ~ ') : value}</span>,
  ),
);

interface ColorPickerProps {
  value?: string;
  onChange?: (value: string | undefined) => void;
  disabled?: boolean;
  allowClear?: boolean;
  showText?: boolean;
}

function ColorPickerInput({ value, onChange, ...rest }: ColorPickerProps) {
  return (
    <AntdColorPicker
      showText
      allowClear
      {...rest}
      value={value || undefined}
      onChange={(c) => onChange?.(c.cleared ? undefined : c.toHexString())}
      onClear={() => onChange?.(undefined)}
    />
  );
}

function ColorText({ value }: ColorPickerProps) {
  if (!value) return <Placeholder />;
  return (
    <Space size={6}>
      <span aria-hidden style={{ display: 'inline-block', width: 14, height: 14, borderRadius: 3, background: value, border: '1px solid rgba(0,0,0,.15)', verticalAlign: 'middle' }} />
      <span>{value}</span>
    </Space>
  );
}

export const ColorPicker = connect(ColorPickerInput, mapReadPretty(ColorText));

/** The icons an `IconSelect` offers, by their @ant-design/icons names. */
export const ICONS: Record<string, React.ComponentType> = {
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  BarChartOutlined,
  BookOutlined,
  BulbOutlined,
  CalendarOutlined,
  CheckCircleOutlined,
  CloudOutlined,
  DatabaseOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  EnvironmentOutlined,
  ExperimentOutlined,
  EyeOutlined,
  FileOutlined,
  FileTextOutlined,
  FlagOutlined,
  FolderOutlined,
  GlobalOutlined,
  HeartOutlined,
  HomeOutlined,
  InfoCircleOutlined,
  LinkOutlined,
  LockOutlined,
  MailOutlined,
  MessageOutlined,
  PhoneOutlined,
  PictureOutlined,
  PlusOutlined,
  ProjectOutlined,
  SafetyOutlined,
  SearchOutlined,
  SettingOutlined,
  ShopOutlined,
  StarOutlined,
  TagOutlined,
  TeamOutlined,
  ToolOutlined,
  TrophyOutlined,
  UploadOutlined,
  UserOutlined,
  WarningOutlined,
};

function IconSelectInput(props: Omit<SelectProps<string>, 'options'>) {
  const { t } = useTranslation();
  const options = Object.entries(ICONS).map(([name, Icon]) => ({
    value: name,
    label: (
      <Space size={6}>
        <Icon />
        <span>{name}</span>
      </Space>
    ),
  }));
  return <Select allowClear showSearch placeholder={t('cmp.select')} {...props} options={options} />;
}

function IconText({ value }: { value?: string }) {
  if (!value) return <Placeholder />;
  const Icon = ICONS[value];
  return (
    <Space size={6}>
      {Icon && <Icon />}
      <span>{value}</span>
    </Space>
  );
}

export const IconSelect = connect(
  IconSelectInput,
  mapProps((props: Record<string, unknown>) => props),
  mapReadPretty(IconText),
);
