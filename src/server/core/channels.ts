/**
 * The LISTEN/NOTIFY channels every API node shares (DESIGN §12: stateless nodes, caches invalidated through
 * PostgreSQL), registered in one place:
 *
 * | channel      | payload                          | sent when                                  | listeners drop / reload |
 * | ------------ | -------------------------------- | ------------------------------------------ | ----------------------- |
 * | `kc_cache`   | `count:<table>`                  | a table changed (ResourceEngine.changed;   | the table's list counts,|
 * |              |                                  | search_document: its statement trigger)    | search pages that read it|
 * |              | `org:<tenantId>`                 | departments of a tenant changed            | OrgCache of the tenant  |
 * |              | `grants`                         | role grants or scopes changed              | GrantCache              |
 * | `kc_revoked` | `<jti>:<exp epoch s>`            | an access token is revoked (logout, replay)| TokenService's list     |
 * | `kc_schema`  | `<resource name>`                | a schema version is published or rolled back| SchemaStore.reload     |
 *
 * `Channels` owns the kernel's one dedicated LISTEN connection: `subscribe(channel, handler)` LISTENs once per
 * channel and hands every payload of it to its handlers (a throwing handler is logged and does not stop the
 * others). `notify(db, channel, payload)` sends one, inside the caller's transaction when `db` is one
 * (PostgreSQL delivers it on commit, never for a rolled-back change).
 */
import type pg from 'pg';
import { sql, type Db } from './db/index.js';

export const CHANNEL = {
  /** Cache invalidation: `count:<table>`, `org:<tenantId>`, `grants`. */
  cache: 'kc_cache',
  /** A revoked access token: `<jti>:<exp>`. */
  revoked: 'kc_revoked',
  /** A published or rolled-back schema: `<name>`. */
  schema: 'kc_schema',
  /** Messages queued in `kc_outbox` (core/outbox-dispatch.ts): sent inside the queuing transaction, so it
   *  arrives only once that transaction committed; the payload is empty. */
  outbox: 'kc_outbox',
} as const;

export type ChannelName = (typeof CHANNEL)[keyof typeof CHANNEL];
type Handler = (payload: string) => void;

export class Channels {
  private readonly handlers = new Map<ChannelName, Handler[]>();

  constructor(
    /** The dedicated connection that LISTENs (not a pooled one: a pooled connection is shared). */
    readonly listener: pg.Client,
    private readonly log: (line: string) => void = (l) => console.error(l),
  ) {
    listener.on('notification', (n) => {
      for (const h of this.handlers.get(n.channel as ChannelName) ?? []) {
        try {
          h(n.payload ?? '');
        } catch (e) {
          this.log(`[channels] a ${n.channel} handler failed: ${(e as Error).message}`);
        }
      }
    });
  }

  /** Calls `handler` with the payload of every notification on `channel` (LISTENs on first use). */
  async subscribe(channel: ChannelName, handler: Handler): Promise<void> {
    const list = this.handlers.get(channel);
    if (list) {
      list.push(handler);
      return;
    }
    this.handlers.set(channel, [handler]);
    await this.listener.query(`LISTEN ${channel}`);
  }
}

/** Sends `payload` on `channel` through `db` (a transaction: delivered on its commit). */
export async function notify(db: Db, channel: ChannelName, payload: string): Promise<void> {
  await sql`SELECT pg_notify(${channel}, ${payload})`.execute(db);
}
