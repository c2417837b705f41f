/**
 * User input records (issue 11 'To-dos': "user input records (system/userinput: myList, list, myPage, detail,
 * submit, remove)"; spec 001 §7 'To-do'): a user's saved inputs (review comments, search words), the schema
 * schemas/system/userinput.json with `scope.own` — everyone but an administrator reads, edits and removes only
 * their own rows — and the generic `myPage` (myList under that name):
 * - a user saves and lists their own (myList, myPage, list, detail); another user sees none of them, cannot
 *   read (404), change (404) or remove (nothing removed) them; the administrator's list has everyone's of the
 *   tenant; another tenant's administrator sees none;
 * - bad input is refused with the field's message and stores nothing; without a session 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let kyry: Session;
let kygl: Session;
let admin: Session;
let other: Session;
const API = '/api/system/userinput';
const tag = Date.now().toString(36);

beforeAll(async () => {
  s = await testServer();
  [kyry, kygl, admin] = await Promise.all(['kyry', 'kygl', 'admin'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
});
afterAll(async () => {
  await s.close();
});

const contents = (page: Json) => (page.records as Json[]).map((r) => r.content as string).filter((c) => c.includes(tag));

describe('system/userinput', () => {
  let mine: string;

  it('a user saves inputs and finds them in myList, myPage, list and detail', async () => {
    for (const [i, content] of [`同意，${tag}`, `请补充材料 ${tag}`].entries()) {
      const res = await call(s, kyry, 'POST', `${API}/submit`, { category: 'comment', content, sort: i });
      expect(res.status, res.body.msg).toBe(200);
      mine ??= res.body.data.id;
    }
    for (const ep of ['myList', 'myPage', 'list']) {
      const page = (await call(s, kyry, 'GET', `${API}/${ep}?current=1&size=10&ascs=sort`)).body.data;
      expect(contents(page), ep).toEqual([`同意，${tag}`, `请补充材料 ${tag}`]);
    }
    const paged = (await call(s, kyry, 'GET', `${API}/myPage?current=2&size=1&content=${encodeURIComponent(tag)}`)).body.data;
    expect(paged).toMatchObject({ current: 2, size: 1, total: 2 });
    expect((await call(s, kyry, 'GET', `${API}/detail?id=${mine}`)).body.data).toMatchObject({ content: `同意，${tag}`, category: 'comment' });
  });

  it('another user sees, changes and removes none of them; the administrator lists them; another tenant sees none', async () => {
    for (const ep of ['myList', 'myPage', 'list']) expect(contents((await call(s, kygl, 'GET', `${API}/${ep}?size=100`)).body.data), ep).toEqual([]);
    expect((await call(s, kygl, 'GET', `${API}/detail?id=${mine}`)).status).toBe(404);
    const edit = await call(s, kygl, 'POST', `${API}/submit`, { id: mine, category: 'comment', content: '改掉' });
    expect(edit.status).toBe(404);
    await call(s, kygl, 'POST', `${API}/remove?ids=${mine}`);
    expect(await countRows(s, 'blade_user_input', "id = $1 AND is_deleted = 0 AND content LIKE '同意%'", [mine])).toBe(1);
    expect(contents((await call(s, admin, 'GET', `${API}/list?size=100`)).body.data)).toHaveLength(2);
    expect(contents((await call(s, other, 'GET', `${API}/list?size=100`)).body.data)).toEqual([]);
    expect((await call(s, other, 'GET', `${API}/detail?id=${mine}`)).status).toBe(404);
    expect((await call(s, null, 'GET', `${API}/myPage`)).status).toBe(401);
  });

  it('bad input is refused with the field’s message and stores nothing; the owner edits and removes', async () => {
    const before = await countRows(s, 'blade_user_input');
    const empty = await call(s, kyry, 'POST', `${API}/submit`, { category: 'comment', content: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('请输入内容');
    const kind = await call(s, kyry, 'POST', `${API}/submit`, { category: 'nonsense', content: 'x' });
    expect(kind.status).toBe(400);
    expect(await countRows(s, 'blade_user_input')).toBe(before);
    expect((await call(s, kyry, 'POST', `${API}/submit`, { id: mine, category: 'comment', content: `同意（改）${tag}` })).status).toBe(200);
    expect((await call(s, kyry, 'POST', `${API}/remove?ids=${mine}`)).status).toBe(200);
    expect(contents((await call(s, kyry, 'GET', `${API}/myPage?size=10`)).body.data)).toEqual([`请补充材料 ${tag}`]);
  });
});
