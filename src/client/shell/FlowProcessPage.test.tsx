// @vitest-environment jsdom
/**
 * The process pages of a flow resource (spec 000 §2.3: /work/process/leave/form|handle|detail; issue 11),
 * through the leave request's own schema (schemas/flow/leave.json) on the menu path /work/process/leave:
 * - handle: the request read-only with its diagram, the handling form (an outcome is required, nothing is
 *   posted without one), complete-task posted with the task id, outcome and comment, 办理成功; with 退回 the
 *   steps the instance passed to choose from, the chosen one sent as returnTo;
 * - detail: the request read-only with its diagram, no handling form; English texts;
 * - form: the empty form validates with the schema's messages and posts nothing until filled;
 * - a path the role's menu does not have is /404.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { App } from 'antd';
import { ok, renderApp, setLang, type FakeServer } from '../runtime/test-utils.js';
import { baseServer, signInAs } from '../runtime/fixtures.js';
import type { ResourceSchema } from '../../shared/schema/types.js';
import leaveJson from '../../../schemas/flow/leave.json';
import '../components/catalog.js';
import { FlowProcessPage } from './FlowProcessPage.js';

vi.mock('../components/BpmnCanvas.js', () => ({ default: () => <div data-testid="bpmn-canvas" /> }));

const LEAVE = leaveJson as unknown as ResourceSchema;
const MENUS = [
  {
    id: 'w', parentId: '0', code: 'work', name: '工作台', nameEn: 'Workbench', path: '/work', category: 1, isOpen: 1, isEnabled: true, resource: null, meta: { roles: [] },
    children: [{ id: 'wl', parentId: 'w', code: 'work_leave', name: '请假申请', nameEn: 'Leave requests', path: '/work/process/leave', category: 1, isOpen: 1, isEnabled: true, resource: 'flow/leave', meta: { roles: [] }, children: [] }],
  },
];
const RECORD = { id: '33', startTime: '2026-12-21 09:00:00', endTime: '2026-12-22 18:00:00', days: 2, reason: '家中有事' };
const STEPS = { processInstanceId: '22', name: '请假流程', version: 1, status: 'running', xml: '<definitions/>', currentNodes: ['managerApprove'], finishedNodes: ['applied'], history: [] };

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  signInAs('kygl');
  server = baseServer([LEAVE]);
  server.on('GET', '/api/blade-system/menu/routes', MENUS);
  server.on('GET', '/api/blade-desk/process/leave/detail', (r: { query: Record<string, string> }) => ok(r.query.id === '33' ? RECORD : null));
  server.on('GET', '/api/blade-flow/process/steps', STEPS);
  server.on('POST', '/api/blade-desk/process/leave/complete-task', ok({ status: 'completed' }));
  server.on('POST', '/api/blade-desk/process/leave/start-process', ok({ businessId: '34', processInstanceId: '23' }));
});

function at(path: string) {
  return renderApp(
    <App>
      <MemoryRouter initialEntries={['/work/todo', path]} initialIndex={1}>
        <Routes>
          <Route path="/work/process/:process/:mode/*" element={<FlowProcessPage />} />
          <Route path="/work/todo" element={<p>to-do list</p>} />
          <Route path="/404" element={<p>not found</p>} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
}

describe('FlowProcessPage', () => {
  it('handle: the request with its diagram; an outcome is required; complete-task gets the task, outcome and comment', async () => {
    at('/work/process/leave/handle/11/22/33');
    expect(await screen.findByText('家中有事')).toBeTruthy();
    expect(await screen.findByTestId('bpmn-viewer')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('请选择办理结果')).toBeTruthy();
    expect(server.calls('/api/blade-desk/process/leave/complete-task')).toHaveLength(0);
    fireEvent.click(screen.getByLabelText('同意'));
    fireEvent.change(screen.getByLabelText('办理意见'), { target: { value: '同意，注意交接' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(server.calls('/api/blade-desk/process/leave/complete-task')).toHaveLength(1));
    expect(server.calls('/api/blade-desk/process/leave/complete-task')[0].body).toEqual({ taskId: '11', outcome: 'approve', comment: '同意，注意交接' });
    expect(await screen.findByText('办理成功')).toBeTruthy();
    expect(await screen.findByText('to-do list')).toBeTruthy(); // back where the user came from
  });

  it('handle with 退回: the step to return to is one the instance passed, sent as returnTo', async () => {
    server.on('GET', '/api/blade-flow/process/steps', {
      ...STEPS,
      history: [
        { id: 'h1', historyActivityId: 'applied', historyActivityName: '提交申请', historyActivityType: 'StartEvent' },
        { id: 'h2', historyActivityId: 'managerApprove', historyActivityName: '领导审批', historyActivityType: 'UserTask', outcome: 'return' },
        { id: 'h3', historyActivityId: 'adjust', historyActivityName: '调整申请', historyActivityType: 'UserTask', outcome: 'submit' },
      ],
    });
    at('/work/process/leave/handle/11/22/33');
    expect(await screen.findByText('家中有事')).toBeTruthy();
    expect(screen.queryByText('退回到')).toBeNull(); // only with 退回
    fireEvent.click(screen.getByLabelText('退回'));
    expect(await screen.findByText('退回到')).toBeTruthy();
    fireEvent.mouseDown(document.querySelector('.kc-flow-record .ant-select-selector')!);
    const options = await waitFor(() => {
      const found = [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent);
      expect(found).toEqual(['领导审批', '调整申请']);
      return document.querySelectorAll('.ant-select-item-option');
    });
    fireEvent.click(options[1]);
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(server.calls('/api/blade-desk/process/leave/complete-task')).toHaveLength(1));
    expect(server.calls('/api/blade-desk/process/leave/complete-task')[0].body).toEqual({ taskId: '11', outcome: 'return', comment: '', returnTo: 'adjust' });
  });

  it('detail: the request and its diagram, no handling form; in English', async () => {
    setLang('en');
    at('/work/process/leave/detail/22/33');
    expect(await screen.findByText('家中有事')).toBeTruthy();
    expect(await screen.findByTestId('bpmn-viewer')).toBeTruthy();
    expect(screen.getByText('Leave request')).toBeTruthy();
    expect(screen.queryByText('Outcome')).toBeNull();
    expect(server.calls('/api/blade-flow/process/steps')[0].query).toMatchObject({ businessType: 'flow/leave', businessId: '33' });
  });

  it('form: the empty form shows the schema’s messages and posts nothing', async () => {
    at('/work/process/leave/form/5');
    const card = (await screen.findByText('请假申请')).closest('.ant-card') as HTMLElement;
    fireEvent.click(within(card).getByRole('button', { name: /提\s*交/ }));
    expect(await screen.findByText('请选择开始时间')).toBeTruthy();
    expect(screen.getByText('请输入请假理由')).toBeTruthy();
    expect(server.calls('/api/blade-desk/process/leave/start-process')).toHaveLength(0);
  });

  it('a process the role’s menu does not have is /404', async () => {
    at('/work/process/unknown/detail/22/33');
    expect(await screen.findByText('not found')).toBeTruthy();
  });

  it('an unknown mode is /404', async () => {
    at('/work/process/leave/edit/22/33');
    expect(await screen.findByText('not found')).toBeTruthy();
  });
});
