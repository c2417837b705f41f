// @vitest-environment jsdom
/**
 * Every UI text exists in both languages (DESIGN §7: no screen half in one language): each key of each texts
 * map (shell, runtime, components — the shared component texts and those the registrations bring) has a
 * non-empty zh and en, the same {{placeholders}} in both, and no key is defined by two maps; a registration's
 * texts reach i18next even when the registry loads after i18next was set up.
 */
import { describe, expect, it } from 'vitest';
import { shellTexts } from '../shell/texts.js';
import { runtimeTexts } from '../runtime/texts.js';
import { componentTexts } from './texts.js';
import i18n from '../shell/i18n.js';
// after i18n: the registrations' texts arrive once i18next is set up, as in the app (the registry loads lazily)
import './registry.js';

const maps = { shellTexts, runtimeTexts, componentTexts };
const holes = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('texts', () => {
  it('has zh and en for every key of every map, with the same placeholders', () => {
    for (const [map, texts] of Object.entries(maps)) {
      for (const [key, v] of Object.entries(texts)) {
        expect(typeof v.zh === 'string' && v.zh.trim() !== '', `${map} ${key} zh`).toBe(true);
        expect(typeof v.en === 'string' && v.en.trim() !== '', `${map} ${key} en`).toBe(true);
        expect(holes(v.en), `${map} ${key}`).toEqual(holes(v.zh));
      }
    }
  });

  it('defines no key twice across the maps', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [map, texts] of Object.entries(maps))
      for (const key of Object.keys(texts)) {
        if (seen.has(key)) twice.push(`${key} (${seen.get(key)}, ${map})`);
        seen.set(key, map);
      }
    expect(twice).toEqual([]);
  });

  it('keeps the spec texts verbatim', () => {
    const zh = i18n.getFixedT('zh');
    expect(zh('rt.selectOne')).toBe('请选择至少一条数据');
    expect(zh('rt.removeConfirm')).toBe('确定将选择数据删除?');
    expect(zh('rt.removed')).toBe('删除成功');
    expect(zh('rt.added')).toBe('新增成功');
    expect(zh('rt.updated')).toBe('更新成功');
    expect(zh('cmp.upload.uploading')).toBe('附件上传中，请稍等');
  });
});
