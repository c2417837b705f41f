/**
 * Process versions and returning to a named step (issue 11: "a new deployment of the same key is a new
 * version; running instances finish on theirs"; "complete with an outcome (approve / reject / return to a
 * named step)"; DESIGN §8). Runs in tenant 100001 (its administrator), whose own deployment of the key
 * `leave` takes over from the platform's shipped file for that tenant only:
 *
 * - each upload of the key is the tenant's next version; a leave started on the first upload finishes on it
 *   (one review) after the second is deployed, one started after runs on the second; the platform's tenant is
 *   untouched;
 * - the tenant's version has two review steps; the second returns the request to the step the reviewer names
 *   (`returnTo`: the first review, or the applicant), the file's gateways routing on it; a name that is no
 *   step, a step with no way back, or `returnTo` with another outcome are refused with the reason and change
 *   nothing; another tenant and a user without the grant cannot touch the task;
 * - once no instance runs on them, the uploads can be deleted and what was used before is used again (the
 *   shipped file, or the upload flow-timers.test.ts leaves in the same tenant when the whole suite runs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session; // tenant 100001
let platformAdmin: Session; // tenant 000000
let kyry: Session; // tenant 000000, researcher

const LEAVE = '/api/blade-desk/process/leave';
const FLOW = '/api/blade-flow';

const ONE_REVIEW = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:kc="http://kechuang.local/schema/bpmn" id="or" targetNamespace="t">
  <process id="leave" name="请假流程（一级审核）" isExecutable="true">
    <startEvent id="applied" /><sequenceFlow id="f1" sourceRef="applied" targetRef="review" />
    <userTask id="review" name="审核" kc:candidateRoles="administrator" /><sequenceFlow id="f2" sourceRef="review" targetRef="done" />
    <endEvent id="done" />
  </process>
</definitions>`;

const TWO_REVIEWS = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:kc="http://kechuang.local/schema/bpmn" id="tr" targetNamespace="t">
  <process id="leave" name="请假流程（两级审核）" isExecutable="true">
    <startEvent id="applied" /><sequenceFlow id="f1" sourceRef="applied" targetRef="deptCheck" />
    <userTask id="deptCheck" name="部门审核" kc:candidateRoles="administrator" /><sequenceFlow id="f2" sourceRef="deptCheck" targetRef="g1" />
    <exclusiveGateway id="g1" />
    <sequenceFlow id="g1ok" sourceRef="g1" targetRef="leaderCheck"><conditionExpression xsi:type="tFormalExpression">\${outcome == 'approve'}</conditionExpression></sequenceFlow>
    <sequenceFlow id="g1back" sourceRef="g1" targetRef="adjust"><conditionExpression xsi:type="tFormalExpression">\${outcome == 'return'}</conditionExpression></sequenceFlow>
    <userTask id="leaderCheck" name="领导审批" kc:candidateRoles="administrator" /><sequenceFlow id="f3" sourceRef="leaderCheck" targetRef="g2" />
    <exclusiveGateway id="g2" />
    <sequenceFlow id="g2ok" sourceRef="g2" targetRef="approved"><conditionExpression xsi:type="tFormalExpression">\${outcome == 'approve'}</conditionExpression></sequenceFlow>
    <sequenceFlow id="g2no" sourceRef="g2" targetRef="rejected"><conditionExpression xsi:type="tFormalExpression">\${outcome == 'reject'}</conditionExpression></sequenceFlow>
    <sequenceFlow id="g2dept" sourceRef="g2" targetRef="deptCheck"><conditionExpression xsi:type="tFormalExpression">\${outcome == 'return' &amp;&amp; returnTo == 'deptCheck'}</conditionExpression></sequenceFlow>
    <sequenceFlow id="g2adjust" sourceRef="g2" targetRef="adjust"><conditionExpression xsi:type="tFormalExpression">\${outcome == 'return' &amp;&amp; returnTo == 'adjust'}</conditionExpression></sequenceFlow>
    <userTask id="adjust" name="调整申请" kc:assignee="\${initiator}" /><sequenceFlow id="f4" sourceRef="adjust" targetRef="deptCheck" />
    <endEvent id="approved" /><endEvent id="rejected" />
  </process>
</definitions>`;

beforeAll(async () => {
  s = await testServer();
  admin = await login(s, 'admin', { tenantId: '100001' });
  [platformAdmin, kyry] = await Promise.all(['admin', 'kyry'].map((a) => login(s, a)));
});
afterAll(async () => {
  await s.close();
});

async function startLeave(who: Session, days: number, reason: string): Promise<{ businessId: string; processInstanceId: string }> {
  const res = await call(s, who, 'POST', `${LEAVE}/start-process`, { startTime: '2026-12-14 09:00:00', endTime: '2026-12-18 18:00:00', days, reason });
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data;
}
const instance = async (id: string) =>
  (await s.kernel.database.pool.query('SELECT definition_id::text AS def, run_status, current_nodes FROM flow_instance WHERE id = $1', [id])).rows[0] as Json;
const openTask = async (instanceId: string) =>
  (await s.kernel.database.pool.query('SELECT id::text AS id, task_key FROM flow_task WHERE instance_id = $1 AND end_time IS NULL', [instanceId])).rows as Json[];
const complete = (who: Session, taskId: string, outcome: string, extra: Json = {}) => call(s, who, 'POST', `${LEAVE}/complete-task`, { taskId, outcome, ...extra });

describe('versions: running instances finish on theirs', () => {
  let before: { businessId: string; processInstanceId: string };
  let after: { businessId: string; processInstanceId: string };
  let earlierDef: string; // what tenant 100001 started before this file's uploads (the shipped file, or flow-timers.test.ts's upload)
  const deployments: string[] = [];

  const upload = async (name: string, xml: string) => {
    const last = (await s.kernel.database.pool.query("SELECT coalesce(max(version), 0)::int AS v FROM flow_definition WHERE tenant_id = '100001' AND process_key = 'leave'")).rows[0].v as number;
    const up = await call(s, admin, 'POST', `${FLOW}/manager/deploy-upload`, { category: 'test', files: [{ name, xml }] });
    expect(up.status, up.body.msg).toBe(200);
    expect(up.body.data).toMatchObject([{ processKey: 'leave', version: last + 1 }]);
    deployments.push(up.body.data[0].deploymentId);
    return up.body.data[0] as Json;
  };

  it('each upload of the key is the tenant’s next version; what already runs finishes on its own', async () => {
    const probe = await startLeave(admin, 1, '探测');
    earlierDef = (await instance(probe.processInstanceId)).def;
    expect((await call(s, admin, 'POST', `${FLOW}/follow/delete-process-instance`, { processInstanceId: probe.processInstanceId, deleteReason: '探测' })).status).toBe(200);

    const one = await upload('leave-one-review.bpmn', ONE_REVIEW);
    before = await startLeave(admin, 5, '上传前');
    const b = await instance(before.processInstanceId);
    expect(b).toMatchObject({ def: one.id, current_nodes: ['review'] });
    const two = await upload('leave-two-reviews.bpmn', TWO_REVIEWS);
    expect(two.name).toBe('请假流程（两级审核）');
    after = await startLeave(admin, 5, '上传后');
    expect(await instance(after.processInstanceId)).toMatchObject({ def: two.id, current_nodes: ['deptCheck'] });
    // the platform's tenant is untouched by tenant 100001's uploads
    const other = await startLeave(kyry, 1, '平台租户');
    expect([one.id, two.id]).not.toContain((await instance(other.processInstanceId)).def);
    // the instance started before goes on along its own file: one review, then the end
    const [t] = await openTask(before.processInstanceId);
    expect(t.task_key).toBe('review');
    const res = await complete(admin, t.id, 'approve');
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'completed' });
    expect((await instance(before.processInstanceId)).def).toBe(one.id);
  });

  it('return to a named step: the reviewer names where the request goes back to', async () => {
    const id = after.processInstanceId;
    let [t] = await openTask(id);
    expect((await complete(admin, t.id, 'approve')).body.data).toMatchObject({ currentNodes: ['leaderCheck'] });
    [t] = await openTask(id);
    const history = () => countRows(s, 'flow_history', 'instance_id = $1', [id]);
    const h0 = await history();
    const refused: Array<[Json, string]> = [
      [{ returnTo: 'nowhere' }, '流程「请假流程（两级审核）」中没有步骤「nowhere」'],
      [{ returnTo: 'approved' }, '流程「请假流程（两级审核）」中没有步骤「approved」'],
      [{ returnTo: 'x y' }, '参数 returnTo 的值无效'],
    ];
    for (const [extra, msg] of refused) {
      const bad = await complete(admin, t.id, 'return', extra);
      expect(bad.status).toBe(400);
      expect(bad.body.msg).toBe(msg);
    }
    const approveWithStep = await complete(admin, t.id, 'approve', { returnTo: 'deptCheck' });
    expect(approveWithStep.status).toBe(400);
    expect(approveWithStep.body.msg).toBe('只有退回时才能指定退回的步骤');
    // a step no gateway leads back to (the reviewer's own): the engine finds no way out, and the step is undone
    const noWay = await complete(admin, t.id, 'return', { returnTo: 'leaderCheck' });
    expect(noWay.status).toBe(400);
    expect(noWay.body.msg).toBe('流程「请假流程（两级审核）」不能从当前步骤退回到「领导审批」');
    expect(await history()).toBe(h0);
    expect(await openTask(id)).toEqual([{ id: t.id, task_key: 'leaderCheck' }]);
    expect(await countRows(s, 'basic_todo', 'task_id = $1 AND state = 0 AND is_deleted = 0', [t.id])).toBeGreaterThan(0);
    // another tenant cannot see the task; a user of the platform tenant without it neither
    expect((await complete(platformAdmin, t.id, 'return', { returnTo: 'deptCheck' })).status).toBe(404);

    const back = await complete(admin, t.id, 'return', { returnTo: 'deptCheck', comment: '请部门重新核实' });
    expect(back.status, back.body.msg).toBe(200);
    expect(back.body.data).toMatchObject({ status: 'running', currentNodes: ['deptCheck'] });
    [t] = await openTask(id);
    expect((await complete(admin, t.id, 'approve')).body.data).toMatchObject({ currentNodes: ['leaderCheck'] });
    [t] = await openTask(id);
    const toApplicant = await complete(admin, t.id, 'return', { returnTo: 'adjust', comment: '请补充交接安排' });
    expect(toApplicant.body.data).toMatchObject({ currentNodes: ['adjust'] });
    [t] = await openTask(id);
    expect((await complete(admin, t.id, 'submit')).body.data).toMatchObject({ currentNodes: ['deptCheck'] });
    [t] = await openTask(id);
    await complete(admin, t.id, 'approve');
    [t] = await openTask(id);
    expect((await complete(admin, t.id, 'approve')).body.data).toMatchObject({ status: 'completed' });
    const h = (await call(s, admin, 'GET', `${FLOW}/process/history-flow-list?processInstanceId=${id}`)).body.data as Json[];
    expect(h.filter((x) => x.historyActivityType === 'UserTask').map((x) => [x.historyActivityId, x.outcome])).toEqual([
      ['deptCheck', 'approve'],
      ['leaderCheck', 'return'],
      ['deptCheck', 'approve'],
      ['leaderCheck', 'return'],
      ['adjust', 'submit'],
      ['deptCheck', 'approve'],
      ['leaderCheck', 'approve'],
    ]);
  });

  it('with nothing running on them, the tenant’s deployments can go; what was used before is used again', async () => {
    const del = await call(s, admin, 'POST', `${FLOW}/manager/delete-deployment?deploymentIds=${deployments.join(',')}`);
    expect(del.status, del.body.msg).toBe(200);
    const again = await startLeave(admin, 1, '删除后');
    expect((await instance(again.processInstanceId)).def).toBe(earlierDef);
    expect((await call(s, admin, 'POST', `${FLOW}/follow/delete-process-instance`, { processInstanceId: again.processInstanceId, deleteReason: '测试结束' })).status).toBe(200);
  });
});
