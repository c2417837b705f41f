/**
 * Ending a user's sessions (DESIGN §11; issue 9 'reset password revokes the user's sessions; so does disabling
 * or removing a user'): every refresh family of the users that is still live is revoked through the token
 * service (src/server/core/auth/tokens.ts `revokeFamilies`): its refresh tokens are marked revoked and the jti
 * of every access token issued in it is refused from then on, on every node (NOTIFY kc_revoked). The user's
 * next request answers 401 and the shell logs out; a refresh answers 400 刷新令牌无效或已使用.
 *
 * How long revoked jtis are kept: the longest access lifetime of any client (`blade_client`), so that no access
 * token of the families outlives its revocation whichever client issued it.
 */
import { sql, type Db } from '../../core/db/index.js';
import type { TokenService } from '../../core/auth/tokens.js';

/** Revokes every live session (refresh family and its access tokens) of `userIds`; answers the families revoked. */
export async function revokeUserSessions(tokens: TokenService, db: Db, userIds: string[]): Promise<number> {
  if (userIds.length === 0) return 0;
  const fams = await sql<{ family: string }>`
    SELECT DISTINCT family::text AS family FROM kc_refresh_token
     WHERE user_id = ANY(${userIds}::bigint[]) AND NOT revoked AND expires_at > now()`.execute(db);
  if (fams.rows.length === 0) return 0;
  const longest = await sql<{ s: number }>`SELECT COALESCE(max(access_token_validity), 0)::int AS s FROM blade_client`.execute(db);
  await tokens.revokeFamilies(fams.rows.map((f) => f.family), longest.rows[0].s);
  return fams.rows.length;
}
