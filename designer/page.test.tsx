// @vitest-environment jsdom
/**
 * The designer's route: `/designer/basic/patent` loads `GET /api/system/schema/detail?name=basic/patent` onto
 * the canvas (titled with the resource); a role other than the administrator is told the designer is for
 * administrators (the server refuses its writes anyway). A record's form (a list operation of result design:
 * `/designer/portal/model?id=&field=form`) opens the record's field design for whoever may edit the record,
 * titled with its name, and 保存 posts it back through the resource's submit (no publishing).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { App } from 'antd';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import fs from 'node:fs';
import path from 'node:path';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { FakeServer, ok, renderApp, setLang, type FakeRequest } from '../src/client/runtime/test-utils.js';
import { updateSession } from '../src/client/runtime/session.js';
import './test-utils.js';
import DesignerPage from './DesignerPage.js';

let server: FakeServer;
const patent = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../schemas/basic/patent.json'), 'utf8'));
const model = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../schemas/portal/model.json'), 'utf8'));
const MODEL_FORM = { type: 'object', properties: { issn: { type: 'string', title: '期刊ISSN', 'x-decorator': 'FormItem', 'x-component': 'Input' } } };

function login(roleAlias: string) {
  updateSession({ token: 't', roles: [{ id: '1', roleName: roleAlias, roleAlias }], currentRoleId: '1' });
}

function open(url: string) {
  const router = createMemoryRouter([{ path: '/designer/*', element: <DesignerPage /> }], { initialEntries: [url] });
  return renderApp(
    <App>
      <RouterProvider router={router} />
    </App>,
  );
}

beforeEach(() => {
  setLang('zh');
  server = new FakeServer()
    .on('GET', '/api/system/schema/detail', (req: FakeRequest) => ok(req.query.name === 'portal/model' ? model : patent))
    .on('GET', '/api/portal/model/detail', (req: FakeRequest) => ok({ id: req.query.id, name: '期刊模型', code: 'journal', form: MODEL_FORM }))
    .on('POST', '/api/portal/model/submit', (req: FakeRequest) => ok(req.body))
    .install();
});
afterEach(() => updateSession({ token: undefined, roles: [], currentRoleId: undefined }));

describe('designer route', () => {
  it('opens a resource by name', async () => {
    login('administrator');
    open('/designer/basic/patent');
    expect(await screen.findByText('表单设计 · 专利 (basic/patent)', {}, { timeout: 10_000 })).toBeTruthy();
    expect((await screen.findAllByText('专利名称', {}, { timeout: 10_000 })).length).toBeGreaterThan(0);
    expect(server.calls('/api/system/schema/detail')[0].query).toEqual({ name: 'basic/patent' });
    expect(screen.getByRole('button', { name: /保\s*存/ })).toBeTruthy();
  });

  it('starts empty without a name, with save hidden', async () => {
    login('administrator');
    open('/designer');
    expect(await screen.findByText('从左侧点击或拖动组件到这里', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /保\s*存/ })).toBeNull();
    expect(server.calls('/api/system/schema/detail')).toHaveLength(0);
  });

  it('tells other roles it is for administrators', async () => {
    login('researcher');
    open('/designer/basic/patent');
    expect(await screen.findByText('只有管理员可以使用表单设计')).toBeTruthy();
  });

  it('designs a record’s form and saves it back through the resource’s submit, for a role that is not the administrator', async () => {
    login('kygl');
    open('/designer/portal/model?id=21&field=form');
    expect(await screen.findByText('表单设计 · 内容模型 · 期刊模型', {}, { timeout: 10_000 })).toBeTruthy();
    expect((await screen.findAllByText('期刊ISSN', {}, { timeout: 10_000 })).length).toBeGreaterThan(0);
    expect(server.calls('/api/portal/model/detail')[0].query).toEqual({ id: '21' });
    expect(screen.queryByRole('button', { name: /发\s*布/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(server.calls('/api/portal/model/submit')).toHaveLength(1));
    const body = server.calls('/api/portal/model/submit')[0].body as { id: string; form: { type: string; properties: Record<string, Record<string, unknown>> } };
    expect(body.id).toBe('21');
    expect(body.form.type).toBe('object');
    expect(body.form.properties.issn).toMatchObject({ title: '期刊ISSN', 'x-component': 'Input' });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });
});
