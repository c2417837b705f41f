/**
 * The menu layout variant (spec 000 §2.5 'A top-menu variant offers a home item plus top menu items'; issue 18
 * 'the top-menu variant … chosen like the themes, remembered per user'): `side` (default) — the current
 * application tab's menu in the left sidebar — or `top` — no sidebar; a menu bar under the header with a
 * 首页 item first and the tab's menu items beside it (sub-menus drop down). Chosen from the theme picker
 * (ScreenTools.tsx) and remembered per user on this browser (localStorage `kc-layout:{tenantId}:{userId}`),
 * as the theme is; the main layout reads it (`useLayoutVariant`).
 */
import { useSyncExternalStore } from 'react';

export const LAYOUT_VARIANTS = ['side', 'top'] as const;
export type LayoutVariant = (typeof LAYOUT_VARIANTS)[number];

const key = (tenantId: string, userId: string) => `kc-layout:${tenantId}:${userId}`;
const listeners = new Set<() => void>();
let current: { user: string; variant: LayoutVariant } = { user: '', variant: 'side' };

/** The variant user `userId` of `tenantId` chose last on this browser ('side' when none or unreadable). */
export function rememberedLayout(tenantId: string, userId: string): LayoutVariant {
  try {
    const v = localStorage.getItem(key(tenantId, userId));
    return (LAYOUT_VARIANTS as readonly string[]).includes(v ?? '') ? (v as LayoutVariant) : 'side';
  } catch {
    return 'side';
  }
}

/** Chooses `variant` for the user: remembered for them, applied at once. */
export function chooseLayout(tenantId: string, userId: string, variant: LayoutVariant): void {
  try {
    localStorage.setItem(key(tenantId, userId), variant);
  } catch {
    /* storage unavailable: applied for this page only */
  }
  current = { user: key(tenantId, userId), variant };
  listeners.forEach((l) => l());
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

/** The variant of the signed-in user (re-rendering when it is chosen); 'side' when signed out. */
export function useLayoutVariant(tenantId: string, userId: string | undefined): LayoutVariant {
  const chosen = useSyncExternalStore(subscribe, () => current);
  if (!userId) return 'side';
  return chosen.user === key(tenantId, userId) ? chosen.variant : rememberedLayout(tenantId, userId);
}
