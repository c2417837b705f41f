/**
 * Application tabs that fit the top bar (spec 000 §2.5: "When more than 8 exist, the first 7 show and the rest
 * go under a 'more applications' dropdown"; issue 18's screenshots: at 1280 px in English the tools pushed the
 * last tabs out of sight with no way to reach them).
 *
 * The spec's rule comes first; then, when the shown tabs are wider than the room the bar leaves them, the last
 * ones move into 更多应用 too, so every application stays reachable. Widths are estimated from the labels
 * (label-width.ts `textWidth`) plus the tab's padding and badge room; the room is measured (ResizeObserver).
 */
import { useEffect, useState, type RefObject } from 'react';
import { textWidth } from '../runtime/label-width.js';

/** Padding and badge room of one tab, px; the 更多应用 button, px. */
export const TAB_CHROME = 46;
export const MORE_WIDTH = 150;

/** How many of the tabs (estimated `widths`) fit in `room` px, leaving room for 更多应用 when some do not. */
export function fitCount(widths: number[], room: number): number {
  if (!(room > 0)) return widths.length;
  const total = widths.reduce((a, b) => a + b, 0);
  if (total <= room) return widths.length;
  let used = MORE_WIDTH;
  let n = 0;
  while (n < widths.length && used + widths[n] <= room) used += widths[n++];
  return Math.max(1, n);
}

/** The estimated width of a tab labelled `label`. */
export const tabWidth = (label: string) => textWidth(label) + TAB_CHROME;

/** The element's width, followed as it changes (0 before the first measure). */
export function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    setWidth(el.clientWidth);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}
