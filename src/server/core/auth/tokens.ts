/**
 * Access and refresh tokens (DESIGN §6, §11; spec 000 §4 Session).
 *
 * - Access token: a JWT (HS256, jose) signed with the key generated into `data/secrets.json`. Claims follow
 *   BladeX: `tenant_id, user_id, dept_id, role_id` (comma list of all the user's roles), `role_name` (comma
 *   list of role aliases), `account, user_name, nick_name, real_name, client_id`, plus `jti`, `iat` and `exp`
 *   (epoch seconds). Lifetime: the client's `access_token_validity` seconds.
 * - Refresh token: 32 random bytes (base64url), stored only as a SHA-256 hash in `kc_refresh_token`, beside
 *   the `jti` of the access token issued with it. Every token issued from one login shares a `family` (the
 *   session). Each refresh token is used once: using it marks it used and issues a new pair in the same
 *   family (rotation).
 * - Revoking a family (DESIGN §11) marks all its refresh tokens revoked and puts the `jti` of every access
 *   token issued in it into `kc_revoked_jti` (until that token would have expired), announced to every node
 *   through NOTIFY on channel `kc_revoked` (payload `<jti>:<exp>`, exp in epoch seconds) and kept in each
 *   node's memory, so `verifyAccess` refuses them at once everywhere. A family is revoked when:
 *   - a used or revoked refresh token is presented again (replay: the token was stolen, or the thief used it
 *     first), or one is presented by another client or for another tenant;
 *   - the session logs out (`revokeSession`, with the jti of the access token that asks).
 *   An expired refresh token is refused without revoking anything (an idle client, not an attack).
 * - How long a revoked jti is kept: until the later of the refresh token's expiry and the access token's
 *   (`create_time + accessSeconds`, the client's access lifetime; the refresh row is written right after the
 *   access token is signed, so this is never earlier than the token's `exp`).
 */
import crypto from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type pg from 'pg';
import type { Db } from '../db/index.js';
import { sql } from '../db/index.js';
import type { TokenAnswer } from '../../../shared/contract/envelope.js';

/**
 * The access token's claims: the identity fields of the token answer (shared/contract/envelope.ts, one copy of
 * their names) plus the client, the token id and its expiry (epoch seconds).
 */
export type TokenClaims = Pick<
  TokenAnswer,
  'tenant_id' | 'user_id' | 'dept_id' | 'role_id' | 'role_name' | 'account' | 'user_name' | 'nick_name' | 'real_name'
> & { client_id: string; jti: string; exp: number };

/** What `consumeRefresh` needs besides the token. */
export interface ConsumeOptions {
  /** The authenticated client (`blade_client.client_id`); a token of another client is refused (and its family revoked). */
  clientId: string;
  /** The tenant the request names; a token of another tenant is refused (and its family revoked). */
  tenantId: string;
  /** The client's access token lifetime in seconds: how long revoked jtis must be remembered. */
  accessSeconds: number;
  /**
   * Called with the token's user before the token is consumed; throwing (an `ApiError`: account locked or
   * disabled, DESIGN §11) refuses the refresh and leaves the token unused, so it works again once the account
   * does.
   */
  admit?: (userId: string) => Promise<void>;
}

export class TokenService {
  private readonly key: Uint8Array;
  private readonly revoked = new Map<string, number>(); // jti → expiry (epoch seconds)
  /**
   * Tokens already verified, so a busy client is not re-verified on every request (HMAC through WebCrypto
   * is an async job: a few per cent of a list request). Entries are dropped at expiry and checked against
   * the revocation list on every use; the cache holds at most 10,000 tokens.
   */
  private readonly verified = new Map<string, TokenClaims>();

  /** `jwtKeyBase64`: the HS256 key (base64, from `data/secrets.json`); `db`: where tokens and revocations live. */
  constructor(jwtKeyBase64: string, private readonly db: Db) {
    this.key = Buffer.from(jwtKeyBase64, 'base64');
  }

