/**
 * The audit trail (DESIGN §11 'audit logs of who changed what'; issue 9 'everything an administrator does is
 * audited (who, when, what changed) in the usual log'): one function, `writeAudit`, that every audited write
 * goes through — the engine's generic submit and remove of schemas with `audit: true` (write.ts) and the
 * administration calls that are not generic (user grant, reset-password, setExpert, unlock, role grant,
 * top-menu grant, client secret, ban-IP unseal, version start …, src/server/modules/system/).
 *
 * A row of `blade_log_usual`:
 * - who: `user_id`, `create_by` (the account), `tenant_id` (the caller's tenant), and, when the call has a
 *   request, `remote_ip` and `user_agent`;
 * - when: `create_time` (the database's now(): the transaction's start);
 * - what: `log_level` 'audit', `log_id` `<resource>:<action>` (e.g. `system/user:grant`, at most 100
 *   characters), `method` and `request_uri` (the call), and `log_data`, JSON
 *   `{resource, title, titleEn, action, ids, changes?, ...detail}`: `ids` the records acted on, `changes`
 *   `{field: {from, to}}` for edits, `detail` what the call set (role ids granted …). Secrets (passwords,
 *   client secrets, `x-write-only` fields) never go into a row.
 *
 * Written in the caller's transaction (`db` = its `trx`), so an audit row exists exactly when the change
 * committed; a failed change leaves none.
 */
import type { FastifyRequest } from 'fastify';
import { CompiledQuery } from 'kysely';
import type { Db } from '../core/db/index.js';
import { nextId } from '../core/ids.js';
import type { AuthUser } from '../core/context.js';

/** What one audit row says (see the module comment). */
export interface AuditEntry {
  /** The resource (schema name, e.g. `system/user`) the call acts on. */
  resource: string;
  /** zh and en names of the resource, shown by the log screen. */
  title?: string;
  titleEn?: string;
  /** The action: add, edit, remove, grant, reset-password, unseal … */
  action: string;
  /** The records acted on. */
  ids: string[];
  /** Changed fields `{field: {from, to}}` (edits). */
  changes?: Record<string, unknown>;
  /** Anything else the call set (ids granted, flags …); never a secret. */
  detail?: Record<string, unknown>;
  /** The call: HTTP method (default POST) and path. */
  method?: string;
  requestUri: string;
}

/** The request facts an audit row keeps (IP and user agent), when there is a request. */
export function auditRequest(req: FastifyRequest | undefined): { ip: string | null; userAgent: string | null } {
  if (!req) return { ip: null, userAgent: null };
  return { ip: req.ip ?? null, userAgent: (req.headers['user-agent'] ?? '').slice(0, 1000) || null };
}

/** Writes one audit row for `user` (see the module comment) in `db` (the write's transaction). */
export async function writeAudit(db: Db, user: AuthUser, entry: AuditEntry, req?: FastifyRequest): Promise<void> {
  const { ip, userAgent } = auditRequest(req);
  const data = JSON.stringify({
    resource: entry.resource,
    title: entry.title,
    titleEn: entry.titleEn,
    action: entry.action,
    ids: entry.ids,
    ...(entry.changes ? { changes: entry.changes } : {}),
    ...(entry.detail ?? {}),
  });
  await db.executeQuery(
    CompiledQuery.raw(
      `INSERT INTO blade_log_usual (id, tenant_id, log_level, log_id, log_data, method, request_uri, remote_ip, user_agent, user_id, create_by)
       VALUES ($1::bigint, $2, 'audit', $3, $4, $5, $6, $7, $8, $9::bigint, $10)`,
      [
        nextId(),
        user.tenantId,
        `${entry.resource}:${entry.action}`.slice(0, 100),
        data,
        (entry.method ?? 'POST').slice(0, 10),
        entry.requestUri.slice(0, 2000),
        ip,
        userAgent,
        user.userId,
        user.account.slice(0, 64),
      ],
    ),
  );
}
