/**
 * Social sign-in through OpenID Connect (spec 000 §2.6 'by a social source', §2.7, §7 social grant (source,
 * code, state); DESIGN §8 'Social login': `openid-client` against any provider an administrator configures).
 *
 * Providers are the tenant-scoped resource `system/oauthprovider` (schemas/system/oauthprovider.json, table
 * `blade_oauth_provider`): `source` (the name in the paths), `name`, `issuer`, `clientId`, `clientSecret`
 * (x-write-only: never answered; stored AES-256-GCM encrypted as `enc:v1:<iv>.<tag>.<data>` base64url, with a
 * key derived (HKDF-SHA256) from the server's generated secret, core/secrets.ts), `scopes`, `sort`, `enabled`.
 *
 * An authorization (authorization code flow with PKCE S256, `state` and `nonce`; OpenID Connect Core §3.1,
 * RFC 7636) keeps what the callback must check in an encrypted cookie (`kc_social`, HttpOnly, SameSite=Lax,
 * path /api/blade-auth/oauth, 10 minutes; JWE dir/A256GCM): state, nonce, the code verifier, tenant, source,
 * purpose (`login` or `bind`), the user binding (bind) and the redirect URI. Nothing is stored in the database
 * before the provider's answer has been verified (state, then openid-client's checks of the code exchange and
 * the ID token: issuer, audience, signature, nonce), so a forged or replayed callback leaves no trace.
 *
 * Plain-HTTP issuers are accepted only on loopback addresses (127.0.0.1, ::1, localhost): tests run a real
 * provider there; anywhere else the issuer must be HTTPS.
 */
import crypto from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';
import type * as oidc from 'openid-client';
import { loadOidc } from '../lazy-libs.js';
import { sql, type Db } from '../db/index.js';
import { ApiError } from '../envelope.js';

/** One configured provider, secret decrypted (never answered to a client). */
export interface SocialProvider {
  id: string;
  tenantId: string;
  source: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  updateTime: string;
}

/** What the callback needs to finish an authorization (the `kc_social` cookie's claims). */
export interface PendingAuthorization {
  state: string;
  nonce: string;
  verifier: string;
  tenantId: string;
  source: string;
  purpose: 'login' | 'bind';
  redirectUri: string;
  /** bind: the account the identity is bound to. */
  userId?: string;
}

/** The verified identity of a finished authorization (ID token claims, completed by userinfo). */
export interface SocialIdentity {
  sub: string;
  username?: string;
  nickname?: string;
  email?: string;
  avatar?: string;
}

export const SOCIAL_MESSAGES = {
  sourceUnknown: { zh: '第三方登录源不存在或未启用', en: 'This sign-in provider does not exist or is disabled' },
  stateInvalid: { zh: '第三方登录状态无效或已过期,请重新登录', en: 'The third-party sign-in is invalid or has expired: please sign in again' },
  providerFailed: { zh: '第三方登录验证失败,请重新登录', en: 'The provider’s answer could not be verified: please sign in again' },
  providerUnreachable: { zh: '无法连接第三方登录服务,请稍后再试', en: 'The sign-in provider cannot be reached: please try again later' },
  insecureIssuer: { zh: '签发者地址须使用 https', en: 'The issuer must use https' },
} as const;

export const SOCIAL_COOKIE = 'kc_social';
export const SOCIAL_COOKIE_PATH = '/api/blade-auth/oauth';
const PENDING_SECONDS = 600;

/** The AES-256 key of purpose `label`, derived from the server's secret `base` (base64). */
export function deriveKey(base: string, label: string): Uint8Array {
  return new Uint8Array(crypto.hkdfSync('sha256', Buffer.from(base, 'base64'), Buffer.alloc(0), `kechuang:${label}`, 32));
}

/** Encrypts a provider secret for storage (`enc:v1:…`, see the module comment). */
export function sealSecret(key: Uint8Array, clear: string): string {
  const iv = crypto.randomBytes(12);
  const c = crypto.createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([c.update(clear, 'utf8'), c.final()]);
  return `enc:v1:${iv.toString('base64url')}.${c.getAuthTag().toString('base64url')}.${data.toString('base64url')}`;
}

