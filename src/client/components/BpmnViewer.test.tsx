// @vitest-environment jsdom
/**
 * The process diagram (`GET /api/blade-flow/process/steps`): asks for the instance (or the record's newest
 * instance, reading the id of the surrounding form), hands the XML and the current and finished nodes to the
 * lazily loaded bpmn-js canvas (replaced here: bpmn-js needs SVG layout jsdom lacks), shows the legend and the
 * steps taken, in both languages; the registry knows it.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { screen } from '@testing-library/react';
import { createForm } from '@formily/core';
import { FormProvider } from '@formily/react';
import { fail, ok, renderApp, setLang, type FakeServer } from '../runtime/test-utils.js';
import { baseServer } from '../runtime/fixtures.js';
import './catalog.js';
import { components } from './registry.js';
import { BpmnViewer, markersOf, STEPS_ENDPOINT } from './BpmnViewer.js';

const drawn: Array<{ xml: string; current: string[]; finished: string[] }> = [];
vi.mock('./BpmnCanvas.js', () => ({
  default: (p: { xml: string; current: string[]; finished: string[] }) => {
    drawn.push(p);
    return <div data-testid="bpmn-canvas">{p.xml.length}</div>;
  },
}));

const XML = '<definitions><process id="leave"/></definitions>';
const STEPS = {
  processInstanceId: '900', name: '请假流程', version: 2, status: 'running', xml: XML,
  currentNodes: ['managerApprove'], finishedNodes: ['applied', 'managerApprove', 'decision', 'adjust'],
  history: [
    { id: 'h1', historyActivityId: 'applied', historyActivityName: '提交申请', historyActivityType: 'StartEvent', endTime: '2026-11-01 09:00:00' },
    { id: 'h2', historyActivityId: 'managerApprove', historyActivityName: '领导审批', historyActivityType: 'UserTask', assigneeName: '周审', outcome: 'return', comment: '请补充交接', endTime: '2026-11-01 10:00:00' },
    { id: 'h3', historyActivityId: 'decision', historyActivityName: '审批结果', historyActivityType: 'ExclusiveGateway', endTime: '2026-11-01 10:00:00' },
    { id: 'h4', historyActivityId: 'adjust', historyActivityName: '调整申请', historyActivityType: 'UserTask', assigneeName: '刘研', outcome: 'submit', comment: null, endTime: '2026-11-01 11:00:00' },
  ],
};

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  drawn.length = 0;
  server = baseServer();
  server.on('GET', STEPS_ENDPOINT, (r: { query: Record<string, string> }) => (r.query.processInstanceId === '900' || r.query.businessId === '77' ? ok(STEPS) : fail(404, '数据不存在')));
});

describe('BpmnViewer', () => {
  it('markersOf: the current nodes, and the finished ones that are not current again', () => {
    expect(markersOf(STEPS)).toEqual({ current: ['managerApprove'], finished: ['applied', 'decision', 'adjust'] });
    expect(markersOf({ currentNodes: [], finishedNodes: ['a', 'a', 'b'] })).toEqual({ current: [], finished: ['a', 'b'] });
  });

  it('draws the instance with its current and finished nodes, the legend and the steps taken', async () => {
    renderApp(<BpmnViewer processInstanceId="900" />);
    const root = await screen.findByTestId('bpmn-viewer');
    expect(JSON.parse(root.getAttribute('data-current')!)).toEqual(['managerApprove']);
    expect(JSON.parse(root.getAttribute('data-finished')!)).toEqual(['applied', 'decision', 'adjust']);
    await screen.findByTestId('bpmn-canvas');
    expect(drawn.at(-1)).toEqual({ xml: XML, current: ['managerApprove'], finished: ['applied', 'decision', 'adjust'] });
    expect(server.calls(STEPS_ENDPOINT)[0].query).toEqual({ processInstanceId: '900' });
    for (const text of ['请假流程 v2', '进行中', '当前节点', '已完成节点', '周审', '退回', '请补充交接', '刘研', '提交']) expect(screen.getByText(text)).toBeTruthy();
    // only user tasks are listed as steps
    expect(screen.queryByText('审批结果')).toBeNull();
  });

  it('inside a record form it shows the record’s newest instance; in English; nothing to show says so', async () => {
    setLang('en');
    const form = createForm({ initialValues: { id: '77' }, readPretty: true });
    const { unmount } = renderApp(
      <FormProvider form={form}>
        <BpmnViewer businessType="flow/leave" />
      </FormProvider>,
    );
    await screen.findByTestId('bpmn-viewer');
    expect(server.calls(STEPS_ENDPOINT).at(-1)!.query).toEqual({ businessType: 'flow/leave', businessId: '77' });
    for (const text of ['Running', 'Current step', 'Finished steps', 'Returned', 'Handled by']) expect(screen.getByText(text)).toBeTruthy();
    unmount();
    // a to-do's detail names the fields holding its business
    const todo = createForm({ initialValues: { id: '5', businessType: 'flow/leave', businessId: '77' }, readPretty: true });
    const second = renderApp(
      <FormProvider form={todo}>
        <BpmnViewer businessTypeField="businessType" businessIdField="businessId" history={false} />
      </FormProvider>,
    );
    await screen.findByTestId('bpmn-viewer');
    expect(server.calls(STEPS_ENDPOINT).at(-1)!.query).toEqual({ businessType: 'flow/leave', businessId: '77' });
    expect(screen.queryByText('Handled by')).toBeNull();
    second.unmount();
    renderApp(<BpmnViewer businessType="flow/leave" businessId="78" />);
    expect(await screen.findByText('No process')).toBeTruthy();
    setLang('zh');
  });

  it('is registered: a schema names it as x-component BpmnViewer', () => {
    expect(components.BpmnViewer).toBe(BpmnViewer);
  });
});
