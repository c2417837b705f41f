/**
 * UI texts of the registry components: key → zh and en. Keys start with `cmp.`.
 *
 * - `Texts`: the shape of every texts map of the client (shell, runtime, components, designer): key →
 *   `{ zh, en }`. It is defined here, in the bottom layer, so that every area can name it without importing
 *   the shell (no import cycle between shell, runtime and components: components/layering.test.ts).
 * - `componentTexts`: the texts several components share (请选择, 请输入, 是 / 否 ...) plus every component's own,
 *   which arrive with its registration (`registerComponent({ texts })`, components/registration.ts) — so a
 *   component's texts are written once, beside its palette entry and settings. The spec's Chinese texts are
 *   verbatim (附件上传中，请稍等, spec 000 §9).
 * - `addComponentTexts(texts)`: adds a registration's texts; a key already defined (here, or by another
 *   registration) is refused with an error, so two components cannot fight over one key.
 * - `removeComponentTexts(keys)`: withdraws a registration's texts (`unregisterComponent`); i18next keeps
 *   serving them until a registration adds those keys again.
 * - `onComponentTexts(listener)`: tells `listener` about texts added later; the shell's i18n set-up
 *   (shell/i18n.ts) feeds them to i18next, because the registry loads lazily (with the schema runtime), after
 *   i18next was initialised for the login screen.
 */
export type Texts = Record<string, { zh: string; en: string }>;

export const componentTexts: Texts = {
  'cmp.select': { zh: '请选择', en: 'Please select' },
  'cmp.input': { zh: '请输入', en: 'Please enter' },
  'cmp.loading': { zh: '加载中', en: 'Loading' },
  'cmp.empty': { zh: '暂无数据', en: 'No data' },
  'cmp.yes': { zh: '是', en: 'Yes' },
  'cmp.no': { zh: '否', en: 'No' },
};

const listeners = new Set<(texts: Texts) => void>();

/**
 * Adds `texts` to `componentTexts` and tells the listeners about the new keys; throws on a key that is already
 * defined with other words. Defining a key again with the same words is allowed: a component the shell renders
 * directly (HelpTip on the public help centre, TodoCard in the notice popover, BpmnViewer on the process pages)
 * adds its texts when its module loads, before the registry — loaded lazily with the schema runtime — registers
 * it with the same texts.
 */
export function addComponentTexts(texts: Texts): void {
  const clash = Object.keys(texts).filter((k) => k in componentTexts && (componentTexts[k].zh !== texts[k].zh || componentTexts[k].en !== texts[k].en));
  if (clash.length) throw new Error(`component texts defined twice: ${clash.join(', ')}`);
  const fresh: Texts = Object.fromEntries(Object.entries(texts).filter(([k]) => !(k in componentTexts)));
  if (Object.keys(fresh).length === 0) return;
  Object.assign(componentTexts, fresh);
  for (const l of listeners) l(fresh);
}

/** Removes `keys` from `componentTexts`. */
export function removeComponentTexts(keys: string[]): void {
  for (const k of keys) delete componentTexts[k];
}

/** Calls `listener` with the texts of every later `addComponentTexts`; answers the unsubscribe function. */
export function onComponentTexts(listener: (texts: Texts) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
