/**
 * Queued messages leave after their transaction committed (issue 11: a workflow step's SMS / e-mail are not sent
 * from inside the step's transaction; src/server/core/outbox.ts `queue`, src/server/core/outbox-dispatch.ts):
 *
 * - a message queued in a transaction is invisible to the dispatcher until the commit, then delivered (status 1)
 *   by the kernel's dispatcher, woken by the notification the commit releases;
 * - a rolled-back transaction leaves no message and nothing is delivered;
 * - a gateway that refuses marks the row failed (2) with its reason, and the run goes on with the next row;
 * - a row left "being delivered" (3) by a node that died is queued again after ten minutes and delivered;
 * - a leave request's to-do e-mail (message setting `email`) is queued by the step and delivered after it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../src/server/core/db/index.js';
import { Outbox, type MessageProvider } from '../../src/server/core/outbox.js';
import { OutboxDispatcher } from '../../src/server/core/outbox-dispatch.js';
import { call, login, testServer, type Session, type TestServer } from './helpers.js';

let s: TestServer;
const tag = Date.now().toString(36);

beforeAll(async () => {
  s = await testServer();
});
afterAll(async () => {
  await s.close();
});

const statusOf = async (recipient: string) =>
  (await s.kernel.database.pool.query<{ status: number; error: string | null }>('SELECT status, error FROM kc_outbox WHERE recipient = $1 ORDER BY id', [recipient])).rows;

async function settled(recipient: string, want: number[]): Promise<Array<{ status: number; error: string | null }>> {
  for (let i = 0; i < 100; i++) {
    const rows = await statusOf(recipient);
    if (rows.length > 0 && rows.every((r) => want.includes(r.status))) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
  return statusOf(recipient);
}

describe('the outbox queue', () => {
  it('a queued message is delivered only after its transaction committed', async () => {
    const to = `commit-${tag}@example.test`;
    const db = s.kernel.database.db;
    let seenInside = -1;
    await db.transaction().execute(async (trx) => {
      await new Outbox(trx).queue({ tenantId: '000000', channel: 'email', recipient: to, subject: '主题', content: '正文' });
      // a dispatcher run from outside cannot see (let alone send) the uncommitted row
      await s.kernel.outbox.deliverPending();
      seenInside = (await statusOf(to)).length;
    });
    expect(seenInside).toBe(0);
    const rows = await settled(to, [1]);
    expect(rows).toEqual([{ status: 1, error: null }]);
  });

  it('a rolled-back transaction sends nothing and leaves no row', async () => {
    const to = `rollback-${tag}@example.test`;
    await expect(
      s.kernel.database.db.transaction().execute(async (trx) => {
        await new Outbox(trx).queue({ tenantId: '000000', channel: 'email', recipient: to, content: '不会发出' });
        throw new Error('the step failed');
      }),
    ).rejects.toThrow('the step failed');
    await s.kernel.outbox.deliverPending();
    expect(await statusOf(to)).toEqual([]);
  });

  it('a refusing gateway marks its row failed with the reason; the next row is still delivered', async () => {
    const bad = `13900${Date.now().toString().slice(-6)}`;
    const good = `13800${Date.now().toString().slice(-6)}`;
    const delivered: string[] = [];
    const gateway: MessageProvider = {
      name: 'http',
      async deliver(m) {
        if (m.recipient === bad) throw new Error('SMS gateway answered 503');
        delivered.push(m.recipient);
      },
    };
    // rows queued straight into the table (no notification), so the kernel's own dispatcher leaves them to this one
    // until its next sweep; this dispatcher claims them first
    const pool = s.kernel.database.pool;
    for (const r of [bad, good]) {
      await pool.query(`INSERT INTO kc_outbox (id, tenant_id, channel, recipient, content, provider, status) VALUES ((SELECT COALESCE(MAX(id), 0) + 1 FROM kc_outbox), '000000', 'sms', $1, '短信', 'http', 0)`, [r]);
    }
    const mine = new OutboxDispatcher(s.kernel.database.db, { sms: gateway, log: () => undefined });
    await mine.deliverPending();
    expect(await statusOf(bad)).toEqual([{ status: 2, error: 'SMS gateway answered 503' }]);
    expect(await statusOf(good)).toEqual([{ status: 1, error: null }]);
    expect(delivered).toEqual([good]);
  });

  it('a row a dead node left being delivered is queued again after ten minutes', async () => {
    const to = `stale-${tag}@example.test`;
    const fresh = `fresh-${tag}@example.test`;
    const pool = s.kernel.database.pool;
    await pool.query(`INSERT INTO kc_outbox (id, tenant_id, channel, recipient, content, provider, status, update_time)
                      VALUES ((SELECT COALESCE(MAX(id), 0) + 1 FROM kc_outbox), '000000', 'email', $1, '旧的', 'outbox', 3, now() - interval '11 minutes')`, [to]);
    await pool.query(`INSERT INTO kc_outbox (id, tenant_id, channel, recipient, content, provider, status, update_time)
                      VALUES ((SELECT COALESCE(MAX(id), 0) + 1 FROM kc_outbox), '000000', 'email', $1, '在发', 'outbox', 3, now())`, [fresh]);
    await s.kernel.outbox.deliverPending();
    expect(await statusOf(to)).toEqual([{ status: 1, error: null }]);
    expect(await statusOf(fresh)).toEqual([{ status: 3, error: null }]); // another node may be delivering it now
    await pool.query('DELETE FROM kc_outbox WHERE recipient = $1', [fresh]);
  });

  it('a workflow step queues its to-do e-mail, delivered after the step', async () => {
    const kyry: Session = await login(s, 'kyry');
    const kygl: Session = await login(s, 'kygl');
    const email = `step-${tag}@example.test`;
    await s.kernel.database.pool.query('UPDATE blade_user SET email = $2 WHERE id = $1', [kygl.userId, email]);
    try {
      expect((await call(s, kygl, 'POST', '/api/system/usermsgsetting/saveMySetting', { todo: ['site', 'email'] })).status).toBe(200);
      const res = await call(s, kyry, 'POST', '/api/blade-desk/process/leave/start-process', { startTime: '2026-12-29 09:00:00', endTime: '2026-12-29 18:00:00', days: 1, reason: `发件${tag}` });
      expect(res.status, res.body.msg).toBe(200);
      const rows = await settled(email, [1]);
      expect(rows).toEqual([{ status: 1, error: null }]);
      const content = (await sql<{ content: string }>`SELECT content FROM kc_outbox WHERE recipient = ${email}`.execute(s.kernel.database.db)).rows[0].content;
      expect(content).toContain(`发件${tag}`);
    } finally {
      await call(s, kygl, 'POST', '/api/system/usermsgsetting/saveMySetting', { todo: ['site'] });
      await s.kernel.database.pool.query('UPDATE blade_user SET email = NULL WHERE id = $1', [kygl.userId]);
    }
  });
});
