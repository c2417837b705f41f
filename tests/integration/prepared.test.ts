/**
 * Prepared statements of the list path stay bounded however many pages are read (DESIGN §13).
 *
 * List queries run as named prepared statements, named by a hash of their SQL text, and a named statement
 * lives on its connection until the connection closes. With LIMIT and OFFSET inlined in the SQL every page
 * was a new statement on every pooled connection (database memory 32 MB → 617 MB in 30 s of paging); with
 * them as parameters one list shape is one statement whatever the page.
 *
 * The test walks pages 1…1,000 of `GET /api/basic/patent/list?size=10` as `kygl` through the whole pipeline
 * (`app.inject`; pages past the data are empty, and prepare the same statement as the others), and reads
 * `pg_prepared_statements` on every connection of the app's pool (`kernel.database.pool`: each idle client
 * checked out, asked, released) after page 10 and after page 1,000. Figures are counts of statements:
 * at most 20 on any one connection, and the set of statement names across the pool after page 1,000 is the
 * one after page 10 (nothing new after the first pages). Against the inlined LIMIT/OFFSET the connections
 * that served the walk hold hundreds of statements each and both assertions fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, testServer, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let kygl: Session;

beforeAll(async () => {
  s = await testServer();
  kygl = await login(s, 'kygl');
});
afterAll(async () => {
  await s.close();
});

/** The prepared statements on each connection of the app's pool: one list of names per connection. */
async function preparedStatements(): Promise<string[][]> {
  const pool = s.kernel.database.pool;
  // requests are done, but work they started (the API log ...) may still hold a client: wait for it
  const deadline = Date.now() + 5000;
  while ((pool.idleCount < pool.totalCount || pool.waitingCount > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  const clients = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()));
  try {
    return await Promise.all(clients.map(async (c) => (await c.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name')).rows.map((r) => r.name)));
  } finally {
    for (const c of clients) c.release();
  }
}

describe('list paging and prepared statements', () => {
  it('reading pages 1…1,000 keeps at most 20 prepared statements per pooled connection, and adds none after page 10', { timeout: 120_000 }, async () => {
    const page = async (n: number) => {
      const res = await call(s, kygl, 'GET', `/api/basic/patent/list?current=${n}&size=10`);
      expect(res.status, `page ${n}: ${res.body.msg}`).toBe(200);
      expect(res.body.data.current).toBe(n);
      expect(res.body.data.size).toBe(10);
    };
    for (let n = 1; n <= 10; n++) await page(n);
    const early = await preparedStatements();
    const earlyNames = new Set(early.flat());
    expect(earlyNames.size).toBeGreaterThan(0); // the list did run as named statements

    for (let n = 11; n <= 1000; n++) await page(n);
    const late = await preparedStatements();
    const perConnection = late.map((names) => names.length);

    expect(Math.max(...perConnection), `statements per connection: ${perConnection.join(', ')}`).toBeLessThanOrEqual(20);
    expect([...new Set(late.flat())].filter((name) => !earlyNames.has(name)), 'statements prepared after page 10').toEqual([]);
  });
});
