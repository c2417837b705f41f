/**
 * Content models (issue 14: "a model is a schema of extra fields a channel's content carries"; spec 001 §3
 * channel modelIds; src/server/modules/portal/hooks.ts modelFault): a channel naming models makes its
 * content carry their fields as attributes — a required field missing, a number or a date that is none are
 * refused with the user's message (zh and en), storing nothing; a channel without models asks for nothing.
 * A model's fields are its `form`, designed in the form designer (shared/portal/model-fields.ts): data fields
 * under layout nodes count, a required rule makes a field required; a design content attributes cannot hold
 * (another control, a bad or repeated prop name, no form) is refused with its message, nothing stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';
import { MODEL_FORM_SQL } from '../../src/server/modules/portal/migrations.js';
import { modelFields, modelFormFault } from '../../src/shared/portal/model-fields.js';

let s: TestServer;
let admin: Session;
let kygl: Session;
const TAG = `pm${Date.now().toString(36)}`;
let channelId = '';
let plainId = '';

/** A form as the designer saves it: a grid holding the fields, a required one with its rule. */
const designed = (fields: Array<{ attr: string; label: string; component: string; required?: boolean }>) => ({
  type: 'object',
  'x-component-props': { labelWidth: 120 },
  properties: {
    grid: {
      type: 'void', 'x-component': 'FormGrid',
      properties: Object.fromEntries(fields.map((f) => [f.attr, {
        type: f.component === 'NumberPicker' ? 'number' : 'string', title: f.label, 'x-decorator': 'FormItem', 'x-component': f.component,
        ...(f.required ? { 'x-validator': [{ required: true, message: `${f.label}必须填写` }] } : {}),
      }])),
    },
  },
});

const content = (title: string, attrs: Json[], channel = channelId) => ({ channelId: channel, title: `${TAG} ${title}`, content: '<p>期刊论文</p>', attrs });

beforeAll(async () => {
  s = await testServer();
  [admin, kygl] = await Promise.all([login(s, 'admin'), login(s, 'kygl')]);
  const m = await call(s, admin, 'POST', '/api/portal/model/submit', {
    name: `${TAG} 期刊模型`, code: 'journal',
    form: designed([
      { attr: 'issn', label: 'ISSN', component: 'Input', required: true },
      { attr: 'pages', label: '页数', component: 'NumberPicker' },
      { attr: 'pubdate', label: '出版日期', component: 'DatePicker' },
    ]),
  });
  expect(m.status, JSON.stringify(m.body)).toBe(200);
  const c = await call(s, admin, 'POST', '/api/portal/channel/submit', { title: `${TAG} 期刊论文`, path: `${TAG}-journal`, modelIds: [m.body.data.id] });
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  channelId = c.body.data.id;
  const p = await call(s, admin, 'POST', '/api/portal/channel/submit', { title: `${TAG} 新闻`, path: `${TAG}-news` });
  plainId = p.body.data.id;
});
afterAll(async () => {
  await s?.close();
});

