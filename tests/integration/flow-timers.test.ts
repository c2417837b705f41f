/**
 * Process timers that survive restarts (issue 11; src/server/modules/flow/timers.ts): a version of the leave
 * process deployed for tenant 100001 (so tenant 000000's leave tests are untouched) puts two boundary timers
 * on the approval task — a reminder (non-interrupting, 4 s: the task's to-dos are pushed again) and a due date
 * (interrupting, 8 s: the task is cancelled and the flow goes on to 超期处理). The kernel is stopped right after
 * the start, before either timer is due, and a fresh kernel fires both from what pg-boss kept in PostgreSQL.
 * A timer whose task was done first does nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, until, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session; // administrator of tenant 100001: starts and approves (the task is the initiator's)

const LEAVE = '/api/blade-desk/process/leave';
const PATH = '/work/process/leave';

const TIMED = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
             xmlns:kc="http://kechuang.local/schema/bpmn" id="timed" targetNamespace="t">
  <process id="leave" name="请假流程（限时）" isExecutable="true">
    <startEvent id="applied" name="提交申请" /><sequenceFlow id="f1" sourceRef="applied" targetRef="managerApprove" />
    <userTask id="managerApprove" name="领导审批" kc:assignee="\${initiator}" /><sequenceFlow id="f2" sourceRef="managerApprove" targetRef="approved" />
    <boundaryEvent id="remind" name="催办" attachedToRef="managerApprove" cancelActivity="false">
      <timerEventDefinition><timeDuration xsi:type="tFormalExpression">PT4S</timeDuration></timerEventDefinition>
    </boundaryEvent>
    <sequenceFlow id="f3" sourceRef="remind" targetRef="reminded" /><endEvent id="reminded" name="已催办" />
    <boundaryEvent id="due" name="超期" attachedToRef="managerApprove">
      <timerEventDefinition><timeDuration xsi:type="tFormalExpression">PT8S</timeDuration></timerEventDefinition>
    </boundaryEvent>
    <sequenceFlow id="f4" sourceRef="due" targetRef="overdue" />
    <userTask id="overdue" name="超期处理" kc:assignee="\${initiator}" /><sequenceFlow id="f5" sourceRef="overdue" targetRef="approved" />
    <endEvent id="approved" name="已批准" />
  </process>
</definitions>`;

beforeAll(async () => {
  s = await testServer();
  admin = await login(s, 'admin', { tenantId: '100001' });
  const res = await call(s, admin, 'POST', '/api/blade-flow/manager/deploy-upload', { category: 'test', files: [{ name: 'leave-timed.bpmn', xml: TIMED }] });
  expect(res.status, res.body.msg).toBe(200);
});
afterAll(async () => {
  await s.close();
});

const openTasks = async () => (await call(s, admin, 'GET', `${LEAVE}/todo-list?size=100`)).body.data.records as Json[];
const start = async (reason: string) => {
  const res = await call(s, admin, 'POST', `${LEAVE}/start-process`, { startTime: '2026-12-01 09:00:00', endTime: '2026-12-01 18:00:00', days: 1, reason });
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data as { businessId: string; processInstanceId: string };
};
const history = async (id: string) =>
  (await s.kernel.database.pool.query('SELECT activity_id FROM flow_history WHERE instance_id = $1 ORDER BY end_time, id', [id])).rows.map((r) => r.activity_id as string);

describe('timers survive a restart', () => {
  it('a reminder pushes the to-do again and a due date moves the flow on, both fired by a fresh kernel', async () => {
    const started = Date.now();
    const timed = await start('限时审批');
    const early = await start('先办完');
    // the timers are jobs in PostgreSQL, due 4 s and 8 s after the start
    expect(await countRows(s, 'pgboss.job', `name = 'flow-timer' AND data->>'instanceId' = $1 AND state = 'created'`, [timed.processInstanceId])).toBe(2);
    const tasks = await openTasks();
    const doneFirst = tasks.find((t) => t.processInstanceId === early.processInstanceId)!;
    expect((await call(s, admin, 'POST', `${LEAVE}/complete-task`, { taskId: doneFirst.taskId, outcome: 'approve', comment: '同意' })).body.data).toMatchObject({ status: 'completed' });
    const pushed = (await call(s, admin, 'GET', '/api/basic/todo/myPush')).body.data as Json[];
    const todo = pushed.find((p) => p.businessId === timed.businessId);
    expect(todo).toMatchObject({ title: '请假流程（限时）：领导审批', path: PATH, type: 1 });
    expect(((await call(s, admin, 'GET', '/api/basic/todo/myPush')).body.data as Json[]).map((p) => p.id)).not.toContain(todo!.id);

    await s.close();
    expect(Date.now() - started, 'the kernel stopped before the first timer was due').toBeLessThan(4000);
    s = await testServer();
    admin = await login(s, 'admin', { tenantId: '100001' });

    // the reminder: the open to-do is pushed again, the task stays
    const again = await until('the reminder', async () => ((await call(s, admin, 'GET', '/api/basic/todo/myPush')).body.data as Json[]).find((p) => p.id === todo!.id));
    expect(again).toMatchObject({ title: '请假流程（限时）：领导审批', state: 0 });
    expect((await openTasks()).find((t) => t.processInstanceId === timed.processInstanceId)).toMatchObject({ taskKey: 'managerApprove' });
    expect(await history(timed.processInstanceId)).toEqual(expect.arrayContaining(['remind', 'reminded']));

    // the due date: the approval is cancelled, 超期处理 waits; the to-do count follows
    const overdue = await until('the due date', async () => (await openTasks()).find((t) => t.processInstanceId === timed.processInstanceId && t.taskKey === 'overdue'));
    expect(overdue).toMatchObject({ taskName: '超期处理' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(8000);
    expect((await openTasks()).filter((t) => t.processInstanceId === timed.processInstanceId).map((t) => t.taskKey)).toEqual(['overdue']);
    expect(await countRows(s, 'flow_task', `instance_id = $1 AND task_key = 'managerApprove' AND end_time IS NULL`, [timed.processInstanceId])).toBe(0);
    expect(await countRows(s, 'basic_todo', `business_id = $1::bigint AND state = 0 AND is_deleted = 0`, [timed.businessId])).toBe(1);
    expect(((await call(s, admin, 'GET', '/api/basic/todo/countNumber')).body.data as Record<string, number>)[PATH]).toBe(1);
    const steps = (await call(s, admin, 'GET', `/api/blade-flow/process/steps?processInstanceId=${timed.processInstanceId}`)).body.data;
    expect(steps).toMatchObject({ status: 'running', currentNodes: ['overdue'] });
    expect(steps.finishedNodes).toEqual(expect.arrayContaining(['applied', 'remind', 'due']));

    // the instance whose task was done first: its timers found nothing to fire
    expect(await history(early.processInstanceId)).not.toContain('due');
    expect(await countRows(s, 'flow_instance', `id = $1 AND run_status = 'completed'`, [early.processInstanceId])).toBe(1);
    const res = await call(s, admin, 'POST', `${LEAVE}/complete-task`, { taskId: overdue.taskId, outcome: 'approve', comment: '补批' });
    expect(res.body.data).toMatchObject({ status: 'completed', currentNodes: [] });
    expect(((await call(s, admin, 'GET', '/api/basic/todo/countNumber')).body.data as Record<string, number>)[PATH] ?? 0).toBe(0);
  }, 60_000);
});
