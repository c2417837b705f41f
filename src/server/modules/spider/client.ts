/**
 * Crawl nodes (`spider/client`, spec 002 §7 "spider/client: list"; §2 "client list"; issue 16 "clients: the
 * nodes that run crawls, with their load"). This platform's crawl nodes are its server processes: each one's
 * pg-boss worker runs `spider-crawl` jobs (crawl.ts). Every node keeps, in `spider_client`
 * (schemas/spider/client.json, a read-only resource read through the generic list / detail), one row per live
 * tenant, refreshed every 15 s and whenever a crawl starts or ends on it:
 * `nodeId` (host:pid:instance), `host`, `pid`, `cpus`, `loadAvg` (os.loadavg 1 min), `memoryMb` (the
 * process's resident set), `startTime`, `lastSeen`, and the tenant's crawls running on this node
 * (`runningCrawls`, `runningTasks` = their names joined by '、'). A tenant sees its own rows only (the
 * resource's tenant scope), so another tenant's crawls are never shown. Rows of a node silent for 2 minutes
 * are removed by any live node.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import { sql, type Db } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';

type Row = Record<string, any>;

export const HEARTBEAT_MS = 15_000;

/** This node's register of running crawls and its heartbeat. */
export class CrawlNode {
  readonly nodeId = `${os.hostname()}:${process.pid}:${crypto.randomBytes(2).toString('hex')}`;
  private readonly started = new Date();
  private readonly running = new Map<string, { tenantId: string; name: string }>();
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> = Promise.resolve();

  constructor(private readonly db: Db, private readonly log: (e: unknown) => void) {}

  start(): void {
    this.beat();
    this.timer = setInterval(() => this.beat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beating;
    await sql`DELETE FROM spider_client WHERE node_id = ${this.nodeId}`.execute(this.db).catch(() => undefined);
  }

  /** Runs `fn` (a crawl of task `taskId`) registered as running on this node. */
  async track<T>(taskId: string, tenantId: string, fn: () => Promise<T>): Promise<T> {
    const r = await sql<Row>`SELECT name FROM spider_task WHERE id = ${taskId}::bigint AND tenant_id = ${tenantId}`.execute(this.db).catch(() => ({ rows: [] as Row[] }));
    this.running.set(taskId, { tenantId, name: String(r.rows[0]?.name ?? taskId) });
    this.beat();
    try {
      return await fn();
    } finally {
      this.running.delete(taskId);
      this.beat();
    }
  }

  /** Queues one refresh of this node's rows (refreshes never overlap). */
  beat(): Promise<void> {
    this.beating = this.beating.then(() => this.write()).catch(this.log);
    return this.beating;
  }

  private async write(): Promise<void> {
    const tenants = (await sql<Row>`SELECT tenant_id FROM blade_tenant WHERE is_deleted = 0`.execute(this.db)).rows.map((r) => String(r.tenant_id));
    const load = Math.round(os.loadavg()[0] * 100) / 100;
    const memoryMb = Math.round(process.memoryUsage().rss / 1048576);
    for (const tenantId of tenants) {
      const mine = [...this.running.values()].filter((x) => x.tenantId === tenantId).map((x) => x.name);
      const names = mine.join('、').slice(0, 2000);
      const u = await sql`UPDATE spider_client SET load_avg = ${load}, memory_mb = ${memoryMb}, running_crawls = ${mine.length}, running_tasks = ${names}, last_seen = now(), update_time = now()
          WHERE node_id = ${this.nodeId} AND tenant_id = ${tenantId}`.execute(this.db);
      if (Number(u.numAffectedRows ?? 0)) continue;
      await sql`INSERT INTO spider_client (id, tenant_id, node_id, host, pid, cpus, load_avg, memory_mb, running_crawls, running_tasks, start_time, last_seen, create_time, update_time, status, is_deleted)
          VALUES (${nextId()}::bigint, ${tenantId}, ${this.nodeId}, ${os.hostname().slice(0, 200)}, ${process.pid}, ${os.cpus().length}, ${load}, ${memoryMb}, ${mine.length}, ${names},
                  ${this.started}, now(), now(), now(), 1, 0)`.execute(this.db);
    }
    await sql`DELETE FROM spider_client WHERE last_seen < now() - interval '2 minutes'`.execute(this.db);
  }
}
