/**
 * The client session (spec 000 §3.1, §4): token and refresh token with their lifetime, the user, all roles and
 * the current one, language, theme, lock state and lock password, and the open tags. Kept in localStorage
 * (`kc-session`) so a reload keeps the user signed in; React reads it through `useSession()`.
 *
 * Changing the current role in another tab forces a reload of this one (spec 000 §2.6): the `storage` event
 * carries the other tab's session, and a different `currentRoleId` reloads the page.
 *
 * Where it lives: the session is the API client's state (token, tenant, role and language go into every
 * request; a 401 or a failed refresh clears it), so it is in the runtime, next to the client (runtime/api.ts).
 * The shell — login, lock, role choice, layout — reads and writes it from above; it was in shell/ before,
 * which made shell and runtime import each other (components/layering.test.ts forbids that now).
 */
import { useSyncExternalStore } from 'react';

export interface SessionRole {
  id: string;
  roleName: string;
  /** The English name (blade_role.role_name_en); the Chinese one stands in when there is none. */
  roleNameEn?: string | null;
  roleAlias: string;
}

/** A role's name in `lang`. */
export function roleLabel(r: Pick<SessionRole, 'roleName' | 'roleNameEn'>, lang: 'zh' | 'en'): string {
  return lang === 'en' && r.roleNameEn ? r.roleNameEn : r.roleName;
}

export interface SessionUser {
  userId: string;
  tenantId: string;
  account: string;
  realName: string;
  nickName: string;
  avatar: string;
  deptId: string;
}

export interface Tag {
  /** Route path, the tag's identity. */
  value: string;
  label: string;
  labelEn?: string;
}

export interface SessionState {
  token?: string;
  refreshToken?: string;
  /** Access token lifetime in seconds (expires_in). */
  expiresIn?: number;
  /** When the token was obtained, epoch ms. */
  tokenTime?: number;
  tenantId: string;
  user?: SessionUser;
  roles: SessionRole[];
  currentRoleId?: string;
  lang: 'zh' | 'en';
  themeColor: string;
  themeName: string;
  locked: boolean;
  lockPassword?: string;
  /** The page to return to after unlocking. */
  lockedFrom?: string;
  tags: Tag[];
}

const KEY = 'kc-session';
export const DEFAULT_THEME_COLOR = '#257e44';

const initial: SessionState = {
  tenantId: '000000',
  roles: [],
  lang: 'zh',
  themeColor: DEFAULT_THEME_COLOR,
  themeName: 'theme-white',
  locked: false,
  tags: [],
};

function load(): SessionState {
  try {
    const raw = typeof localStorage !== 'undefined' ? localStorage.getItem(KEY) : null;
    return raw ? { ...initial, ...(JSON.parse(raw) as Partial<SessionState>) } : { ...initial };
  } catch {
    return { ...initial };
  }
}

let state: SessionState = load();
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

/** The current session (a snapshot; do not mutate). */
export function getSession(): SessionState {
  return state;
}

/** Merges `patch` into the session and persists it. */
export function updateSession(patch: Partial<SessionState>): void {
  state = { ...state, ...patch };
  try {
    localStorage.setItem(KEY, JSON.stringify(state));
  } catch {
    /* private mode: the session lives in memory only */
  }
  emit();
}

/** Forgets the user (logout, forced logout): token, roles, tags and lock go; language and theme stay. */
export function clearSession(): void {
  updateSession({
    token: undefined,
    refreshToken: undefined,
    expiresIn: undefined,
    tokenTime: undefined,
    user: undefined,
    roles: [],
    currentRoleId: undefined,
    locked: false,
    lockPassword: undefined,
    lockedFrom: undefined,
    tags: [],
  });
}

/** Calls `l` after every change of the session; answers the unsubscribe function. */
export function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** React hook: the session, re-rendering on every change. */
export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, getSession, getSession);
}

/** The current role, or undefined before one is chosen. */
export function currentRole(s: SessionState = state): SessionRole | undefined {
  return s.roles.find((r) => r.id === s.currentRoleId);
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key !== KEY || !e.newValue) return;
    try {
      const other = JSON.parse(e.newValue) as SessionState;
      if (other.currentRoleId !== state.currentRoleId && state.currentRoleId) window.location.reload();
      else {
        state = { ...initial, ...other };
        emit();
      }
    } catch {
      /* ignore foreign values */
    }
  });
}