  /** Loads the revoked jtis that have not expired yet and listens for new ones on `listener` (a dedicated client). */
  async start(listener?: pg.Client): Promise<void> {
    const rows = await sql<{ jti: string; exp: number }>`SELECT jti, extract(epoch FROM expires_at)::int AS exp FROM kc_revoked_jti WHERE expires_at > now()`.execute(this.db);
    for (const r of rows.rows) this.revoked.set(r.jti, r.exp);
    if (listener) {
      listener.on('notification', (n) => {
        if (n.channel !== 'kc_revoked' || !n.payload) return;
        const [jti, exp] = n.payload.split(':');
        this.revoked.set(jti, Number(exp));
      });
      await listener.query('LISTEN kc_revoked');
    }
  }

  /** Signs an access token valid for `seconds`; returns the token and its jti (a UUID). */
  async signAccess(claims: Omit<TokenClaims, 'jti' | 'exp'>, seconds: number): Promise<{ token: string; jti: string }> {
    const jti = crypto.randomUUID();
    const token = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
      .sign(this.key);
    return { token, jti };
  }

  /** Verifies an access token; null when malformed, expired, forged or revoked. */
  async verifyAccess(token: string): Promise<TokenClaims | null> {
    const hit = this.verified.get(token);
    if (hit) {
      if (hit.exp > Date.now() / 1000 && !this.revoked.has(hit.jti)) return hit;
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const claims = payload as unknown as TokenClaims;
      if (!claims.jti || this.revoked.has(claims.jti)) return null;
      if (this.verified.size >= 10_000) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, claims);
      return claims;
    } catch {
      return null;
    }
  }

  /**
   * Creates a refresh token valid for `seconds`, stored with the jti of the access token issued with it.
   * Without `family` it starts a new family (a login). With one (a rotation) it is added only while that
   * family is not revoked; answers null otherwise (the family was revoked while this refresh ran).
   */
  async issueRefresh(
    o: { tenantId: string; userId: string; clientId: string; accessJti: string; family?: string },
    seconds: number,
  ): Promise<string | null> {
    const token = crypto.randomBytes(32).toString('base64url');
    const family = o.family ?? crypto.randomUUID();
    const r = await sql`
      INSERT INTO kc_refresh_token (token_hash, family, tenant_id, user_id, client_id, access_jti, expires_at)
      SELECT ${sha256(token)}, ${family}::uuid, ${o.tenantId}, ${o.userId}::bigint, ${o.clientId}, ${o.accessJti}::uuid,
             now() + make_interval(secs => ${seconds})
       WHERE NOT EXISTS (SELECT 1 FROM kc_refresh_token WHERE family = ${family}::uuid AND revoked)`.execute(this.db);
    return Number(r.numAffectedRows ?? 0) === 1 ? token : null;
  }

  /**
   * Consumes a refresh token (rotation, DESIGN §11): marks it used and answers its family, tenant and user; or
   * null when it is unknown, expired, used, revoked, or of another client or tenant. A used or revoked token,
   * or one of another client or tenant, revokes its whole family first (`revokeFamilies`). `o.admit` may refuse
   * the user (throws) before anything is consumed. Two requests racing with one token: one wins, the other is
   * a replay.
   */
  async consumeRefresh(token: string, o: ConsumeOptions): Promise<{ family: string; tenantId: string; userId: string } | null> {
    const h = sha256(token);
    const found = await sql<{ family: string; tenant_id: string; user_id: string; client_id: string; spent: boolean; live: boolean }>`
      SELECT family::text AS family, tenant_id, user_id::text AS user_id, client_id,
             (used_at IS NOT NULL OR revoked) AS spent, expires_at > now() AS live
        FROM kc_refresh_token WHERE token_hash = ${h}`.execute(this.db);
    const row = found.rows[0];
    if (!row) return null;
    if (row.spent || row.client_id !== o.clientId || row.tenant_id !== o.tenantId) {
      await this.revokeFamilies([row.family], o.accessSeconds);
      return null;
    }
    if (!row.live) return null;
    if (o.admit) await o.admit(row.user_id);
    const used = await sql`
      UPDATE kc_refresh_token SET used_at = now()
       WHERE token_hash = ${h} AND used_at IS NULL AND NOT revoked AND expires_at > now()`.execute(this.db);
    if (Number(used.numAffectedRows ?? 0) !== 1) {
      // used (or revoked) between the look-up and now: a concurrent use of the same token
      await this.revokeFamilies([row.family], o.accessSeconds);
      return null;
    }
    return { family: row.family, tenantId: row.tenant_id, userId: row.user_id };
  }

  /**
   * Logout (DESIGN §11): revokes the whole session of access token `jti` (expiring at `exp`, epoch seconds):
   * every refresh token of its family and every access token issued in it (`accessSeconds`: the client's
   * access lifetime), and `jti` itself (also when it has no family: a token signed without a refresh token).
   */
  async revokeSession(jti: string, exp: number, accessSeconds = 0): Promise<void> {
    const fam = await sql<{ family: string }>`SELECT DISTINCT family::text AS family FROM kc_refresh_token WHERE access_jti = ${jti}::uuid`.execute(this.db);
    await this.revokeFamilies(
      fam.rows.map((r) => r.family),
      accessSeconds,
      { jti, exp },
    );
  }

  /**
   * Revokes refresh families `families` (UUIDs): their refresh tokens are marked revoked, and the jti of every
   * access token issued in them (plus `extra`, when given) goes into `kc_revoked_jti` until it would have
   * expired (see the module header), is announced on NOTIFY `kc_revoked` and refused by this node at once.
   * A jti already revoked (a family revoked twice) is announced again only when its keeping is extended.
   * One statement, so the tokens, the jtis and the notifications commit together.
   */
  async revokeFamilies(families: string[], accessSeconds: number, extra?: { jti: string; exp: number }): Promise<void> {
    const r = await sql<{ jti: string; exp: number }>`
      WITH fam AS (
        UPDATE kc_refresh_token SET revoked = true
         WHERE family = ANY(${families}::uuid[])
         RETURNING access_jti, greatest(expires_at, create_time + make_interval(secs => ${accessSeconds})) AS until
      ), jtis AS (
        SELECT access_jti AS jti, until FROM fam WHERE access_jti IS NOT NULL
        UNION ALL
        SELECT ${extra?.jti ?? null}::uuid, to_timestamp(${extra?.exp ?? 0}) WHERE ${extra?.jti ?? null}::uuid IS NOT NULL
      ), ins AS (
        INSERT INTO kc_revoked_jti (jti, expires_at)
        SELECT jti, max(until) FROM jtis WHERE until > now() GROUP BY jti
        ON CONFLICT (jti) DO UPDATE SET expires_at = excluded.expires_at WHERE excluded.expires_at > kc_revoked_jti.expires_at
        RETURNING jti::text AS jti, ceil(extract(epoch FROM expires_at))::bigint AS exp
      )
      SELECT jti, exp::int AS exp, pg_notify('kc_revoked', jti || ':' || exp) FROM ins`.execute(this.db);
    for (const row of r.rows) this.revoked.set(row.jti, Number(row.exp));
  }

  /** Drops expired entries from memory and from the tables (called periodically). */
  async purgeExpired(): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    for (const [jti, exp] of this.revoked) if (exp < now) this.revoked.delete(jti);
    await sql`DELETE FROM kc_revoked_jti WHERE expires_at < now()`.execute(this.db);
    await sql`DELETE FROM kc_refresh_token WHERE expires_at < now() - interval '1 day'`.execute(this.db);
    await sql`DELETE FROM kc_captcha WHERE expires_at < now()`.execute(this.db);
  }
}

/** The SHA-256 of `s` as 64 hex digits (how refresh tokens are stored). */
export function sha256(s: string): string {
  return crypto.createHash('sha256').update(s).digest('hex');
}
