/**
 * The workflow module (issue 11; DESIGN §8; src/server/modules/flow) at API level:
 *
 * - the shipped BPMN files are deployed at start (manager/list, model/list, administrators only); an uploaded
 *   file is a new version, an invalid one is refused with the reason and stores nothing;
 * - the leave request (schemas/flow/leave.json over schemas/flows/leave.bpmn): started by a researcher, claimed
 *   and completed by research management through the gateways — return (back to the applicant), reject, and
 *   approve with a record field deciding whether the administrator's filing follows; a non-candidate cannot
 *   claim (403), another tenant sees no task; to-do counts per menu path after each step;
 * - the engine state survives a restart: the process goes on on a fresh kernel from the state in PostgreSQL;
 * - history (history-flow-list, steps with current and finished nodes), send / done lists, deleting an
 *   instance (reason required) and a deployment (refused while instances run), push polling.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let kyry: Session; // researcher, 华北分公司
let kygl: Session; // research management, group company
let kyglHb: Session; // research management, 华北分公司
let duo: Session; // 华东分公司: not in a 华北 record's company chain
let admin: Session;
let other: Session; // administrator of tenant 100001

const LEAVE = '/api/blade-desk/process/leave';
const PATH = '/work/process/leave';
const FLOW = '/api/blade-flow';

beforeAll(async () => {
  s = await testServer();
  [kyry, kygl, kyglHb, duo, admin] = await Promise.all(['kyry', 'kygl', 'kygl_hb', 'duo', 'admin'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
});
afterAll(async () => {
  await s.close();
});

function multipart(fields: Record<string, string>, files: Array<{ name: string; content: string }>) {
  const boundary = `----kc${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: application/xml\r\n\r\n`), Buffer.from(f.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const counts = async (who: Session) => (await call(s, who, 'GET', '/api/basic/todo/countNumber')).body.data as Record<string, number>;
const leaveCount = async (who: Session) => (await counts(who))[PATH] ?? 0;
const todo = async (who: Session) => (await call(s, who, 'GET', `${LEAVE}/todo-list?size=200`)).body.data.records as Json[];
const taskOf = async (who: Session, instanceId: string) => (await todo(who)).find((t) => t.processInstanceId === instanceId);

async function startLeave(who: Session, days: number, reason: string): Promise<{ businessId: string; processInstanceId: string }> {
  const res = await call(s, who, 'POST', `${LEAVE}/start-process`, { startTime: '2026-12-01 09:00:00', endTime: '2026-12-03 18:00:00', days, reason });
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data;
}

const simple = (key: string, extra = '') => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" id="d" targetNamespace="t">
  <process id="${key}" name="上传测试流程" isExecutable="true">
    <startEvent id="s" /><sequenceFlow id="f1" sourceRef="s" targetRef="check" />
    <userTask id="check" name="审核" flowable:candidateGroups="kygl" /><sequenceFlow id="f2" sourceRef="check" targetRef="e" />
    <endEvent id="e" />${extra}
  </process>
</definitions>`;

describe('definitions: shipped, uploaded, refused', () => {
  it('the shipped files are deployed at start; only administrators manage them', async () => {
    const res = await call(s, admin, 'GET', `${FLOW}/manager/list?size=100`);
    expect(res.status).toBe(200);
    const keys = (res.body.data.records as Json[]).map((d) => d.key);
    expect(keys).toEqual(expect.arrayContaining(['achievementExamine', 'leave']));
    const models = (await call(s, admin, 'GET', `${FLOW}/model/list?size=100`)).body.data.records as Json[];
    expect(models.map((m) => m.modelKey)).toEqual(expect.arrayContaining(['achievementExamine', 'leave']));
    for (const url of ['manager/list', 'model/list', 'follow/list']) expect((await call(s, kyry, 'GET', `${FLOW}/${url}`)).status).toBe(403);
    // another start deploys nothing new: the files did not change
    expect(await countRows(s, 'flow_definition', "process_key = 'leave' AND tenant_id = '000000'")).toBe(1);
  });

  it('an uploaded file becomes a new version of its key; the next upload of the same key is version 2', async () => {
    const key = `upl${Date.now().toString(36)}`;
    for (const v of [1, 2]) {
      const m = multipart({ category: 'test', tenantIds: '' }, [{ name: `${key}.bpmn`, content: simple(key) }]);
      const res = await call(s, admin, 'POST', `${FLOW}/manager/deploy-upload`, m.payload, m.headers);
      expect(res.status, res.body.msg).toBe(200);
      expect(res.body.data).toMatchObject([{ processKey: key, name: '上传测试流程', version: v }]);
    }
    const list = (await call(s, admin, 'GET', `${FLOW}/manager/list?processKey=${key}`)).body.data.records as Json[];
    expect(list.map((d) => d.version)).toEqual([2, 1]);
    // a researcher may not upload
    const m = multipart({}, [{ name: 'x.bpmn', content: simple('x1') }]);
    expect((await call(s, kyry, 'POST', `${FLOW}/manager/deploy-upload`, m.payload, m.headers)).status).toBe(403);
  });

  it('an invalid file is refused with the reason, and nothing of the upload is stored', async () => {
    const defs = await countRows(s, 'flow_definition');
    const models = await countRows(s, 'flow_model');
    const cases: Array<[string, string, RegExp]> = [
      ['broken.bpmn', '<definitions><process', /^broken\.bpmn：不是有效的 BPMN 2\.0 文件/],
      ['nostart.bpmn', simple('nostart').replace('<startEvent id="s" />', '').replace('<sequenceFlow id="f1" sourceRef="s" targetRef="check" />', ''), /^nostart\.bpmn：流程 nostart 没有开始事件$/],
      ['dangling.bpmn', simple('dangling', '<sequenceFlow id="f3" sourceRef="check" targetRef="nowhere" />'), /^dangling\.bpmn：流程文件引用了不存在的节点/],
      ['code.bpmn', simple('code', '<sequenceFlow id="f4" sourceRef="check" targetRef="e"><conditionExpression>${process.exit(1)}</conditionExpression></sequenceFlow>'), /^code\.bpmn：连线 f4 的条件无法识别/],
    ];
    for (const [name, content, msg] of cases) {
      // the good file first: it must not be stored either when its companion is refused
      const m = multipart({ category: 'test' }, [{ name: 'good.bpmn', content: simple(`good${Date.now().toString(36)}`) }, { name, content }]);
      const res = await call(s, admin, 'POST', `${FLOW}/manager/deploy-upload`, m.payload, m.headers);
      expect(res.status, name).toBe(400);
      expect(res.body.msg).toMatch(msg);
    }
    const notXml = multipart({}, [{ name: 'a.txt', content: 'hello' }]);
    const res = await call(s, admin, 'POST', `${FLOW}/manager/deploy-upload`, notXml.payload, notXml.headers);
    expect(res.body.msg).toBe('只能上传 .bpmn 或 .xml 流程文件：a.txt');
    expect(await countRows(s, 'flow_definition')).toBe(defs);
    expect(await countRows(s, 'flow_model')).toBe(models);
  });

  it('the screen’s dialog sends the files it read as JSON: deployed the same way, refused the same way', async () => {
    const key = `json${Date.now().toString(36)}`;
    const res = await call(s, admin, 'POST', `${FLOW}/manager/deploy-upload`, { category: 'ui', files: [{ name: `${key}.bpmn`, xml: simple(key) }] });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toMatchObject([{ processKey: key, version: 1 }]);
    const defs = await countRows(s, 'flow_definition');
    const bad = await call(s, admin, 'POST', `${FLOW}/manager/deploy-upload`, { files: [{ name: 'ok.bpmn', xml: simple(`${key}b`) }, { name: 'bad.bpmn', xml: 'not xml' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/^bad\.bpmn：不是有效的 BPMN 2\.0 文件/);
    expect((await call(s, admin, 'POST', `${FLOW}/manager/deploy-upload`, { files: [{ name: 'a.txt', xml: simple('t') }] })).body.msg).toBe('只能上传 .bpmn 或 .xml 流程文件：a.txt');
    expect((await call(s, admin, 'POST', `${FLOW}/manager/deploy-upload`, { files: [] })).body.msg).toBe('请选择要上传的文件');
    expect((await call(s, kyry, 'POST', `${FLOW}/manager/deploy-upload`, { files: [{ name: 'x.bpmn', xml: simple('x2') }] })).status).toBe(403);
    expect(await countRows(s, 'flow_definition')).toBe(defs);
  });
});

describe('the leave request: claim, complete through the gateways, survive a restart', () => {
  let first: { businessId: string; processInstanceId: string };
  let before: { kygl: number; kyglHb: number; kyry: number };

  it('a researcher starts it: the approval task waits for research management of the company chain, with to-dos', async () => {
    before = { kygl: await leaveCount(kygl), kyglHb: await leaveCount(kyglHb), kyry: await leaveCount(kyry) };
    first = await startLeave(kyry, 2, '家中有事');
    expect(first.processInstanceId).toMatch(/^\d+$/);
    const task = await taskOf(kyglHb, first.processInstanceId);
    expect(task).toMatchObject({ taskKey: 'managerApprove', taskName: '领导审批', businessId: first.businessId });
    expect(task!.record).toMatchObject({ reason: '家中有事', days: 2 });
    expect(await taskOf(kygl, first.processInstanceId)).toBeTruthy();
    expect(await taskOf(duo, first.processInstanceId)).toBeUndefined();
    expect(await leaveCount(kygl)).toBe(before.kygl + 1);
    expect(await leaveCount(kyglHb)).toBe(before.kyglHb + 1);
    expect(await leaveCount(kyry)).toBe(before.kyry);
    const sent = (await call(s, kyry, 'GET', `${LEAVE}/send-list`)).body.data.records as Json[];
    expect(sent.find((x) => x.processInstanceId === first.processInstanceId)).toMatchObject({ status: 'running', taskName: '领导审批' });
  });

  it('a non-candidate cannot claim (403); another tenant sees no task and cannot touch it (404)', async () => {
    const task = (await taskOf(kygl, first.processInstanceId))!;
    const res = await call(s, kyry, 'POST', `${LEAVE}/confirm-task`, { taskId: task.taskId });
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe('您不是任务「领导审批」的候选人，不能签收');
    const done = await call(s, duo, 'POST', `${LEAVE}/complete-task`, { taskId: task.taskId, outcome: 'approve' });
    expect(done.status).toBe(403);
    // the other tenant's lists hold only its own (flow-versions.test.ts runs leave requests in tenant 100001)
    for (const ep of ['claim-list', 'todo-list', 'done-list', 'send-list']) {
      const ids = ((await call(s, other, 'GET', `${LEAVE}/${ep}?size=200`)).body.data.records as Json[]).map((r) => String(r.processInstanceId));
      expect(ids, ep).not.toContain(first.processInstanceId);
      expect(await countRows(s, 'flow_instance', "id = ANY($1::bigint[]) AND tenant_id <> '100001'", [ids]), ep).toBe(0);
    }
    expect((await call(s, other, 'POST', `${LEAVE}/confirm-task`, { taskId: task.taskId })).status).toBe(404);
    expect((await call(s, other, 'POST', `${LEAVE}/complete-task`, { taskId: task.taskId, outcome: 'approve' })).status).toBe(404);
    expect((await call(s, other, 'GET', `${FLOW}/process/history-flow-list?processInstanceId=${first.processInstanceId}`)).body.data).toEqual([]);
    expect((await call(s, other, 'GET', `${FLOW}/follow/list?size=100`)).body.data.records.map((i: Json) => i.id)).not.toContain(first.processInstanceId);
    expect(await countRows(s, 'flow_task', 'instance_id = $1 AND end_time IS NOT NULL', [first.processInstanceId])).toBe(0);
  });

  it('research management of 华北 claims it: the other candidates lose the to-do, a second claim is refused', async () => {
    const task = (await taskOf(kyglHb, first.processInstanceId))!;
    const res = await call(s, kyglHb, 'POST', `${LEAVE}/confirm-task`, { taskId: task.taskId });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.msg).toBe('签收成功');
    expect(await leaveCount(kygl)).toBe(before.kygl);
    expect(await leaveCount(kyglHb)).toBe(before.kyglHb + 1);
    const again = await call(s, kygl, 'POST', `${LEAVE}/confirm-task`, { taskId: task.taskId });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('任务已被他人签收');
    expect((await call(s, kyglHb, 'GET', `${LEAVE}/claim-list?size=200`)).body.data.records.map((t: Json) => t.taskId)).not.toContain(task.taskId);
  });

  it('return: the gateway sends it back to the applicant, who adjusts and resubmits', async () => {
    const task = (await taskOf(kyglHb, first.processInstanceId))!;
    const bad = await call(s, kyglHb, 'POST', `${LEAVE}/complete-task`, { taskId: task.taskId });
    expect(bad.body.msg).toBe('缺少参数 outcome');
    const res = await call(s, kyglHb, 'POST', `${LEAVE}/complete-task`, { taskId: task.taskId, outcome: 'return', comment: '请补充工作交接安排' });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'running', currentNodes: ['adjust'] });
    expect(await leaveCount(kyglHb)).toBe(before.kyglHb);
    expect(await leaveCount(kyry)).toBe(before.kyry + 1);
    const adjust = (await taskOf(kyry, first.processInstanceId))!;
    expect(adjust).toMatchObject({ taskKey: 'adjust', assignee: kyry.userId });
    const done = (await call(s, kyglHb, 'GET', `${LEAVE}/done-list`)).body.data.records as Json[];
    expect(done.find((t) => t.taskId === task.taskId)).toMatchObject({ outcome: 'return', comment: '请补充工作交接安排' });
    const resub = await call(s, kyry, 'POST', `${LEAVE}/complete-task`, { taskId: adjust.taskId, outcome: 'submit', comment: '已安排交接' });
    expect(resub.body.data).toMatchObject({ currentNodes: ['managerApprove'] });
    expect(await leaveCount(kyry)).toBe(before.kyry);
    expect(await leaveCount(kygl)).toBe(before.kygl + 1);
  });

  it('the state survives a restart: a fresh kernel recovers the instance from PostgreSQL and rejects it', async () => {
    const saved = await s.kernel.database.pool.query('SELECT state IS NOT NULL AS has FROM flow_instance WHERE id = $1', [first.processInstanceId]);
    expect(saved.rows[0].has).toBe(true);
    await s.close();
    s = await testServer();
    kygl = await login(s, 'kygl');
    const task = (await taskOf(kygl, first.processInstanceId))!;
    expect(task.taskKey).toBe('managerApprove');
    const res = await call(s, kygl, 'POST', `${LEAVE}/complete-task`, { taskId: task.taskId, outcome: 'reject', comment: '项目关键期' });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'completed', currentNodes: [] });
    const steps = (await call(s, kyry, 'GET', `${FLOW}/process/steps?processInstanceId=${first.processInstanceId}`)).body.data;
    expect(steps).toMatchObject({ status: 'completed', processKey: 'leave', currentNodes: [] });
    expect(steps.finishedNodes).toEqual(expect.arrayContaining(['applied', 'managerApprove', 'decision', 'adjust', 'rejected']));
    expect(steps.finishedNodes).not.toContain('hrFile');
    expect(steps.xml).toContain('<bpmndi:BPMNDiagram');
    const h = (await call(s, kyry, 'GET', `${FLOW}/process/history-flow-list?processInstanceId=${first.processInstanceId}`)).body.data as Json[];
    const tasks = h.filter((x) => x.historyActivityType === 'UserTask').map((x) => [x.historyActivityId, x.assigneeName, x.outcome, x.comment]);
    expect(tasks).toEqual([
      ['managerApprove', '周审', 'return', '请补充工作交接安排'],
      ['adjust', '刘研', 'submit', '已安排交接'],
      ['managerApprove', '李科', 'reject', '项目关键期'],
    ]);
    expect(h[0]).toMatchObject({ historyActivityId: 'applied', historyActivityType: 'StartEvent' });
    expect(h.at(-1)).toMatchObject({ historyActivityId: 'rejected', historyActivityType: 'EndEvent' });
    expect(await leaveCount(kygl)).toBe(before.kygl);
  });

  it('approve: the record field decides — 2 days end at once, 5 days go on to the administrator’s filing', async () => {
    const short = await startLeave(kyry, 2, '短假');
    const long = await startLeave(kyry, 5, '长假');
    for (const l of [short, long]) {
      const t = (await taskOf(kygl, l.processInstanceId))!;
      const res = await call(s, kygl, 'POST', `${LEAVE}/complete-task`, { taskId: t.taskId, outcome: 'approve' });
      expect(res.status, res.body.msg).toBe(200);
    }
    const sSteps = (await call(s, kyry, 'GET', `${FLOW}/process/steps?businessType=flow/leave&businessId=${short.businessId}`)).body.data;
    expect(sSteps).toMatchObject({ status: 'completed' });
    expect(sSteps.finishedNodes).toContain('approved');
    const lSteps = (await call(s, kyry, 'GET', `${FLOW}/process/steps?processInstanceId=${long.processInstanceId}`)).body.data;
    expect(lSteps).toMatchObject({ status: 'running', currentNodes: ['hrFile'] });
    const filing = (await taskOf(admin, long.processInstanceId))!;
    expect(filing.taskKey).toBe('hrFile');
    expect(await taskOf(kygl, long.processInstanceId)).toBeUndefined();
    const res = await call(s, admin, 'POST', `${LEAVE}/complete-task`, { taskId: filing.taskId, outcome: 'approve' });
    expect(res.body.data).toMatchObject({ status: 'completed' });
    // the detail of a leave is the generic one
    expect((await call(s, kyry, 'GET', `${LEAVE}/detail?id=${long.businessId}`)).body.data).toMatchObject({ days: 5, reason: '长假' });
  });
});

describe('the achievements’ examination runs on its BPMN process', () => {
  it('submit starts achievementExamine at the examination, reject sends it to the registrant, resubmit and approve end it', async () => {
    const thesis = {
      title: `FLOW${Date.now().toString(36)} 稻谷低温储藏`, projectSource: 3, projectName: '智能粮库关键技术研究', projectType: '3', publish: '粮油食品科技',
      publishDate: '2024', issueNumber: '4', pageScope: '12-18', level: '5', scope: '2', deptId: kyry.deptId,
      authorDetailForm: [{ name: '刘研', rank: 1 }], annex: [{ name: '论文.pdf', link: '/upload/20250101/a.pdf' }],
    };
    const rec = (await call(s, kyry, 'POST', '/api/basic/thesis/submit', thesis)).body.data as Json;
    const path = '/basic/thesis';
    const base = { kygl: (await counts(kygl))[path] ?? 0, kyry: (await counts(kyry))[path] ?? 0 };
    expect((await call(s, kyry, 'POST', '/api/basic/examine/submit', { businessId: rec.id, businessType: 'thesis' })).status).toBe(200);
    const steps = async () => (await call(s, kyry, 'GET', `${FLOW}/process/steps?businessType=basic/thesis&businessId=${rec.id}`)).body.data as Json;
    expect(await steps()).toMatchObject({ processKey: 'achievementExamine', status: 'running', currentNodes: ['examine'] });
    expect((await counts(kygl))[path]).toBe(base.kygl + 1);
    // the generic to-do endpoints serve the achievement too: the task is in research management's to-do list
    const task = ((await call(s, kygl, 'GET', '/api/basic/thesis/todo-list?size=200')).body.data.records as Json[]).find((t) => t.businessId === rec.id)!;
    expect(task).toMatchObject({ taskKey: 'examine', taskName: '科研管理审核' });
    // completing it from the to-do screen runs the schema's action (its rules: the reject opinion is required)
    const noOpinion = await call(s, kygl, 'POST', `${FLOW}/process/complete-task`, { taskId: task.taskId, outcome: 'reject' });
    expect(noOpinion.status).toBe(400);
    expect(noOpinion.body.msg).toBe('请输入审核意见');
    const rej = await call(s, kygl, 'POST', `${FLOW}/process/complete-task`, { taskId: task.taskId, outcome: 'reject', comment: '请补充附件' });
    expect(rej.status, rej.body.msg).toBe(200);
    expect((await call(s, kyry, 'GET', `/api/basic/thesis/detail?id=${rec.id}`)).body.data.examineStatus).toBe('3');
    expect(await steps()).toMatchObject({ currentNodes: ['revise'] });
    expect((await counts(kyry))[path]).toBe(base.kyry + 1);
    expect((await call(s, kyry, 'POST', '/api/basic/examine/againSubmit', { businessId: rec.id, businessType: 'thesis', opinion: '已补充' })).status).toBe(200);
    expect(await steps()).toMatchObject({ currentNodes: ['examine'] });
    expect((await call(s, kygl, 'POST', '/api/basic/examinerecord/submit', { businessId: rec.id, businessType: 'thesis', action: 'approve' })).status).toBe(200);
    const end = await steps();
    expect(end).toMatchObject({ status: 'completed', currentNodes: [] });
    expect(end.finishedNodes).toEqual(expect.arrayContaining(['submitted', 'examine', 'decision', 'revise', 'passed']));
    expect((await counts(kygl))[path] ?? 0).toBe(base.kygl);
    expect((await counts(kyry))[path] ?? 0).toBe(base.kyry);
    const done = (await call(s, kygl, 'GET', '/api/basic/todo/list?state=1&size=200')).body.data.records as Json[];
    expect(done.filter((d) => d.businessId === rec.id).length).toBe(2);
  });
});

describe('instances, deployments and push', () => {
  it('deleting an instance needs a reason; it ends the instance, its tasks and their to-dos', async () => {
    const l = await startLeave(kyry, 1, '待删除');
    const base = await leaveCount(kygl);
    const bad = await call(s, admin, 'POST', `${FLOW}/follow/delete-process-instance`, { processInstanceId: l.processInstanceId, deleteReason: '  ' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('请输入删除原因');
    expect(await countRows(s, 'flow_instance', "id = $1 AND run_status = 'running'", [l.processInstanceId])).toBe(1);
    expect((await call(s, kygl, 'POST', `${FLOW}/follow/delete-process-instance`, { processInstanceId: l.processInstanceId, deleteReason: 'x' })).status).toBe(403);
    expect((await call(s, other, 'POST', `${FLOW}/follow/delete-process-instance`, { processInstanceId: l.processInstanceId, deleteReason: 'x' })).status).toBe(404);
    const res = await call(s, admin, 'POST', `${FLOW}/follow/delete-process-instance`, { processInstanceId: l.processInstanceId, deleteReason: '重复提交' });
    expect(res.status, res.body.msg).toBe(200);
    expect(await countRows(s, 'flow_instance', "id = $1 AND run_status = 'deleted' AND delete_reason = '重复提交'", [l.processInstanceId])).toBe(1);
    expect(await countRows(s, 'flow_task', 'instance_id = $1 AND end_time IS NULL', [l.processInstanceId])).toBe(0);
    expect(await leaveCount(kygl)).toBe(base - 1);
  });

  it('a deployment with running instances cannot be deleted', async () => {
    await startLeave(kyry, 1, '运行中');
    const def = ((await call(s, admin, 'GET', `${FLOW}/manager/list?processKey=leave`)).body.data.records as Json[])[0];
    const res = await call(s, admin, 'POST', `${FLOW}/manager/delete-deployment?deploymentIds=${def.deploymentId}`);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('该部署下有正在运行的流程实例，不能删除');
    expect(await countRows(s, 'flow_definition', 'id = $1 AND is_deleted = 0', [def.id])).toBe(1);
  });

  it('a suspended definition cannot be started; active again, it can', async () => {
    const def = ((await call(s, admin, 'GET', `${FLOW}/manager/list?processKey=leave`)).body.data.records as Json[])[0];
    expect((await call(s, admin, 'POST', `${FLOW}/manager/change-state`, { processId: def.id, state: 'suspend' })).status).toBe(200);
    const res = await call(s, kyry, 'POST', `${LEAVE}/start-process`, { startTime: '2026-12-01 09:00:00', endTime: '2026-12-01 18:00:00', days: 1, reason: '挂起时' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('流程「请假流程」已挂起，不能发起');
    expect((await call(s, admin, 'POST', `${FLOW}/manager/change-state`, { processId: def.id, state: 'active' })).status).toBe(200);
    await startLeave(kyry, 1, '恢复后');
  });

  it('push: at most 10 new to-dos per poll, each pushed once; the to-do list, read and remove are the user’s own', async () => {
    for (let i = 0; i < 3; i++) await startLeave(kyry, 1, `推送${i}`);
    const first = (await call(s, kygl, 'GET', '/api/basic/todo/myPush')).body.data as Json[];
    expect(first.length).toBeGreaterThanOrEqual(3);
    expect(first.length).toBeLessThanOrEqual(10);
    expect(first[0]).toMatchObject({ type: 1, path: PATH, title: '请假流程：领导审批' });
    const again = (await call(s, kygl, 'GET', '/api/basic/todo/myPush')).body.data as Json[];
    expect(again.map((x) => x.id)).not.toEqual(expect.arrayContaining(first.map((x) => x.id)));
    const list = (await call(s, kygl, 'GET', '/api/basic/todo/list?size=200')).body.data;
    expect(list.records.length).toBe(Object.values(await counts(kygl)).reduce((a, b) => a + b, 0));
    const mine = list.records[0].id;
    expect((await call(s, kyry, 'GET', `/api/basic/todo/detail?id=${mine}`)).status).toBe(404);
    expect((await call(s, other, 'POST', `/api/basic/todo/remove?ids=${mine}`)).body.data).toBe(0);
    expect(await countRows(s, 'basic_todo', 'id = $1 AND is_deleted = 0', [mine])).toBe(1);
    expect((await call(s, kygl, 'GET', `/api/basic/todo/detail?id=${mine}`)).body.data).toMatchObject({ isRead: 1 });
  });
});
