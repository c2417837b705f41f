/**
 * To-do texts in both languages (src/server/modules/flow/todo.ts "Both languages"; bpmn.ts `kc:nameEn`): the
 * home page's to-do cards (myTodo), the notice pop-up (myPush), the list and the detail answer a to-do's title
 * and content in the caller's language:
 *
 * - a task's to-do: `<process name>：<task name>` in zh, `<process nameEn>: <task nameEn>` in en (the shipped
 *   leave process names both); the list's title filter finds it by either text;
 * - a template with English texts fills them with the English names; without them the English default stays;
 *   an English text over 200 characters is refused with its message and stores nothing;
 * - a notice written in one language reads the same in both.
 * Templates written here are removed at the end (the files share one database).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let kyry: Session, kygl: Session, admin: Session;
const LEAVE = '/api/blade-desk/process/leave';
const TPL = '/api/system/todotemplate';
const tag = `i18n${Date.now().toString(36)}`;
const EN = { 'accept-language': 'en' };

beforeAll(async () => {
  s = await testServer();
  [kyry, kygl, admin] = await Promise.all(['kyry', 'kygl', 'admin'].map((a) => login(s, a)));
});
afterAll(async () => {
  await s.kernel.database.pool.query(`UPDATE blade_todo_template SET is_deleted = 1 WHERE name LIKE $1`, [`%${tag}%`]);
  await s.close();
});

async function startLeave(reason: string): Promise<void> {
  const res = await call(s, kyry, 'POST', `${LEAVE}/start-process`, { startTime: '2026-12-29 09:00:00', endTime: '2026-12-29 18:00:00', days: 1, reason });
  expect(res.status, res.body.msg).toBe(200);
}
const find = (records: Json[], reason: string) => records.find((t) => t.businessName === reason);
const listed = async (who: Session, reason: string, headers?: Record<string, string>, query = '') =>
  find((await call(s, who, 'GET', `/api/basic/todo/list?size=200${query}`, undefined, headers)).body.data.records as Json[], reason);

describe('to-do texts in zh and en', () => {
  it('a task’s to-do reads in the caller’s language on the cards, the pop-up, the list and the detail', async () => {
    const reason = `双语请假${tag}`;
    await startLeave(reason);
    const zh = await listed(kygl, reason);
    expect(zh).toMatchObject({ title: '请假流程：领导审批', content: reason });
    const en = await listed(kygl, reason, EN);
    expect(en).toMatchObject({ title: 'Leave request: Manager approval', content: reason, description: reason });
    // the home page's cards
    const cards = (await call(s, kygl, 'GET', '/api/basic/todo/myTodo?size=50', undefined, EN)).body.data.records as Json[];
    expect(find(cards, reason)?.title).toBe('Leave request: Manager approval');
    // the notice pop-up: pushed once, in the language of the poll
    const pushed = (await call(s, kygl, 'GET', '/api/basic/todo/myPush', undefined, EN)).body.data as Json[];
    expect(find(pushed, reason)?.title).toBe('Leave request: Manager approval');
    const detail = await call(s, kygl, 'GET', `/api/basic/todo/detail?id=${zh!.id}`, undefined, EN);
    expect(detail.body.data.title).toBe('Leave request: Manager approval');
    expect((await call(s, kygl, 'GET', `/api/basic/todo/detail?id=${zh!.id}`)).body.data.title).toBe('请假流程：领导审批');
    // the list's title filter matches either text
    expect(await listed(kygl, reason, EN, `&title=${encodeURIComponent('Manager approval')}`)).toBeTruthy();
    expect(await listed(kygl, reason, undefined, `&title=${encodeURIComponent('领导审批')}`)).toBeTruthy();
    expect(await listed(kygl, reason, undefined, `&title=${encodeURIComponent('no such words')}`)).toBeUndefined();
  });

  it('a template’s English texts are filled with the English names; without them the English default stays', async () => {
    const before = await countRows(s, 'blade_todo_template');
    const long = await call(s, admin, 'POST', `${TPL}/submit`, { code: 'task.leave', name: `长英文${tag}`, title: '请审批', titleEn: 'x'.repeat(201), enabled: 1 });
    expect(long.status).toBe(400);
    expect(long.body.msg).toBe('英文标题不能超过200个字符');
    expect((await call(s, admin, 'POST', `${TPL}/submit`, { code: 'task.leave', name: `长英文${tag}`, title: '请审批', titleEn: 'x'.repeat(201), enabled: 1 }, EN)).body.msg)
      .toBe('The English title must be at most 200 characters');
    expect(await countRows(s, 'blade_todo_template')).toBe(before);
    const tpl = await call(s, admin, 'POST', `${TPL}/submit`, {
      code: 'task.leave', name: `双语模板${tag}`, title: '请审批{initiatorName}的请假：{businessName}', content: '{processName} · {taskName}',
      titleEn: 'Please approve the leave of {initiatorName}: {businessName}', contentEn: '{processName} · {taskName}', enabled: 1,
    });
    expect(tpl.status, tpl.body.msg).toBe(200);
    const reason = `模板双语${tag}`;
    await startLeave(reason);
    expect(await listed(kygl, reason)).toMatchObject({ title: `请审批刘研的请假：${reason}`, content: '请假流程 · 领导审批' });
    expect(await listed(kygl, reason, EN)).toMatchObject({ title: `Please approve the leave of 刘研: ${reason}`, content: 'Leave request · Manager approval' });
    // the same template without English: English screens keep the default English texts
    expect((await call(s, admin, 'POST', `${TPL}/submit`, { id: tpl.body.data.id, code: 'task.leave', name: `双语模板${tag}`, title: '请审批{businessName}', titleEn: '', contentEn: '', enabled: 1 })).status).toBe(200);
    const plain = `模板中文${tag}`;
    await startLeave(plain);
    expect(await listed(kygl, plain)).toMatchObject({ title: `请审批${plain}` });
    expect(await listed(kygl, plain, EN)).toMatchObject({ title: 'Leave request: Manager approval', content: plain });
    expect((await call(s, admin, 'POST', `${TPL}/remove?ids=${tpl.body.data.id}`)).status).toBe(200);
  });

  it('a notice written in one language reads the same in both', async () => {
    const title = `系统维护通知${tag}`;
    const sent = await call(s, admin, 'POST', '/api/basic/todo/submit', { title, content: '今晚22点维护', userIds: [kygl.userId] });
    expect(sent.status, sent.body.msg).toBe(200);
    const en = ((await call(s, kygl, 'GET', '/api/basic/todo/myMessage?size=50', undefined, EN)).body.data.records as Json[]).find((r) => r.title === title);
    expect(en).toMatchObject({ title, content: '今晚22点维护' });
    // other files count kygl's open to-dos by path: the notice (no path) goes
    expect((await call(s, kygl, 'POST', `/api/basic/todo/remove?ids=${en!.id}`)).status).toBe(200);
  });
});
