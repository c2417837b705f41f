/**
 * Access and refresh tokens (DESIGN §6, §11; spec 000 §4 Session).
 *
 * - Access token: a JWT (HS256, jose) signed with the key generated into `data/secrets.json`. Claims follow
 *   BladeX: `tenant_id, user_id, dept_id, role_id` (comma list of all the user's roles), `role_name` (comma
 *   list of role aliases), `account, user_name, nick_name, real_name, client_id`, plus `jti` and `exp`.
 *   Lifetime: the client's `access_token_validity` seconds.
 * - Refresh token: 32 random bytes (base64url), stored only as a SHA-256 hash in `kc_refresh_token`; each is
 *   used once. Using it marks it used and issues a new one in the same family (rotation). Presenting a used
 *   or revoked token revokes the whole family (stolen-token detection) and is refused.
 * - Logout revokes the session's refresh family and the access token's `jti` (kept in `kc_revoked_jti` and
 *   in every node's memory through LISTEN/NOTIFY on channel `kc_revoked`).
 */
import crypto from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type pg from 'pg';
import type { Db } from '../db/index.js';
import { sql } from '../db/index.js';

export interface TokenClaims {
  tenant_id: string;
  user_id: string;
  dept_id: string;
  role_id: string;
  role_name: string;
  account: string;
  user_name: string;
  nick_name: string;
  real_name: string;
  client_id: string;
  jti: string;
  exp: number;
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

  /** Signs an access token valid for `seconds`; returns the token and its jti. */
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

  /** Creates a refresh token in `family` (a new family when omitted) valid for `seconds`. */
  async issueRefresh(
    o: { tenantId: string; userId: string; clientId: string; accessJti: string; family?: string },
    seconds: number,
  ): Promise<string> {
    const token = crypto.randomBytes(32).toString('base64url');
    await this.db
      .insertInto('kc_refresh_token')
      .values({
        token_hash: sha256(token),
        family: o.family ?? crypto.randomUUID(),
        tenant_id: o.tenantId,
        user_id: o.userId,
        client_id: o.clientId,
        access_jti: o.accessJti,
        expires_at: sql`now() + make_interval(secs => ${seconds})`,
      })
      .execute();
    return token;
  }

  /**
   * Consumes a refresh token: marks it used and answers its row, or null when it is unknown, expired, for
   * another client or already used (in which case its whole family is revoked).
   */
  async consumeRefresh(token: string, clientId: string): Promise<{ family: string; tenantId: string; userId: string } | null> {
    const h = sha256(token);
    const used = await sql<{ family: string; tenant_id: string; user_id: string }>`
      UPDATE kc_refresh_token SET used_at = now()
       WHERE token_hash = ${h} AND used_at IS NULL AND NOT revoked AND expires_at > now() AND client_id = ${clientId}
       RETURNING family, tenant_id, user_id`.execute(this.db);
    if (used.rows.length === 1) {
      const r = used.rows[0];
      return { family: r.family, tenantId: r.tenant_id, userId: r.user_id };
    }
    // replay of a used token: revoke the family it belongs to
    await sql`UPDATE kc_refresh_token SET revoked = true WHERE family = (SELECT family FROM kc_refresh_token WHERE token_hash = ${h})`.execute(this.db);
    return null;
  }

  /** Logout: revokes the refresh family issued with access token `jti`, and the jti itself until `exp`. */
  async revokeSession(jti: string, exp: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await sql`UPDATE kc_refresh_token SET revoked = true WHERE family IN (SELECT family FROM kc_refresh_token WHERE access_jti = ${jti})`.execute(trx);
      await sql`INSERT INTO kc_revoked_jti (jti, expires_at) VALUES (${jti}, to_timestamp(${exp})) ON CONFLICT DO NOTHING`.execute(trx);
      await sql`SELECT pg_notify('kc_revoked', ${`${jti}:${exp}`})`.execute(trx);
    });
    this.revoked.set(jti, exp);
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

export function sha256(s: string): string {
  return crypto.createHash('sha256').update(s).digest('hex');
}
