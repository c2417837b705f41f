/**
 * Every designer text exists in both languages (DESIGN §7) with the same {{placeholders}}, no key clashes with
 * the other areas' texts, and the i18n set-up serves them; the spec's Chinese texts are verbatim.
 */
import { describe, expect, it } from 'vitest';
import { designerTexts } from './texts.js';
import { shellTexts } from '../src/client/shell/texts.js';
import { runtimeTexts } from '../src/client/runtime/texts.js';
import { componentTexts } from '../src/client/components/texts.js';
// the registrations' texts are component texts too
import '../src/client/components/registry.js';
import i18n from '../src/client/shell/i18n.js';

const holes = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('designer texts', () => {
  it('has zh and en for every key, with the same placeholders', () => {
    for (const [key, v] of Object.entries(designerTexts)) {
      expect(v.zh?.trim(), `${key} zh`).toBeTruthy();
      expect(v.en?.trim(), `${key} en`).toBeTruthy();
      expect(holes(v.en), key).toEqual(holes(v.zh));
      expect(key.startsWith('dz.'), key).toBe(true);
    }
  });

  it('shares no key with the other areas and is served by i18next', () => {
    const others = new Set([...Object.keys(shellTexts), ...Object.keys(runtimeTexts), ...Object.keys(componentTexts)]);
    expect(Object.keys(designerTexts).filter((k) => others.has(k))).toEqual([]);
    expect(i18n.t('dz.fieldProps', { lng: 'zh' })).toBe('字段属性');
    expect(i18n.t('dz.formProps', { lng: 'en' })).toBe('Form properties');
  });

  it('keeps the spec’s texts verbatim', () => {
    const zh = (k: string) => designerTexts[k].zh;
    expect([zh('dz.fieldProps'), zh('dz.formProps'), zh('dz.import'), zh('dz.generate'), zh('dz.preview'), zh('dz.opt.duplicate')]).toEqual(['字段属性', '表单属性', '导入JSON', '生成JSON', '预览', 'value重复']);
    expect([designerTexts['dz.previewEmpty'].en, designerTexts['dz.clearEmpty'].en, designerTexts['dz.clearConfirm'].en, designerTexts['dz.selectField'].en]).toEqual([
      'no content to show',
      'no content to clear',
      'are you sure you want to clear?',
      'drag a field to configure',
    ]);
  });
});