/** Decrypts what `sealSecret` stored; '' for an empty or unreadable value (a public client, or a changed key). */
export function openSecret(key: Uint8Array, stored: string | null): string {
  const m = /^enc:v1:([\w-]+)\.([\w-]+)\.([\w-]*)$/.exec(stored ?? '');
  if (!m) return '';
  try {
    const d = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(m[1], 'base64url'));
    d.setAuthTag(Buffer.from(m[2], 'base64url'));
    return Buffer.concat([d.update(Buffer.from(m[3], 'base64url')), d.final()]).toString('utf8');
  } catch {
    return '';
  }
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The OpenID Connect side of social sign-in: providers by tenant and source, discovery (cached per provider
 * version for 10 minutes), authorization URLs and the verification of a callback.
 */
export class SocialLogin {
  private readonly configs = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();
  private readonly secretKey: Uint8Array;
  private readonly cookieKey: Uint8Array;

  /** `db`: where providers live; `baseSecret`: the server's generated secret (base64) the keys derive from. */
  constructor(private readonly db: Db, baseSecret: string) {
    this.secretKey = deriveKey(baseSecret, 'oauth-provider-secret');
    this.cookieKey = deriveKey(baseSecret, 'oauth-pending');
  }

  /** Encrypts a provider's client secret for storage. */
  seal(clear: string): string {
    return sealSecret(this.secretKey, clear);
  }

  /** The enabled providers of `tenantId`, in order: `{source, name}` only (what the login page shows). */
  async sources(tenantId: string): Promise<Array<{ source: string; name: string }>> {
    const r = await sql<{ source: string; name: string }>`
      SELECT source, name FROM blade_oauth_provider WHERE tenant_id = ${tenantId} AND is_deleted = 0 AND enabled
       ORDER BY sort, id`.execute(this.db);
    return r.rows;
  }

  /** The enabled provider `source` of `tenantId`; 400 第三方登录源不存在或未启用 when there is none. */
  async provider(tenantId: string, source: string): Promise<SocialProvider> {
    const r = await sql<Omit<SocialProvider, 'clientSecret'> & { client_secret: string | null }>`
      SELECT id::text AS id, tenant_id AS "tenantId", source, name, issuer, client_id AS "clientId", client_secret,
             coalesce(nullif(trim(scopes), ''), 'openid') AS scopes, coalesce(update_time, create_time)::text AS "updateTime"
        FROM blade_oauth_provider WHERE tenant_id = ${tenantId} AND source = ${source} AND is_deleted = 0 AND enabled
       ORDER BY sort, id LIMIT 1`.execute(this.db);
    const row = r.rows[0];
    if (!row) throw new ApiError(400, SOCIAL_MESSAGES.sourceUnknown);
    const { client_secret, ...rest } = row;
    return { ...rest, clientSecret: openSecret(this.secretKey, client_secret) };
  }

  /** The provider's discovered configuration (10-minute cache per provider version). */
  private config(p: SocialProvider): Promise<oidc.Configuration> {
    const key = `${p.id}:${p.updateTime}`;
    const hit = this.configs.get(key);
    if (hit && Date.now() - hit.at < 600_000) return hit.config;
    let url: URL;
    try {
      url = new URL(p.issuer);
    } catch {
      return Promise.reject(new ApiError(400, SOCIAL_MESSAGES.providerUnreachable));
    }
    const insecure = url.protocol === 'http:';
    if (insecure && !LOOPBACK.has(url.hostname)) return Promise.reject(new ApiError(400, SOCIAL_MESSAGES.insecureIssuer));
    const config = loadOidc()
      .then((lib) =>
        lib.discovery(url, p.clientId, undefined, p.clientSecret ? lib.ClientSecretBasic(p.clientSecret) : lib.None(), {
          execute: insecure ? [lib.allowInsecureRequests] : [],
          timeout: 10,
        }),
      )
      .catch(() => {
        this.configs.delete(key);
        throw new ApiError(400, SOCIAL_MESSAGES.providerUnreachable);
      });
    if (this.configs.size > 200) this.configs.clear();
    this.configs.set(key, { at: Date.now(), config });
    return config;
  }

