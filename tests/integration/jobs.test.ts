/**
 * Background jobs (DESIGN §8 "Jobs", core/jobs.ts): a job runs on pg-boss and its status row (kc_job) shows
 * progress, counts, the result file or the error; only its owner sees it (another user of the tenant and
 * another tenant's administrator get 404); a job queued while no node runs its kind is done by the next node
 * that does (the row and the queue survive a restart).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/server/core/envelope.js';
import { call, login, testServer, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kyry: Session;
let other: Session;
const KIND = `test-job-${Date.now().toString(36)}`;

/** Polls the detail endpoint until the job leaves queued / running (at most `ms`). */
async function settled(who: Session, id: string, server = s, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const res = await call(server, who, 'GET', `/api/blade-job/job/detail?id=${id}`);
    expect(res.status).toBe(200);
    if (res.body.data.status === 'done' || res.body.data.status === 'failed') return res.body.data;
    if (Date.now() > until) throw new Error(`job ${id} still ${res.body.data.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  s = await testServer();
  [admin, kyry, other] = await Promise.all([login(s, 'admin'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
  await s.kernel.jobs.define<{ rows: number; fail?: boolean }>(KIND, async (ctx) => {
    if (ctx.params.fail) throw new ApiError(400, { zh: '模拟失败', en: 'Simulated failure' });
    for (let i = 1; i <= ctx.params.rows; i++) await ctx.report({ read: i, written: i, progress: (i / ctx.params.rows) * 100 });
    fs.writeFileSync(path.join(ctx.folder, 'out.txt'), `rows=${ctx.params.rows} tenant=${ctx.owner.tenantId}`);
    return { resultFile: 'out.txt', resultName: '结果.txt', result: { rows: ctx.params.rows } };
  });
});
afterAll(async () => {
  await s?.close();
});

describe('jobs', () => {
  it('runs a job: status done, progress 100, counts, result file downloadable by the owner', async () => {
    const id = await s.kernel.jobs.enqueue(KIND, await ownerOf(admin), { rows: 5, ref: 'r1' }, { title: '测试任务' });
    const job = await settled(admin, id);
    expect(job).toMatchObject({ id, kind: KIND, title: '测试任务', status: 'done', progress: 100, readCount: 5, writtenCount: 5, failedCount: 0, error: null, hasFile: true, resultName: '结果.txt', result: { rows: 5 } });
    const file = await call(s, admin, 'GET', `/api/blade-job/job/file?id=${id}`);
    expect(file.status).toBe(200);
    expect(file.res.body).toBe('rows=5 tenant=000000');
    expect(String(file.res.headers['content-disposition'])).toContain(encodeURIComponent('结果.txt'));
    const list = await call(s, admin, 'GET', `/api/blade-job/job/list?kind=${KIND}&ref=r1`);
    expect(list.body.data.map((j: { id: string }) => j.id)).toContain(id);
  });

  it('another user of the tenant and another tenant get nothing', async () => {
    const id = await s.kernel.jobs.enqueue(KIND, await ownerOf(admin), { rows: 1 });
    await settled(admin, id);
    for (const who of [kyry, other]) {
      expect((await call(s, who, 'GET', `/api/blade-job/job/detail?id=${id}`)).status).toBe(404);
      expect((await call(s, who, 'GET', `/api/blade-job/job/file?id=${id}`)).status).toBe(404);
      const list = await call(s, who, 'GET', `/api/blade-job/job/list?kind=${KIND}`);
      expect(list.body.data.map((j: { id: string }) => j.id)).not.toContain(id);
    }
    expect((await call(s, null, 'GET', `/api/blade-job/job/detail?id=${id}`)).status).toBe(401);
    expect((await call(s, admin, 'GET', `/api/blade-job/job/detail?id=abc`)).status).toBe(400);
    expect((await call(s, admin, 'GET', `/api/blade-job/job/list?status=weird`)).status).toBe(400);
  });

  it('a failing job ends failed with the user-facing message', async () => {
    const id = await s.kernel.jobs.enqueue(KIND, await ownerOf(admin), { rows: 1, fail: true });
    const job = await settled(admin, id);
    expect(job).toMatchObject({ status: 'failed', error: '模拟失败', hasFile: false });
  });

  it('a job queued while no node runs its kind is run by the next node that does (survives a restart)', async () => {
    const kind = `${KIND}-later`;
    const id = await s.kernel.jobs.enqueue(kind, await ownerOf(admin), { rows: 3 });
    const before = await call(s, admin, 'GET', `/api/blade-job/job/detail?id=${id}`);
    expect(before.body.data.status).toBe('queued');
    await s.kernel.jobs.stop(); // this node goes away; the job waits in PostgreSQL
    const next = await testServer();
    try {
      await next.kernel.jobs.define<{ rows: number }>(kind, async (ctx) => {
        await ctx.report({ read: ctx.params.rows, written: ctx.params.rows }, true);
        return { result: { by: 'next' } };
      });
      const job = await settled(await login(next, 'admin'), id, next);
      expect(job).toMatchObject({ status: 'done', readCount: 3, writtenCount: 3, result: { by: 'next' } });
    } finally {
      await next.close();
    }
  });
});

/** The job owner of a session: the request user the server builds from its token. */
async function ownerOf(who: Session) {
  const { userFromClaims } = await import('../../src/server/core/context.js');
  const claims = await s.kernel.tokens.verifyAccess(who.token);
  return userFromClaims(claims as never, undefined);
}