describe('content models', () => {
  it('refuses content that does not fit its channel’s model, with the message, storing nothing', async () => {
    const cases: Array<[string, Json[], string, string]> = [
      ['缺ISSN', [{ attr: 'pages', val: '12' }], '请填写ISSN', 'Please fill in ISSN'],
      ['坏页数', [{ attr: 'issn', val: '1007-2640' }, { attr: 'pages', val: '十二' }], '页数必须是数字', '页数 must be a number'],
      ['坏日期', [{ attr: 'issn', val: '1007-2640' }, { attr: 'pubdate', val: '2024-13-45' }], '出版日期必须是日期（yyyy-MM-dd）', '出版日期 must be a date (yyyy-MM-dd)'],
    ];
    for (const [title, attrs, zh, en] of cases) {
      const r = await call(s, kygl, 'POST', '/api/portal/content/submit', content(title, attrs));
      expect(r.status, title).toBe(400);
      expect(r.body.msg).toBe(zh);
      const e = await call(s, kygl, 'POST', '/api/portal/content/submit', content(title, attrs), { 'accept-language': 'en' });
      expect(e.body.msg).toBe(en);
      expect(await countRows(s, 'portal_content', 'title = $1', [`${TAG} ${title}`])).toBe(0);
    }
  });

  it('stores content that fits; an edit keeps its attributes; a channel without models asks for nothing', async () => {
    const ok = await call(s, kygl, 'POST', '/api/portal/content/submit', content('合格', [{ attr: 'issn', val: '1007-2640' }, { attr: 'pages', val: '12' }, { attr: 'pubdate', val: '2024-05-01' }]));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const edit = await call(s, kygl, 'POST', '/api/portal/content/submit', { id: ok.body.data.id, title: `${TAG} 合格（修订）` });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const cleared = await call(s, kygl, 'POST', '/api/portal/content/submit', { id: ok.body.data.id, attrs: [] });
    expect(cleared.status).toBe(400);
    expect(cleared.body.msg).toBe('请填写ISSN');
    expect((await call(s, kygl, 'GET', `/api/portal/content/detail?id=${ok.body.data.id}`)).body.data.attrs).toHaveLength(3);
    const plain = await call(s, kygl, 'POST', '/api/portal/content/submit', content('新闻', [], plainId));
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
  });

  it('refuses a field design content attributes cannot hold, with the message, storing nothing; a good design is stored', async () => {
    const grid = (props: Json) => ({ type: 'object', properties: { g: { type: 'void', 'x-component': 'FormGrid', properties: props } } });
    const cases: Array<[string, unknown, string, string]> = [
      ['控件', designed([{ attr: 'cover', label: '附图', component: 'FileUpload' }]), '字段「附图」的控件不能用于内容模型（可用：单行文本、多行文本、数字、日期）', 'The field "附图" uses a control a content model cannot hold (allowed: text, long text, number, date)'],
      ['属性', grid({ '1issn': { type: 'string', title: 'ISSN', 'x-component': 'Input' } }), '字段「ISSN」的属性值无效', 'The field "ISSN" has an invalid prop name'],
      ['重复', { type: 'object', properties: { a: { type: 'void', properties: { issn: { type: 'string', title: 'ISSN', 'x-component': 'Input' } } }, issn: { type: 'string', title: 'ISSN2', 'x-component': 'Input' } } }, '字段属性值重复：issn', 'Prop name used twice: issn'],
      ['非表单', { type: 'array', items: {} }, '字段设计不是表单配置', 'The field design is not a form'],
    ];
    for (const [name, form, zh, en] of cases) {
      const r = await call(s, admin, 'POST', '/api/portal/model/submit', { name: `${TAG} 坏模型${name}`, code: 'bad', form });
      expect(r.status, name).toBe(400);
      expect(r.body.msg).toBe(zh);
      const e = await call(s, admin, 'POST', '/api/portal/model/submit', { name: `${TAG} 坏模型${name}`, code: 'bad', form }, { 'accept-language': 'en' });
      expect(e.body.msg).toBe(en);
      expect(await countRows(s, 'portal_model', 'name = $1', [`${TAG} 坏模型${name}`])).toBe(0);
    }
    // an edit that breaks a stored model's design changes nothing
    const ok = await call(s, admin, 'POST', '/api/portal/model/submit', { name: `${TAG} 好模型`, code: 'good', form: designed([{ attr: 'doi', label: 'DOI', component: 'Input.TextArea' }]) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const bad = await call(s, admin, 'POST', '/api/portal/model/submit', { id: ok.body.data.id, form: designed([{ attr: 'doi', label: 'DOI', component: 'Select' }]) });
    expect(bad.status).toBe(400);
    const stored = (await call(s, admin, 'GET', `/api/portal/model/detail?id=${ok.body.data.id}`)).body.data;
    expect(stored.form.properties.grid.properties.doi['x-component']).toBe('Input.TextArea');
  });
});

describe('models stored before the form designer', () => {
  it('get the form of their former field list (portal/0002_model_form), inside a transaction rolled back', async () => {
    const client = await s.kernel.database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('ALTER TABLE portal_model ADD COLUMN IF NOT EXISTS fields jsonb');
      const id = '9' + String(Date.now()).slice(-15);
      await client.query(`INSERT INTO portal_model (id, tenant_id, name, code, fields) VALUES ($1, '000000', $2, 'old', $3::jsonb)`, [
        id, `${TAG} 旧模型`, JSON.stringify([{ attr: 'issn', label: 'ISSN', component: 'Input', required: true }, { attr: 'pages', label: '页数', component: 'NumberPicker' }, { label: '无属性' }]),
      ]);
      await client.query(MODEL_FORM_SQL);
      const form = (await client.query('SELECT form FROM portal_model WHERE id = $1', [id])).rows[0].form;
      expect(modelFields(form)).toEqual([
        { attr: 'issn', label: 'ISSN', labelEn: 'ISSN', component: 'Input', required: true },
        { attr: 'pages', label: '页数', labelEn: '页数', component: 'NumberPicker', required: false },
      ]);
      expect(modelFormFault(form)).toBeNull();
      // a model that has a form keeps it
      await client.query(MODEL_FORM_SQL);
      expect((await client.query('SELECT form FROM portal_model WHERE id = $1', [id])).rows[0].form).toEqual(form);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
