// @vitest-environment jsdom
/**
 * The designer's route: `/designer/basic/patent` loads `GET /api/system/schema/detail?name=basic/patent` onto
 * the canvas (titled with the resource); a role other than the administrator is told the designer is for
 * administrators (the server refuses its writes anyway).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { App } from 'antd';
import { screen } from '@testing-library/react';
import fs from 'node:fs';
import path from 'node:path';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { FakeServer, renderApp, setLang } from '../src/client/runtime/test-utils.js';
import { updateSession } from '../src/client/runtime/session.js';
import './test-utils.js';
import DesignerPage from './DesignerPage.js';

let server: FakeServer;
const patent = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../schemas/basic/patent.json'), 'utf8'));

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
  server = new FakeServer().on('GET', '/api/system/schema/detail', patent).install();
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
});
