/**
 * Crash and resume (issue 11 'Execution': "the engine state is persisted after each step and resumed on any
 * node after a crash (a test kills the process mid-flow and continues on a fresh kernel)"; DESIGN §8).
 *
 * A second server node runs in its own process (tests/fixtures/flow-crash-child.ts) and completes the leave
 * request's approval through the real endpoint. The test holds a row lock that step needs after its first
 * writes (the task's to-dos), so the node is caught inside the step — its transaction has written — and is
 * SIGKILLed there. PostgreSQL drops the half-done step; a fresh kernel finds the instance exactly as the last
 * committed step left it (task open, no history of the approval, the same to-do counts) and carries the
 * process on to its end.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LEAVE = '/api/blade-desk/process/leave';
const PATH = '/work/process/leave';

let s: TestServer;
let kyry: Session;
let kygl: Session;

beforeAll(async () => {
  s = await testServer();
  [kyry, kygl] = await Promise.all(['kyry', 'kygl'].map((a) => login(s, a)));
});
afterAll(async () => {
  await s.close();
});

const leaveCount = async (who: Session) => ((await call(s, who, 'GET', '/api/basic/todo/countNumber')).body.data as Record<string, number>)[PATH] ?? 0;
const taskOf = async (who: Session, instanceId: string) =>
  ((await call(s, who, 'GET', `${LEAVE}/todo-list?size=200`)).body.data.records as Json[]).find((t) => t.processInstanceId === instanceId);

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('a node killed in the middle of a step', () => {
  it('leaves the process as its last committed step; a fresh kernel carries it on to the end', { timeout: 240_000 }, async () => {
    const started = await call(s, kyry, 'POST', `${LEAVE}/start-process`, { startTime: '2026-12-07 09:00:00', endTime: '2026-12-11 18:00:00', days: 5, reason: '宕机测试' });
    expect(started.status, started.body.msg).toBe(200);
    const instanceId = started.body.data.processInstanceId as string;
    const task = (await taskOf(kygl, instanceId))!;
    expect(task.taskKey).toBe('managerApprove');
    const before = await leaveCount(kygl);
    const stateBefore = (await s.kernel.database.pool.query('SELECT state::text AS state FROM flow_instance WHERE id = $1', [instanceId])).rows[0].state as string;

    // hold the to-dos of the task: the step blocks there, after it has ended the task and written its history
    const db = inject('db');
    const blocker = new pg.Client(db.url);
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('SELECT id FROM basic_todo WHERE task_id = $1 FOR UPDATE', [task.taskId]);

    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/flow-crash-child.ts', db.url, db.dataDir, db.password, 'kygl', LEAVE, task.taskId, 'approve'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    const exited = new Promise((r) => child.once('exit', r));
    try {
      const blockerPid = (await blocker.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const stuck = await until('the child caught inside the step', async () => {
        if (child.exitCode !== null) throw new Error(`the child exited: ${out}`);
        const r = await s.kernel.database.pool.query(
          `SELECT a.pid, a.backend_xid IS NOT NULL AS wrote, a.query FROM pg_stat_activity a
            WHERE a.wait_event_type = 'Lock' AND a.query ILIKE '%UPDATE basic_todo%' AND $1 = ANY(pg_blocking_pids(a.pid))`,
          [blockerPid],
        );
        return r.rows[0] as { pid: number; wrote: boolean } | undefined;
      });
      expect(stuck.wrote).toBe(true); // the step's transaction holds writes (the task ended, its history)
      child.kill('SIGKILL');
      await exited;
      expect(out).not.toContain('ANSWER');
      await until('PostgreSQL to drop the dead node’s session', async () =>
        (await s.kernel.database.pool.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [stuck.pid])).rows.length === 0 ? true : undefined,
      );
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await blocker.query('ROLLBACK');
      await blocker.end();
    }

    // nothing of the half-done step is left
    expect(await countRows(s, 'flow_task', 'id = $1 AND end_time IS NULL AND outcome IS NULL', [task.taskId])).toBe(1);
    expect(await countRows(s, 'flow_history', "instance_id = $1 AND activity_type = 'UserTask'", [instanceId])).toBe(0);
    const inst = (await s.kernel.database.pool.query('SELECT run_status, current_nodes, state::text AS state FROM flow_instance WHERE id = $1', [instanceId])).rows[0];
    expect(inst).toMatchObject({ run_status: 'running', current_nodes: ['managerApprove'] });
    expect(inst.state).toBe(stateBefore);

    // a fresh kernel (another node, say) carries on
    await s.close();
    s = await testServer();
    [kyry, kygl] = await Promise.all(['kyry', 'kygl'].map((a) => login(s, a)));
    expect(await leaveCount(kygl)).toBe(before);
    const again = (await taskOf(kygl, instanceId))!;
    expect(again.taskId).toBe(task.taskId);
    const res = await call(s, kygl, 'POST', `${LEAVE}/complete-task`, { taskId: task.taskId, outcome: 'approve', comment: '恢复后同意' });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'running', currentNodes: ['hrFile'] }); // 5 days: the record field sends it to filing
    expect(await leaveCount(kygl)).toBe(before - 1);
    const admin = await login(s, 'admin');
    const filing = (await taskOf(admin, instanceId))!;
    const end = await call(s, admin, 'POST', `${LEAVE}/complete-task`, { taskId: filing.taskId, outcome: 'approve' });
    expect(end.body.data).toMatchObject({ status: 'completed', currentNodes: [] });
    const h = (await call(s, kyry, 'GET', `/api/blade-flow/process/history-flow-list?processInstanceId=${instanceId}`)).body.data as Json[];
    expect(h.filter((x) => x.historyActivityType === 'UserTask').map((x) => [x.historyActivityId, x.outcome, x.comment])).toEqual([
      ['managerApprove', 'approve', '恢复后同意'],
      ['hrFile', 'approve', null],
    ]);
  });
});