  /**
   * Starts an authorization with provider `p` for `purpose`: answers the provider's authorization URL and the
   * `kc_social` cookie value (see the module comment) to set on the browser.
   */
  async start(p: SocialProvider, o: { purpose: 'login' | 'bind'; redirectUri: string; userId?: string }): Promise<{ url: string; cookie: string }> {
    const config = await this.config(p);
    const lib = await loadOidc();
    const pending: PendingAuthorization = {
      state: lib.randomState(),
      nonce: lib.randomNonce(),
      verifier: lib.randomPKCECodeVerifier(),
      tenantId: p.tenantId,
      source: p.source,
      purpose: o.purpose,
      redirectUri: o.redirectUri,
      ...(o.userId ? { userId: o.userId } : {}),
    };
    const url = lib.buildAuthorizationUrl(config, {
      redirect_uri: o.redirectUri,
      scope: p.scopes.split(/\s+/).includes('openid') ? p.scopes : `openid ${p.scopes}`,
      response_type: 'code',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await lib.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, cookie: await this.sealPending(pending) };
  }

  private async sealPending(p: PendingAuthorization): Promise<string> {
    return new EncryptJWT({ ...p }).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).setIssuedAt().setExpirationTime(`${PENDING_SECONDS}s`).encrypt(this.cookieKey);
  }

  /** The pending authorization of cookie value `cookie`, or null when it is missing, forged or expired. */
  async pending(cookie: string | undefined): Promise<PendingAuthorization | null> {
    if (!cookie) return null;
    try {
      const { payload } = await jwtDecrypt(cookie, this.cookieKey);
      const p = payload as unknown as PendingAuthorization;
      return typeof p.state === 'string' && typeof p.verifier === 'string' && typeof p.nonce === 'string' ? p : null;
    } catch {
      return null;
    }
  }

  /**
   * Finishes `pending` with the provider's answer `params` (code, state, iss): the state must be the pending
   * one (400 第三方登录状态无效或已过期 otherwise), then openid-client exchanges the code (PKCE) and verifies the
   * ID token (issuer, audience, signature, expiry, nonce); any failure is 400 第三方登录验证失败. Answers the
   * identity (the userinfo endpoint completes the claims when it answers).
   */
  async finish(pending: PendingAuthorization, params: { code?: string; state?: string; iss?: string }): Promise<SocialIdentity> {
    const good = (s: string | undefined) => typeof s === 'string' && s.length > 0 && s.length <= 2000;
    if (!good(params.state) || !good(params.code) || !safeEqual(params.state!, pending.state)) throw new ApiError(400, SOCIAL_MESSAGES.stateInvalid);
    const p = await this.provider(pending.tenantId, pending.source);
    const config = await this.config(p);
    const lib = await loadOidc();
    const current = new URL(pending.redirectUri);
    current.searchParams.set('code', params.code!);
    current.searchParams.set('state', params.state!);
    if (good(params.iss)) current.searchParams.set('iss', params.iss!);
    let claims: Record<string, unknown>;
    try {
      const tokens = await lib.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = { ...(tokens.claims() ?? {}) };
      try {
        Object.assign(claims, await lib.fetchUserInfo(config, tokens.access_token, String(claims.sub)), { sub: claims.sub });
      } catch {
        // the ID token is enough; userinfo only adds names
      }
    } catch (e) {
      void e; // the reason (a bad nonce, a used code …) is the provider's business, not the user's
      throw new ApiError(400, SOCIAL_MESSAGES.providerFailed);
    }
    const s = (k: string) => (typeof claims[k] === 'string' ? (claims[k] as string).slice(0, 255) : undefined);
    if (!s('sub')) throw new ApiError(400, SOCIAL_MESSAGES.providerFailed);
    return { sub: s('sub')!, username: s('preferred_username'), nickname: s('name') ?? s('nickname'), email: s('email'), avatar: s('picture') };
  }
}

function safeEqual(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb);
}

/** The value of cookie `name` in a `Cookie` header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}

/** A `Set-Cookie` value: HttpOnly, SameSite=Lax, `Secure` over HTTPS; `value` null clears the cookie. */
export function cookieHeader(name: string, value: string | null, o: { path: string; maxAge: number; secure: boolean }): string {
  const v = value === null ? '' : encodeURIComponent(value);
  return `${name}=${v}; Path=${o.path}; Max-Age=${value === null ? 0 : o.maxAge}; HttpOnly; SameSite=Lax${o.secure ? '; Secure' : ''}`;
}

export const PENDING_COOKIE_SECONDS = PENDING_SECONDS;
