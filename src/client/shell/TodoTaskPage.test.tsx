// @vitest-environment jsdom
/**
 * A process task's to-do opens its handling page (/work/todo/<id>; issue 11 'To-dos' go-now links), generic over
 * the resource the to-do names (here the leave request's schema, schemas/flow/leave.json):
 * - an open task: the record, the handling form, complete-task of the resource with the to-do's task;
 * - a task already handled: the record read-only with 该任务已办理 and no handling form (English too);
 * - a notice (no task) goes to its screen path; someone else's or an unknown to-do (404) is /404;
 * - `todoHref`: a task's to-do → /work/todo/<id>, another → its path, neither → null.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { App } from 'antd';
import { fail, ok, renderApp, setLang, type FakeServer } from '../runtime/test-utils.js';
import { baseServer, signInAs } from '../runtime/fixtures.js';
import type { ResourceSchema } from '../../shared/schema/types.js';
import leaveJson from '../../../schemas/flow/leave.json';
import '../components/catalog.js';
import { TodoTaskPage } from './TodoTaskPage.js';
import { todoHref } from '../components/TodoCard.js';

vi.mock('../components/BpmnCanvas.js', () => ({ default: () => <div data-testid="bpmn-canvas" /> }));

const LEAVE = leaveJson as unknown as ResourceSchema;
const RECORD = { id: '33', startTime: '2026-12-21 09:00:00', endTime: '2026-12-22 18:00:00', days: 2, reason: '家中有事' };
const STEPS = { processInstanceId: '22', name: '请假流程', version: 1, status: 'running', xml: '<definitions/>', currentNodes: ['managerApprove'], finishedNodes: ['applied'], history: [] };
const TODO = { id: '77', title: '请假流程：领导审批', taskId: '11', businessType: 'flow/leave', businessId: '33', processInstanceId: '22', taskOpen: true, path: '/work/process/leave' };

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  signInAs('kygl');
  server = baseServer([LEAVE]);
  server.on('GET', '/api/blade-desk/process/leave/detail', (r: { query: Record<string, string> }) => ok(r.query.id === '33' ? RECORD : null));
  server.on('GET', '/api/blade-flow/process/steps', STEPS);
  server.on('POST', '/api/blade-desk/process/leave/complete-task', ok({ status: 'completed' }));
});

function at(path: string) {
  return renderApp(
    <App>
      <MemoryRouter initialEntries={['/wel/index', path]} initialIndex={1}>
        <Routes>
          <Route path="/work/todo/:id" element={<TodoTaskPage />} />
          <Route path="/wel/index" element={<p>home</p>} />
          <Route path="/desk/notice" element={<p>notice screen</p>} />
          <Route path="/404" element={<p>not found</p>} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
}

describe('TodoTaskPage', () => {
  it('an open task: the record and the handling form; complete-task gets the to-do’s task', async () => {
    server.on('GET', '/api/basic/todo/detail', (r: { query: Record<string, string> }) => (r.query.id === '77' ? ok(TODO) : fail(404, '数据不存在')));
    at('/work/todo/77');
    expect(await screen.findByText('家中有事')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('同意'));
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(server.calls('/api/blade-desk/process/leave/complete-task')).toHaveLength(1));
    expect(server.calls('/api/blade-desk/process/leave/complete-task')[0].body).toEqual({ taskId: '11', outcome: 'approve', comment: '' });
    expect(await screen.findByText('home')).toBeTruthy();
  });

  it('a handled task: the record with 该任务已办理 and no handling form; English', async () => {
    server.on('GET', '/api/basic/todo/detail', ok({ ...TODO, taskOpen: false }));
    at('/work/todo/77');
    expect(await screen.findByText('家中有事')).toBeTruthy();
    expect(screen.getByText('该任务已办理')).toBeTruthy();
    expect(screen.queryByText('办理结果')).toBeNull();
    setLang('en');
    expect(await screen.findByText('This task has been handled')).toBeTruthy();
  });

  it('a notice goes to its screen; an unknown to-do is /404', async () => {
    server.on('GET', '/api/basic/todo/detail', ok({ id: '78', title: '通知', taskId: null, path: '/desk/notice' }));
    at('/work/todo/78');
    expect(await screen.findByText('notice screen')).toBeTruthy();
  });

  it('an unknown or foreign to-do (404) and a malformed id are /404', async () => {
    server.on('GET', '/api/basic/todo/detail', fail(404, '数据不存在'));
    at('/work/todo/79');
    expect(await screen.findByText('not found')).toBeTruthy();
  });

  it('todoHref: a task’s to-do leads to its handling page, another to its path', () => {
    expect(todoHref({ id: '5', taskId: '9', path: '/work/process/leave' })).toBe('/work/todo/5');
    expect(todoHref({ id: '6', taskId: null, path: '/desk/notice' })).toBe('/desk/notice');
    expect(todoHref({ id: '7' })).toBeNull();
  });
});
