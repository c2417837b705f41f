/**
 * Process timers that survive restarts (DESIGN §8 Workflow; issue 11 "timers (due dates, reminders) that
 * survive restarts"). bpmn-engine keeps a timer as a `setTimeout` inside the engine, which lives only while a
 * step runs (runtime.ts halts the engine after each step). So every timer a step leaves waiting — a BPMN
 * `timerEventDefinition` on a boundary event of a user task (due date: interrupting; reminder:
 * `cancelActivity="false"`) or on an intermediate catch event — is also a pg-boss job of the queue
 * `flow-timer`, sent with `startAfter` = the timer's expiry. pg-boss keeps it in PostgreSQL (schema `pgboss`),
 * so a timer set before a restart or a crash is fired by whichever node runs when it is due: the job's handler
 * resumes the instance from its saved state in one transaction (`FlowRuntime.fireTimer`), where the engine
 * re-arms the timer with the time left — none — and goes on.
 *
 * A job whose timer is gone (the task was completed first, the instance ended or was deleted) does nothing; a
 * failed firing (database down) is retried by pg-boss (3 times, 10 s apart).
 */
import type { PgBoss } from 'pg-boss';
import type { Db } from '../../core/db/index.js';
import type { DueTimer, FlowRuntime } from './runtime.js';

/** The pg-boss queue of process timers. */
export const TIMER_QUEUE = 'flow-timer';

export class FlowTimers {
  private ready: Promise<void> | null = null;

  constructor(
    private readonly boss: PgBoss,
    private readonly db: Db,
    private readonly runtime: FlowRuntime,
    private readonly log: (line: string) => void = () => undefined,
    /** Seconds between this node's polls of the queue. */
    private readonly pollSeconds = 1,
  ) {}

  /** Creates the queue (once per node). */
  private queue(): Promise<void> {
    if (!this.ready) {
      this.ready = this.boss.createQueue(TIMER_QUEUE, { retryLimit: 3, retryDelay: 10, expireInSeconds: 300, deleteAfterSeconds: 7 * 86400 });
      this.ready.catch(() => (this.ready = null));
    }
    return this.ready;
  }

  /** Starts this node's worker and makes the runtime schedule every new timer here. */
  async start(): Promise<void> {
    await this.queue();
    this.runtime.schedule = (t) => this.schedule(t);
    await this.boss.work<DueTimer>(TIMER_QUEUE, { batchSize: 8, pollingIntervalSeconds: this.pollSeconds }, async (jobs) => {
      for (const j of jobs) await this.fire(j.data);
    });
  }

  /** Sends the job that fires `t` at its expiry (at once when it has expired already). */
  async schedule(t: DueTimer): Promise<void> {
    await this.queue();
    const at = new Date(t.expireAt);
    await this.boss.send(TIMER_QUEUE, t, at.getTime() > Date.now() ? { startAfter: at } : {});
  }

  /** Fires `t` in its own transaction; answers whether the instance moved. Throws to have pg-boss retry. */
  async fire(t: DueTimer): Promise<boolean> {
    try {
      const res = await this.db.transaction().execute((trx) => this.runtime.fireTimer(trx, t));
      return res !== null;
    } catch (e) {
      this.log(`[flow] timer ${t.activityId} of instance ${t.instanceId} failed: ${(e as Error).message}`);
      throw e;
    }
  }
}
