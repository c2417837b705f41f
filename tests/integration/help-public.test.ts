/**
 * Public help (spec 000 §2.2: /helpCenter is a public route; §7 'a dictionary-tree call with code help_tip;
 * lookups websiteTip and helpTip'; §8 unknown codes; issue 18): the help articles (help_tip) and the website
 * tips (websiteTip) are public system dictionaries — `GET /api/blade-system/dict/dictionary?code=` answers
 * them without a token (and `dictionary-tree?code=`, the help centre's call, with the entries' own words only),
 * and nothing else: other system dictionaries and every business dictionary (a
 * tenant's own) answer an anonymous caller 401. Every tip a schema asks for is seeded with real content.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kyry: Session;
let other: Session; // administrator of tenant 100001
const DICT = '/api/blade-system/dict';
const TAG = `hp${Date.now().toString(36)}`;

beforeAll(async () => {
  s = await testServer();
  [admin, kyry, other] = await Promise.all([login(s, 'admin'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
});
afterAll(async () => {
  await s?.close();
});

const read = (who: Session | null, code: string) => call(s, who, 'GET', `${DICT}/dictionary?code=${encodeURIComponent(code)}`);

/** Every `HelpTip` a schema (resource or page) asks for: kind and code. */
function tipsAskedFor(): Array<{ file: string; kind: string; code: string }> {
  const out: Array<{ file: string; kind: string; code: string }> = [];
  const walk = (dir: string) => {
    for (const f of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, f.name);
      if (f.isDirectory()) walk(p);
      else if (f.name.endsWith('.json')) {
        const visit = (n: unknown) => {
          if (!n || typeof n !== 'object') return;
          const node = n as Json;
          if (node['x-component'] === 'HelpTip') out.push({ file: p, kind: node['x-component-props']?.kind ?? 'help', code: node['x-component-props']?.code });
          for (const v of Object.values(node)) visit(v);
        };
        visit(JSON.parse(fs.readFileSync(p, 'utf8')));
      }
    }
  };
  walk(path.resolve('schemas'));
  return out;
}

describe('help articles and website tips without signing in', () => {
  it('an anonymous visitor reads the seeded help articles: the guide 003 and one per achievement screen', async () => {
    const { status, body } = await read(null, 'help_tip');
    expect(status).toBe(200);
    const keys = body.data.map((e: Json) => e.dictKey);
    expect(keys).toEqual(expect.arrayContaining(['003', 'basic_patent', 'basic_thesis', 'basic_softwarecopyright', 'basic_book', 'basic_award', 'basic_standard']));
    const guide = body.data.find((e: Json) => e.dictKey === '003');
    expect(guide.dictValue.split('\n')[0]).toBe('科技成果登记指南');
    expect(guide.dictValueEn.split('\n')[0]).toBe('Registering achievements');
    for (const e of body.data) {
      expect(e.dictValue.split('\n').length, e.dictKey).toBeGreaterThan(1); // a title and a text
      expect(e.dictValueEn, e.dictKey).toBeTruthy();
      expect(e).not.toHaveProperty('tenantId');
    }
    const tips = await read(null, 'websiteTip');
    expect(tips.status).toBe(200);
    expect(tips.body.data.map((e: Json) => e.dictKey)).toEqual(expect.arrayContaining(['wel_dashboard', 'help_center']));
  });

  it('every tip a schema asks for is seeded, in zh and en', async () => {
    const asked = tipsAskedFor();
    expect(asked.length).toBeGreaterThanOrEqual(7);
    const help = (await read(null, 'help_tip')).body.data as Json[];
    const website = (await read(null, 'websiteTip')).body.data as Json[];
    for (const a of asked) {
      const entry = (a.kind === 'website' ? website : help).find((e) => e.dictKey === a.code);
      expect(entry, `${a.file}: ${a.kind} ${a.code}`).toBeTruthy();
      expect(entry!.dictValueEn, a.code).toBeTruthy();
    }
  });

  it('the same articles for every tenant and for visitors (platform data): nothing of a tenant in them', async () => {
    const anon = (await read(null, 'help_tip')).body.data;
    const mine = (await read(kyry, 'help_tip')).body.data;
    const theirs = (await read(other, 'help_tip')).body.data;
    expect(mine).toEqual(anon);
    expect(theirs).toEqual(anon);
  });

  it('any other dictionary, an unknown code and every business dictionary answer a visitor 401', async () => {
    for (const code of ['patent_type', 'sex', `${TAG}none`]) {
      const res = await read(null, code);
      expect(res.status, code).toBe(401);
      expect(res.body.data ?? null, code).toBeNull();
    }
    const biz = await call(s, null, 'GET', `${DICT.replace('dict', 'dict-biz')}/dictionary?code=research_field`);
    expect(biz.status).toBe(401);
    // a signed-in user still reads them
    expect((await read(kyry, 'patent_type')).body.data.length).toBeGreaterThan(0);
  });

  it("the help centre's tree call (dictionary-tree?code=help_tip) answers a visitor the entries' own words only", async () => {
    const anon = await call(s, null, 'GET', `${DICT}/dictionary-tree?code=help_tip`);
    expect(anon.status).toBe(200);
    const flat = (nodes: Json[]): Json[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);
    const all = flat(anon.body.data);
    expect(all.map((n) => n.dictKey)).toEqual(expect.arrayContaining(['003', 'basic_patent', 'basic_standard']));
    for (const n of all) expect(Object.keys(n).sort()).toEqual(['children', 'code', 'dictKey', 'dictValue', 'dictValueEn', 'hasChildren', 'id', 'parentId', 'sort']);
    // signed in, the same entries
    const mine = await call(s, kyry, 'GET', `${DICT}/dictionary-tree?code=help_tip`);
    expect(flat(mine.body.data).map((n) => n.id)).toEqual(all.map((n) => n.id));
    // every other tree is closed to visitors: no code (all dictionaries), a private one, a business one
    for (const url of [`${DICT}/dictionary-tree`, `${DICT}/dictionary-tree?code=patent_type`, `${DICT}/dictionary-tree?code=${TAG}none`, `/api/blade-system/dict-biz/dictionary-tree?code=research_field`]) {
      expect((await call(s, null, 'GET', url)).status, url).toBe(401);
    }
  });

  it('bad input is a 400, not a 500', async () => {
    expect((await read(null, 'x'.repeat(256))).status).toBe(400);
    expect((await call(s, null, 'GET', `${DICT}/dictionary`)).status).toBe(400);
    expect((await call(s, null, 'GET', `${DICT}/dictionary-tree?code=${'x'.repeat(256)}`)).status).toBe(400);
  });
});

