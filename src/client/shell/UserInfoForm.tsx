/**
 * The personal-info form (spec 000 §3.3, §5; spec 002 §3) rendered from its page schema
 * `schemas/_pages/userinfo.json` — the same form the server's update-info validates with
 * (src/server/modules/system/account.ts) — for the personal info page (`scene: 'page'`) and onboarding step 3
 * (`scene: 'onboarding'`). What differs by scene or role is set on the fields here, not written twice:
 *
 * - a valid ID number fills sex and birthday (spec 000 §5 'derived from it'); in onboarding sex is read-only;
 * - the ID number: 18 characters on the page ('length not 18'), 15 or 18 in onboarding;
 * - school: required in onboarding (max 50 both: the longer of the spec's two readings);
 * - researchProject, awards, thesis: shown, and then required, for project managers (role alias projectMan…).
 *
 * `onSaved(info)` after a successful save; server field errors go onto their fields (runtime/FormBody.tsx).
 */
import React, { useEffect, useMemo, useState } from 'react';
import { Button, Space } from 'antd';
import { createForm, onFieldInputValueChange, onFieldValueChange, type Field } from '@formily/core';
import { useTranslation } from 'react-i18next';
import userinfoPage from '../../../schemas/_pages/userinfo.json';
import { ApiError, toastError } from '../runtime/api.js';
import { applyServerErrors, clearServerErrors, FormBody, type PreparedForm } from '../runtime/FormBody.js';
import { useLang } from '../runtime/hooks.js';
import { localizeSchema, prepareFormSchema } from '../runtime/schema.js';
import { idCardFault, idCardInfo } from '../../shared/validators/index.js';
import { updateInfo, type AccountInfo } from './account.js';

const PAGE = userinfoPage as unknown as { schema: Record<string, unknown> };
const RESEARCH = ['researchProject', 'awards', 'thesis'] as const;
const PROJECT_MAN = 'projectMan';

export interface UserInfoFormProps {
  info: AccountInfo;
  scene: 'page' | 'onboarding';
  /** The current role's alias (research fields for projectMan…). */
  roleAlias: string | undefined;
  onSaved(info: AccountInfo): void;
  /** Onboarding's 'complete later'. */
  onLater?: () => void;
}

export function UserInfoForm({ info, scene, roleAlias, onSaved, onLater }: UserInfoFormProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [saving, setSaving] = useState(false);
  const research = !!roleAlias?.startsWith(PROJECT_MAN);
  const prepared: PreparedForm = useMemo(() => {
    const schema = prepareFormSchema(localizeSchema(PAGE.schema, lang), lang) as Record<string, any>;
    return { schema, layout: { labelWidth: 130 }, width: 900 };
  }, [lang]);
  const form = useMemo(
    () =>
      createForm({
        initialValues: info,
        effects() {
          onFieldInputValueChange('*', (field) => {
            if ('setSelfErrors' in field && field.selfErrors.length) (field as Field).setSelfErrors([]);
          });
          onFieldValueChange('idcard', (field) => {
            const derived = typeof field.value === 'string' ? idCardInfo(field.value) : null;
            if (!derived) return;
            field.form.setValuesIn('sex', derived.sex);
            field.form.setValuesIn('birthday', derived.birthday);
          });
        },
      }),
    // a new form per user record and language (Formily keeps a field's title from its first render)
    [info, lang],
  );
  useEffect(() => {
    form.setFieldState('idcard', (s) => {
      s.validator = [
        ...((Array.isArray(s.validator) ? s.validator : s.validator ? [s.validator] : []) as never[]),
        // GB 11643 with the shared validator's messages; 15 characters only in onboarding
        ((v: unknown) => (typeof v === 'string' && v !== '' ? (idCardFault(v, { allow15: scene === 'onboarding' })?.[lang] ?? '') : '')) as never,
      ];
    });
    if (scene === 'onboarding') {
      form.setFieldState('sex', (s) => {
        s.pattern = 'readOnly';
      });
      form.setFieldState('school', (s) => {
        s.required = true;
      });
    }
    for (const name of RESEARCH) {
      form.setFieldState(name, (s) => {
        s.visible = research;
        s.required = research;
      });
    }
  }, [form, scene, research, lang]);

  const save = async () => {
    clearServerErrors(form);
    try {
      await form.validate();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const values = { ...(form.values as Record<string, unknown>), ...(scene === 'onboarding' ? { isPerfect: true } : {}) };
      const saved = await updateInfo(values);
      onSaved(saved);
    } catch (e) {
      const err = e as ApiError;
      const rest = err instanceof ApiError ? applyServerErrors(form, err.fields) : [];
      if (!(err instanceof ApiError) || rest.length || !err.fields.length) toastError(err.message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="kc-userinfo-form" data-scene={scene}>
      <FormBody form={form} prepared={prepared} lang={lang} />
      <Space style={{ marginTop: 16 }}>
        <Button type="primary" loading={saving} onClick={() => void save()}>
          {scene === 'onboarding' ? t('onboarding.save') : t('userinfo.save')}
        </Button>
        {onLater && <Button onClick={onLater}>{t('onboarding.later')}</Button>}
      </Space>
    </div>
  );
}
