/**
 * The pieces FormDialog and DetailView share:
 *
 * - `formSchemaOf(resource, lang)`: the resource's form localized and prepared for Formily, with the root's
 *   `x-component-props` split off as FormLayout props (`labelWidth` 130 by default, spec 000 §9, wider in English
 *   and wrapping: label-width.ts) and the
 *   dialog width (`dialogWidth`, default 900).
 * - `useRecordForm(...)`: the Formily form of one record: empty (plus `initialValues`) for an add, or
 *   filled from `GET ${api}/detail?<key>=` for an edit or a view (also answered as `record`); readPretty for
 *   a view. A new form per opening, and per `version` (a view reloads after a workflow action). Server field
 *   errors shown on a field (`applyServerErrors`) clear when the user edits that field.
 * - `applyServerErrors(form, errors)`: puts each `{field, message}` of a 400 on its field (paths such as
 *   `assignee.0.name` match the data path through layout nodes); answers the ones no field took.
 *   `clearServerErrors(form)` removes them again before the next save.
 * - `UnmatchedErrors`: the 400's field errors no field took, listed above a dialog's form (nothing when none).
 * - `FormBody`: FormProvider + FormLayout + SchemaField; empty values read as '-' in readPretty.
 */
import React, { useEffect, useMemo, useState } from 'react';
import { createForm, onFieldInputValueChange, setValidateLanguage, type Form, type Field } from '@formily/core';
import { FormProvider } from '@formily/react';
import { FormLayout, PreviewText } from '@formily/antd-v5';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ResourceSchema } from '../../shared/schema/types.js';
import { SchemaField } from '../components/registry.js';
import { get, type FieldError } from './api.js';
import { localizeSchema, prepareFormSchema } from './schema.js';
import { FORM_LABEL_WIDTH, formItemTitles, labelLayout } from './label-width.js';
import type { Lang } from '../../shared/contract/lang.js';


export interface PreparedForm {
  schema: Record<string, any>;
  layout: Record<string, unknown>;
  width: number;
}

export function formSchemaOf(resource: ResourceSchema, lang: Lang, node = resource.form, readPretty = false): PreparedForm {
  const prepared = prepareFormSchema(localizeSchema(node, lang), lang, { readPretty }) as Record<string, any>;
  const { dialogWidth, ...layout } = (prepared['x-component-props'] ?? {}) as Record<string, unknown>;
  const schema = { ...prepared };
  delete schema['x-component-props'];
  // labels: 130 px in Chinese, what the longest label needs in English, wrapping rather than cut (label-width.ts)
  // (a schema's own labelWidth is its Chinese width, the base the English one grows from)
  const base = typeof layout.labelWidth === 'number' ? layout.labelWidth : FORM_LABEL_WIDTH;
  return { schema, layout: { ...layout, ...labelLayout(formItemTitles(schema), lang, base) }, width: typeof dialogWidth === 'number' ? dialogWidth : 900 };
}

/**
 * The record to send: plain JSON of the form's values, without the bookkeeping keys Formily's ArrayTable
 * writes into row objects (`__DO_NOT_USE_THIS_PROPERTY_index__`), which the server would refuse as unknown.
 */
export function recordOf(values: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(values, (k, v) => (k.startsWith('__DO_NOT_USE_THIS_PROPERTY') ? undefined : v))) as Record<string, unknown>;
}

/** The query parameters naming one record: `{id}` or `{<key>}` for resources keyed otherwise. */
export function keyParams(resource: ResourceSchema, key: string): Record<string, string> {
  return { [resource.key ?? 'id']: key };
}

/** Removes the server errors `applyServerErrors` put on fields (before the next save: the server judges again). */
export function clearServerErrors(form: Form): void {
  form.query('*').forEach((f) => {
    if ('setSelfErrors' in f && f.selfErrors.length) (f as Field).setSelfErrors([]);
  });
}

export function applyServerErrors(form: Form, errors: FieldError[]): FieldError[] {
  const unmatched: FieldError[] = [];
  for (const e of errors) {
    const target = e.field ? form.query(e.field).take() : undefined;
    if (target && 'setSelfErrors' in target) (target as Field).setSelfErrors([e.message]);
    else unmatched.push(e);
  }
  return unmatched;
}

export interface RecordFormOptions {
  open: boolean;
  recordKey?: string;
  initialValues?: Record<string, unknown>;
  readPretty?: boolean;
  /** Changing it loads the record again (after a workflow action changed it). */
  version?: number;
}

export function useRecordForm(resource: ResourceSchema, { open, recordKey, initialValues, readPretty, version }: RecordFormOptions) {
  const [form, setForm] = useState<Form | null>(null);
  const [record, setRecord] = useState<Record<string, unknown> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) {
      setForm(null);
      setRecord(null);
      return;
    }
    let gone = false;
    const make = (values: Record<string, unknown>) =>
      createForm({
        initialValues: values,
        readPretty,
        // the designer's form properties (detail mode / read-only / disabled) are the form root's x-pattern
        pattern: readPretty ? undefined : (resource.form['x-pattern'] as 'editable' | 'disabled' | 'readOnly' | 'readPretty' | undefined),
        effects() {
          onFieldInputValueChange('*', (field) => {
            if ('setSelfErrors' in field && field.selfErrors.length) (field as Field).setSelfErrors([]);
          });
        },
      });
    setError(null);
    if (recordKey === undefined) {
      setRecord(null);
      setForm(make({ ...(initialValues ?? {}) }));
    } else {
      setForm(null);
      get<Record<string, unknown>>(`${resource.api}/detail`, keyParams(resource, recordKey))
        .then((rec) => {
          if (gone) return;
          setRecord(rec);
          setForm(make(rec));
        })
        .catch((e: Error) => !gone && setError(e.message));
    }
    return () => {
      gone = true;
    };
  }, [open, recordKey, resource, readPretty, initialValues, version]);
  /** `record`: the detail answer as loaded (null for an add). */
  return { form, record, error };
}

export function FormBody({ form, prepared, lang }: { form: Form; prepared: PreparedForm; lang: Lang }) {
  useMemo(() => setValidateLanguage(lang === 'en' ? 'en-US' : 'zh-CN'), [lang]);
  return (
    <FormProvider form={form}>
      <PreviewText.Placeholder value="-">
        <FormLayout {...prepared.layout}>
          <SchemaField schema={prepared.schema} />
        </FormLayout>
      </PreviewText.Placeholder>
    </FormProvider>
  );
}

export function UnmatchedErrors({ errors }: { errors: FieldError[] }) {
  const { t } = useTranslation();
  if (!errors.length) return null;
  return <Alert type="error" showIcon style={{ marginBottom: 16 }} message={t('rt.serverErrors')} description={errors.map((u) => (u.field ? `${u.field}: ${u.message}` : u.message)).join('；')} />;
}
