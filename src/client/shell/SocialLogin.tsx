/**
 * Social sign-in on the login page (spec 000 §2.6 'by a social source', §2.7, §4 Session, §7 social grant;
 * server: src/server/core/auth/social-routes.ts).
 *
 * - `SocialButtons`: the providers an administrator configured for the tenant
 *   (`GET /api/blade-auth/oauth/social-sources?tenantId=` → `[{source, name}]`), one button each under
 *   '其他登录方式'; nothing when there are none. A click remembers the tenant in the session and goes to
 *   `/api/blade-auth/oauth/render/{source}?tenantId=` (the server sends the browser on to the provider).
 * - `useSocialReturn`: the provider sends the browser back to `/login?social={source}&code&state&iss` (or
 *   `&error=` when the user refused). The hook reads that once, takes the query out of the address bar and
 *   asks for the social grant (`POST /api/blade-auth/oauth/token` grant_type=social, source, code, state, iss;
 *   the server checks it against its `kc_social` cookie). A token answer signs in; the third-party user info
 *   of a first-time identity (`user_id` empty or negative, spec 000 §2.7) opens the register dialog with its
 *   `oauth_id` and tenant; a refusal (注册申请已提交,请耐心等待管理员通过!, 第三方登录状态无效或已过期 …) is
 *   shown as the server words it.
 */
import React, { useEffect, useRef, useState } from 'react';
import { Button, Space } from 'antd';
import { LoginOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ApiError, get, request, storeToken, TOKEN_URL, type TokenAnswer } from '../runtime/api.js';
import { updateSession } from '../runtime/session.js';

export interface SocialSource {
  source: string;
  name: string;
}

/** What the social grant answers for a first-time identity (spec 000 §3.4 'third-party user info'). */
export interface ThirdPartyUser {
  user_id: string;
  oauth_id: string;
  tenant_id: string;
  source?: string;
  account?: string;
  user_name?: string;
  nick_name?: string;
}

/** The register dialog's data for a first-time identity. */
export interface SocialRegistration {
  oauthId: string;
  tenantId: string;
  name: string;
  account: string;
}

/** Where a provider's button goes: the server's start of the authorization. */
export function socialStartUrl(source: string, tenantId: string): string {
  return `/api/blade-auth/oauth/render/${encodeURIComponent(source)}?tenantId=${encodeURIComponent(tenantId)}`;
}

/** True when a social grant's answer is a first-time identity rather than a token (user id empty or negative). */
export function isThirdPartyUser(a: TokenAnswer | ThirdPartyUser): a is ThirdPartyUser {
  const id = String(a.user_id ?? '');
  return (id === '' || Number(id) < 0) && !('access_token' in a && a.access_token);
}

/** The buttons of the tenant's providers (see the module comment). `tenantId` may change as the user types. */
export function SocialButtons({ tenantId, navigate = (url) => window.location.assign(url) }: { tenantId: string; navigate?: (url: string) => void }) {
  const { t } = useTranslation();
  const [sources, setSources] = useState<SocialSource[]>([]);

  useEffect(() => {
    let gone = false;
    if (!tenantId.trim()) {
      setSources([]);
      return undefined;
    }
    // the tenant field is typed into: ask once it rests
    const timer = setTimeout(() => {
      get<SocialSource[]>('/api/blade-auth/oauth/social-sources', { tenantId: tenantId.trim() }, { silent: true })
        .then((list) => !gone && setSources(Array.isArray(list) ? list : []))
        .catch(() => !gone && setSources([]));
    }, 250);
    return () => {
      gone = true;
      clearTimeout(timer);
    };
  }, [tenantId]);

  if (!sources.length) return null;
  return (
    <div className="kc-login-social">
      {/* a divider with its text, as antd's plain Divider draws it (shell.css; not antd's: the login route's budget) */}
      <div className="kc-login-divider" role="separator">
        <span>{t('login.social')}</span>
      </div>
      <Space wrap style={{ width: '100%', justifyContent: 'center' }}>
        {sources.map((s) => (
          <Button
            key={s.source}
            icon={<LoginOutlined />}
            onClick={() => {
              updateSession({ tenantId: tenantId.trim() });
              navigate(socialStartUrl(s.source, tenantId.trim()));
            }}
          >
            {s.name}
          </Button>
        ))}
      </Space>
    </div>
  );
}

// a provider's answer is used once, also when React runs the effect twice
const handled = new Set<string>();

/**
 * Finishes a social sign-in when the page was opened by the provider's redirect (see the module comment).
 * `search`: the page's query string (default `window.location.search`); `onLoggedIn` runs after a token is
 * stored. Answers the error to show, the register dialog's data for a first-time identity, and `busy`.
 */
export function useSocialReturn(onLoggedIn: () => Promise<void>, search = window.location.search) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [registration, setRegistration] = useState<SocialRegistration | null>(null);
  const [busy, setBusy] = useState(false);
  const done = useRef(onLoggedIn);
  done.current = onLoggedIn;

  useEffect(() => {
    const p = new URLSearchParams(search);
    const source = p.get('social');
    if (!source) return;
    const once = `${source}:${p.get('state') ?? ''}:${p.get('code') ?? ''}`;
    if (handled.has(once)) return;
    handled.add(once);
    try {
      window.history.replaceState(window.history.state, '', window.location.pathname);
    } catch {
      // no history (tests): nothing to tidy
    }
    if (p.get('error') || !p.get('code')) {
      setError(t('login.socialCancelled'));
      return;
    }
    setBusy(true);
    const form: Record<string, string> = { grant_type: 'social', source, code: p.get('code') ?? '', state: p.get('state') ?? '' };
    if (p.get('iss')) form.iss = p.get('iss')!;
    request<TokenAnswer | ThirdPartyUser>('POST', TOKEN_URL, { form, raw: true, silent: true })
      .then(async (a) => {
        if (isThirdPartyUser(a)) {
          setRegistration({ oauthId: String(a.oauth_id), tenantId: String(a.tenant_id), name: a.nick_name ?? a.user_name ?? '', account: a.account ?? '' });
          return;
        }
        storeToken(a);
        await done.current();
      })
      .catch((e: unknown) => setError(e instanceof ApiError && e.message ? e.message : String(e)))
      .finally(() => setBusy(false));
  }, [search, t]);

  return { error, registration, busy, closeRegistration: () => setRegistration(null) };
}
