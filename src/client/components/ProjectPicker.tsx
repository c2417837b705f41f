/**
 * ProjectPicker: chooses the research project an achievement came from (spec 001 §3, project source: 1 a
 * project declared on the platform, 2 one not yet declared). The patent schema sets `declared` from the
 * project source (`{{$deps[0] === 1}}`).
 *
 * Options come from `GET /api/project/baseinfo/select?declareStatus=` (`declaredValue` 1 / `undeclaredValue`
 * 0 by default; the parameter name is `statusParam`), loaded when the list first opens (or at once when the
 * field already holds a value). Option label = the record's `labelField` (default `name`, the project base
 * info's name), value = its `id`. When the call fails (no such resource, no grant) the server's message is
 * shown inside the drop-down.
 *
 * Choosing a project also writes its name into the sibling field named by `nameField` (the patent's
 * `projectName`), so the list and the record carry the name. readPretty shows that sibling name (or the id).
 */
import React, { useState } from 'react';
import { Select, Typography, type SelectProps } from 'antd';
import { connect, mapReadPretty, useField } from '@formily/react';
import type { GeneralField } from '@formily/core';
import { PreviewText } from '@formily/antd-v5';
import { useTranslation } from 'react-i18next';
import { useGet } from './env.js';

export const PROJECT_SELECT_URL = '/api/project/baseinfo/select';

export interface ProjectPickerProps extends Omit<SelectProps, 'options' | 'onChange'> {
  value?: string;
  onChange?: (value: string | undefined) => void;
  declared?: boolean;
  nameField?: string;
  url?: string;
  statusParam?: string;
  declaredValue?: string | number;
  undeclaredValue?: string | number;
  labelField?: string;
}

type Project = Record<string, unknown> & { id: string };

/** The value of the sibling `name` of `field` (same parent object), if any. */
function siblingValue(field: GeneralField | undefined, name?: string): unknown {
  if (!field || !name) return undefined;
  return field.form.getValuesIn(field.path.parent().concat(name));
}

function ProjectSelect(props: ProjectPickerProps) {
  const { value, onChange, declared, nameField, url = PROJECT_SELECT_URL, statusParam = 'declareStatus', declaredValue = 1, undeclaredValue = 0, labelField = 'name', ...rest } = props;
  const { t } = useTranslation();
  const field = useField() as GeneralField | undefined;
  const [opened, setOpened] = useState(false);
  const load = opened || (value !== undefined && value !== null && value !== '');
  const { data, error, isLoading } = useGet<Project[]>(load ? url : null, { [statusParam]: declared === false ? undeclaredValue : declaredValue }, { silent: true });
  const labelOf = (p: Project) => String(p[labelField] ?? p.projectName ?? p.name ?? p.id);
  const options = (Array.isArray(data) ? data : []).map((p) => ({ value: String(p.id), label: labelOf(p) }));
  const known = siblingValue(field, nameField);
  if (value && !options.some((o) => o.value === String(value))) options.unshift({ value: String(value), label: typeof known === 'string' && known ? known : String(value) });
  const message = error ? (error instanceof Error ? error.message : String(error)) : null;
  return (
    <Select
      showSearch
      allowClear
      optionFilterProp="label"
      placeholder={t('cmp.project.placeholder')}
      loading={isLoading}
      {...rest}
      value={value || undefined}
      options={options}
      popupRender={(menu) =>
        message ? (
          <div>
            <Typography.Text type="danger" className="kc-project-error" style={{ display: 'block', padding: '4px 12px' }}>
              {message}
            </Typography.Text>
            {options.length ? menu : null}
          </div>
        ) : (
          menu
        )
      }
      onOpenChange={(open) => open && setOpened(true)}
      onChange={(v: string | undefined, option) => {
        onChange?.(v);
        if (field && nameField) {
          const label = v ? (Array.isArray(option) ? undefined : (option?.label as string | undefined)) : undefined;
          field.form.setValuesIn(field.path.parent().concat(nameField), label ?? undefined);
        }
      }}
    />
  );
}

function ProjectText({ value, nameField }: ProjectPickerProps) {
  const field = useField() as GeneralField | undefined;
  const placeholder = PreviewText.usePlaceholder();
  const name = siblingValue(field, nameField);
  if (typeof name === 'string' && name) return <span>{name}</span>;
  return <span>{value ? String(value) : placeholder}</span>;
}

export const ProjectPicker = connect(ProjectSelect, mapReadPretty(ProjectText));
