/**
 * Delivers the queued messages of `kc_outbox` (DESIGN §8 'Messages out'; issue 11: a workflow step's SMS and
 * e-mail go out after its transaction committed, never from inside it).
 *
 * `Outbox.queue` (core/outbox.ts) stores a message as status 0 in the caller's transaction and sends the
 * `kc_outbox` notification there; PostgreSQL delivers a notification only when its transaction commits, so a
 * rolled-back step leaves neither the row nor the wake-up. Every node's dispatcher listens; on a wake-up (and
 * every `sweepMs`, 30 s, for a notification a node missed while it started) it runs `deliverPending`:
 *
 * 1. claims up to `batch` (50) queued rows, oldest first, `FOR UPDATE SKIP LOCKED` → status 3 (being delivered)
 *    in one short transaction: two nodes never claim the same row, and no lock is held during a gateway call;
 * 2. hands each to its channel's provider (`sms` → the configured SMS provider, `email` → the e-mail provider)
 *    and writes the outcome: 1 delivered (or stored, for the built-in `outbox` provider), 2 failed with the
 *    gateway's reason in `error` (no retry: the administrator reads it in 消息发件箱);
 * 3. repeats while a batch came back full.
 * A row left at status 3 by a node that died mid-delivery goes back to 0 after `staleMinutes` (10) and is
 * delivered again (at least once: a gateway that accepted it just before the crash may get it twice).
 *
 * Runs are serialised per node (a wake-up during a run schedules one more run). Errors of the database are
 * logged and retried at the next wake-up or sweep; they never reach a request.
 */
import { sql, type Db } from './db/index.js';
import { CHANNEL, type Channels } from './channels.js';
import { outboxProvider, type MessageProvider, type OutMessage } from './outbox.js';

export interface DispatcherOptions {
  sms?: MessageProvider;
  email?: MessageProvider;
  /** Rows claimed per transaction (default 50). */
  batch?: number;
  /** Milliseconds between sweeps (default 30,000). */
  sweepMs?: number;
  /** Minutes after which a row still `being delivered` is queued again (default 10). */
  staleMinutes?: number;
  log?: (line: string) => void;
}

interface Claimed {
  id: string;
  tenant_id: string;
  channel: string;
  recipient: string;
  subject: string | null;
  content: string;
}

export class OutboxDispatcher {
  private readonly sms: MessageProvider;
  private readonly email: MessageProvider;
  private readonly batch: number;
  private readonly staleMinutes: number;
  private readonly log: (line: string) => void;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly opts: DispatcherOptions = {},
  ) {
    this.sms = opts.sms ?? outboxProvider;
    this.email = opts.email ?? outboxProvider;
    this.batch = opts.batch ?? 50;
    this.staleMinutes = opts.staleMinutes ?? 10;
    this.log = opts.log ?? ((l) => console.error(l));
  }

  /** Listens for `kc_outbox` on `channels`, delivers what is already queued, and sweeps every `sweepMs`. */
  async start(channels: Channels): Promise<void> {
    await channels.subscribe(CHANNEL.outbox, () => this.kick());
    this.timer = setInterval(() => this.kick(), this.opts.sweepMs ?? 30_000);
    this.timer.unref();
    this.kick();
  }

  /** Stops sweeping and waits for a run in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Schedules a run (one at a time per node; a kick during a run makes one more). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.deliverPending()
      .catch((e: unknown) => {
        this.log(`[outbox] delivery run failed: ${(e as Error).message}`);
        return 0;
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Waits until no run is in progress (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Delivers every queued message (see the module comment); answers how many were handed to a provider. */
  async deliverPending(): Promise<number> {
    await sql`UPDATE kc_outbox SET status = 0 WHERE status = 3 AND update_time < now() - make_interval(mins => ${this.staleMinutes})`.execute(this.db);
    let total = 0;
    for (;;) {
      const rows = (await sql<Claimed>`
        UPDATE kc_outbox SET status = 3, update_time = now()
         WHERE id IN (SELECT id FROM kc_outbox WHERE status = 0 ORDER BY id LIMIT ${this.batch} FOR UPDATE SKIP LOCKED)
        RETURNING id::text AS id, tenant_id, channel, recipient, subject, content`.execute(this.db)).rows;
      for (const r of rows) await this.deliverOne(r);
      total += rows.length;
      if (rows.length < this.batch || this.stopped) return total;
    }
  }

  private async deliverOne(r: Claimed): Promise<void> {
    const provider = r.channel === 'sms' ? this.sms : this.email;
    const m: OutMessage = { tenantId: r.tenant_id, channel: r.channel === 'sms' ? 'sms' : 'email', recipient: r.recipient, subject: r.subject ?? undefined, content: r.content };
    let error: string | null = null;
    try {
      await provider.deliver(m);
    } catch (e) {
      error = (e instanceof Error ? e.message : String(e)).slice(0, 500);
    }
    await sql`UPDATE kc_outbox SET status = ${error ? 2 : 1}, error = ${error}, provider = ${provider.name}, update_time = now() WHERE id = ${r.id}::bigint`.execute(this.db);
  }
}