describe('who makes a dictionary public', () => {
  it('a platform administrator: a dictionary made public is read by visitors, and no longer once made private again', async () => {
    const add = await call(s, admin, 'POST', `${DICT}/submit`, { code: TAG, dictKey: '-1', dictValue: `${TAG} 名称`, sort: 1, isSealed: 0, isPublic: 1 });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    expect(add.body.data.isPublic).toBe(1);
    const child = await call(s, admin, 'POST', `${DICT}/submitChild`, { parentId: add.body.data.id, dictKey: '1', dictValue: '公开条目', sort: 1, isSealed: 0 });
    expect(child.status).toBe(200);
    expect((await read(null, TAG)).body.data.map((e: Json) => e.dictValue)).toEqual(['公开条目']);
    const hide = await call(s, admin, 'POST', `${DICT}/submit`, { ...add.body.data, isPublic: 0 });
    expect(hide.status).toBe(200);
    expect((await read(null, TAG)).status).toBe(401);
  });

  it('an administrator of another tenant and a researcher cannot (403), and nothing changes', async () => {
    const patentType = (await call(s, admin, 'GET', `${DICT}/parent-list?code=patent_type`)).body.data.records[0] as Json;
    expect(patentType.code).toBe('patent_type');
    for (const who of [other, kyry]) {
      const res = await call(s, who, 'POST', `${DICT}/submit`, { ...patentType, isPublic: 1 });
      expect(res.status).toBe(403);
    }
    expect(await countRows(s, 'blade_dict', "code = 'patent_type' AND parent_id = 0 AND is_public = 1")).toBe(0);
    expect((await read(null, 'patent_type')).status).toBe(401);
  });

  it('isPublic takes only 0 or 1 (the message, nothing stored)', async () => {
    const res = await call(s, admin, 'POST', `${DICT}/submit`, { code: `${TAG}bad`, dictKey: '-1', dictValue: 'x', sort: 1, isSealed: 0, isPublic: 2 });
    expect(res.status).toBe(400);
    expect(res.body.data[0].field).toBe('isPublic');
    expect(await countRows(s, 'blade_dict', 'code = $1', [`${TAG}bad`])).toBe(0);
  });
});
