/**
 * The sign-in providers an administrator configures (issue 10 'social login'; spec 000 §2.6, §7 social grant;
 * DESIGN §8 'Social login'): the generic tenant-scoped resource `system/oauthprovider`
 * (schemas/system/oauthprovider.json, `/api/blade-system/oauth-provider` list, page, detail, submit, remove;
 * menu `oauthprovider` under 系统管理, administrators). What JSON cannot say lives here, as hooks:
 *
 * - `source` is unique among the tenant's live providers (400 登录源编码已存在, field `source`);
 * - a new provider's `clientSecret` is stored encrypted (core/auth/social.ts `sealSecret`; empty: a public client
 *   using PKCE only). The field is `x-write-only`, so no read answers it and an edit leaves it as stored.
 *
 * Signing in and binding with a provider: src/server/core/auth/social-routes.ts.
 */
import { sql } from '../../core/db/index.js';
import { ValidationError } from '../../core/envelope.js';
import { loadOrCreateSecrets } from '../../core/secrets.js';
import { deriveKey, sealSecret } from '../../core/auth/social.js';
import type { Kernel } from '../../app.js';

export const OAUTH_PROVIDER_RESOURCE = 'system/oauthprovider';

export const OAUTH_PROVIDER_MESSAGES = {
  sourceTaken: { zh: '登录源编码已存在', en: 'This source code is already used' },
} as const;

/** Registers the hooks of the module comment on `k.engine`. */
export function registerOauthProviderHooks(k: Kernel): void {
  const key = deriveKey(loadOrCreateSecrets(k.config.dataDir).jwtKey, 'oauth-provider-secret');
  k.engine.hooks(OAUTH_PROVIDER_RESOURCE, {
    async beforeSubmit({ isNew, record, existing, user, trx }) {
      const taken = await sql`SELECT 1 FROM blade_oauth_provider WHERE tenant_id = ${user.tenantId} AND source = ${String(record.source)} AND is_deleted = 0
                                 AND id <> ${existing ? String(existing.id) : '0'}::bigint`.execute(trx);
      if (taken.rows.length) throw new ValidationError([{ field: 'source', message: OAUTH_PROVIDER_MESSAGES.sourceTaken.zh, messageEn: OAUTH_PROVIDER_MESSAGES.sourceTaken.en }]);
      if (!isNew) return;
      const secret = typeof record.clientSecret === 'string' ? record.clientSecret : '';
      record.clientSecret = secret ? sealSecret(key, secret) : null;
    },
  });
}
