// @vitest-environment jsdom
/**
 * The review history (`GET /api/basic/examinerecord/list?businessId=`): steps oldest first with the action's
 * label (from the schema's actions, in the session language), who and when, the status reached (through the
 * examine_status dictionary) and the opinion; an empty history says so; inside a record's form it reads the
 * record's id.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import { createForm } from '@formily/core';
import { FormProvider } from '@formily/react';
import { ExamineTimeline, stepsInOrder } from './ExamineTimeline.js';
import { ok, renderApp, setLang, type FakeServer } from '../runtime/test-utils.js';
import { baseServer, patentSchema } from '../runtime/fixtures.js';

let server: FakeServer;

const STEPS = [
  { id: 's1', action: 'submitExamine', actionName: '提交审核', fromStatus: '0', toStatus: '1', opinion: null, operatorName: '李四', createTime: '2024-03-01 09:00:00' },
  { id: 's2', action: 'reject', actionName: '驳回', fromStatus: '1', toStatus: '3', opinion: '附件不全', operatorName: '王五', createTime: '2024-03-02 10:30:00' },
  { id: 's3', action: 'againSubmit', actionName: '重新提交', fromStatus: '3', toStatus: '1', opinion: '已补充证书', operatorName: '李四', createTime: '2024-03-03 08:15:00' },
  { id: 's4', action: 'approve', actionName: '审核通过', fromStatus: '1', toStatus: '2', opinion: '同意', operatorName: '王五', createTime: '2024-03-04 16:45:00' },
];

beforeEach(() => {
  setLang('zh');
  server = baseServer();
  server.on('GET', '/api/basic/examinerecord/list', (r: { query: Record<string, string> }) =>
    ok(r.query.businessId === '2002' ? { records: STEPS, total: 4, size: 200, current: 1, pages: 1 } : { records: [], total: 0, size: 200, current: 1, pages: 0 }),
  );
});

const stepTexts = () => screen.getAllByTestId('examine-step').map((s) => s.textContent);

describe('ExamineTimeline', () => {
  it('shows the steps oldest first: action, status reached, who, when and the opinion', async () => {
    renderApp(<ExamineTimeline businessId="2002" businessType="basic/patent" actions={patentSchema.actions!.items} />);
    await waitFor(() => expect(screen.getAllByTestId('examine-step')).toHaveLength(4));
    const texts = stepTexts();
    expect(texts[0]).toContain('提交审核');
    expect(texts[0]).toContain('李四 2024-03-01 09:00:00');
    expect(texts[1]).toContain('驳回');
    expect(texts[1]).toContain('审核意见：附件不全');
    expect(texts[2]).toContain('重新提交');
    expect(texts[3]).toContain('审核通过');
    expect(texts[3]).toContain('王五 2024-03-04 16:45:00');
    // the status each step reached, through the dictionary
    await waitFor(() => expect(screen.getAllByTestId('examine-step').map((s) => s.querySelector('.ant-tag')?.textContent)).toEqual(['待审核', '已驳回', '待审核', '审核通过']));
    expect(server.calls('/api/basic/examinerecord/list')[0].query).toEqual({ businessId: '2002', businessType: 'basic/patent', size: '200' });
    expect(screen.getByText('审核记录')).toBeTruthy();
  });

  it('speaks English: action labels from the schema, statuses from the dictionary', async () => {
    setLang('en');
    renderApp(<ExamineTimeline businessId="2002" actions={patentSchema.actions!.items} />);
    await waitFor(() => expect(screen.getAllByTestId('examine-step')).toHaveLength(4));
    const texts = stepTexts();
    expect(texts[0]).toContain('Submit for review');
    expect(texts[1]).toContain('Reject');
    expect(texts[1]).toContain('Opinion: 附件不全');
    await waitFor(() => expect(screen.getAllByTestId('examine-step')[3].querySelector('.ant-tag')?.textContent).toBe('Approved'));
    expect(screen.getByText('Review history')).toBeTruthy();
    setLang('zh');
  });

  it('says when there is no history, and reads the id of the surrounding record form', async () => {
    const { unmount } = renderApp(<ExamineTimeline businessId="2001" />);
    expect(await screen.findByText('暂无审核记录')).toBeTruthy();
    unmount();
    const form = createForm({ initialValues: { id: '2002' }, readPretty: true });
    renderApp(
      <FormProvider form={form}>
        <ExamineTimeline />
      </FormProvider>,
    );
    await waitFor(() => expect(within(screen.getByTestId('examine-timeline')).getAllByTestId('examine-step')).toHaveLength(4));
    // without the schema's actions the server's action names are shown
    expect(stepTexts()[0]).toContain('提交审核');
  });

  it('orders steps by time, keeping the server order for equal times', () => {
    const shuffled = [STEPS[2], STEPS[0], { ...STEPS[3], createTime: STEPS[2].createTime }, STEPS[1]];
    expect(stepsInOrder(shuffled).map((s) => s.id)).toEqual(['s1', 's2', 's3', 's4']);
  });
});
