// @vitest-environment jsdom
/**
 * Workflow actions from `schema.actions` (the patent's examine flow: 提交审核, 审核通过, 驳回, 重新提交) against
 * a fake server: each row shows the buttons its status and the current role allow (and 提交审核 only on the
 * user's own records), locked rows (待审核, 审核通过) hide 编辑 and 删除, the reject dialog requires its opinion
 * (请输入审核意见) before it posts `{businessId, businessType, action, opinion}`, a confirmation-only action
 * posts after its question, success says the action's text and revalidates the list; the status column and
 * its search; the detail view's buttons and its review history.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ResourcePage } from './ResourcePage.js';
import { fail, ok, renderApp, setLang, type FakeServer } from './test-utils.js';
import { baseServer, patentRecord, patentSchema, signInAs } from './fixtures.js';
import { actionBody, actionsFor, editLocked, removeLocked, withStatusList } from './actions.js';

type Row = Record<string, unknown>;

let server: FakeServer;
let rows: Row[];
let steps: Row[];

const row = (id: string, name: string, examineStatus: string, createUser: string) => patentRecord({ id, name, examineStatus, createUser });

beforeEach(() => {
  setLang('zh');
  signInAs('kygl', '1001');
  rows = [row('2001', '我的草稿专利', '0', '1001'), row('2002', '待审核专利', '1', '1002'), row('2003', '已通过专利', '2', '1002'), row('2004', '被驳回专利', '3', '1001'), row('2005', '他人草稿专利', '0', '1002')];
  steps = [];
  server = baseServer();
  server.on('GET', '/api/basic/patent/list', (r: { query: Record<string, string> }) => {
    const hit = r.query.examineStatus_equal ? rows.filter((x) => x.examineStatus === r.query.examineStatus_equal) : rows;
    return ok({ records: hit, total: hit.length, size: 10, current: 1, pages: 1 });
  });
  server.on('GET', '/api/basic/patent/detail', (r: { query: Record<string, string> }) => ok(rows.find((x) => x.id === r.query.id)));
  server.on('GET', '/api/basic/examinerecord/list', (r: { query: Record<string, string> }) => {
    const hit = steps.filter((s) => s.businessId === r.query.businessId);
    return ok({ records: hit, total: hit.length, size: 200, current: 1, pages: 1 });
  });
});

const rowOf = (name: string) => screen.getByText(name).closest('tr')!;
const buttonsOf = (name: string) => within(rowOf(name)).queryAllByRole('button').map((b) => b.textContent!.replace(/\s+/g, ''));
const notice = () => [...document.querySelectorAll('.ant-message-notice')].map((n) => n.textContent).join(' | ');

describe('workflow actions on the list', () => {
  it('shows each action only in its statuses and to its roles, and hides edit and remove of locked records', async () => {
    const { unmount } = renderApp(<ResourcePage name="basic/patent" />);
    await screen.findByText('我的草稿专利');
    expect(buttonsOf('我的草稿专利')).toEqual(['查看', '编辑', '删除', '提交审核']);
    expect(buttonsOf('待审核专利')).toEqual(['查看', '审核通过', '驳回']);
    expect(buttonsOf('已通过专利')).toEqual(['查看']);
    // the schema lets a rejected record be submitted plainly or with a note on the changes
    expect(buttonsOf('被驳回专利')).toEqual(['查看', '编辑', '删除', '提交审核', '重新提交']);
    // 提交审核 is the registrant's: not on someone else's draft
    expect(buttonsOf('他人草稿专利')).toEqual(['查看', '编辑', '删除']);
    // locked rows cannot be selected for removal either
    expect((within(rowOf('待审核专利')).getByRole('checkbox') as HTMLInputElement).disabled).toBe(true);
    expect((within(rowOf('我的草稿专利')).getByRole('checkbox') as HTMLInputElement).disabled).toBe(false);
    unmount();

    // a researcher registers and submits, but does not decide
    signInAs('researcher', '1001');
    renderApp(<ResourcePage name="basic/patent" />);
    await screen.findByText('我的草稿专利');
    expect(buttonsOf('我的草稿专利')).toEqual(['查看', '编辑', '删除', '提交审核']);
    expect(buttonsOf('待审核专利')).toEqual(['查看']);
    expect(buttonsOf('被驳回专利')).toEqual(['查看', '编辑', '删除', '提交审核', '重新提交']);
  });

  it('requires the reject opinion (请输入审核意见), then posts the body the server expects, says 已驳回 and reloads the list', async () => {
    const bodies: Row[] = [];
    server.on('POST', '/api/basic/examinerecord/submit', (r: { body: unknown }) => {
      bodies.push(r.body as Row);
      rows = rows.map((x) => (x.id === '2002' ? { ...x, examineStatus: '3' } : x));
      return ok({ id: '1', examineStatus: '3' });
    });
    const user = userEvent.setup();
    renderApp(<ResourcePage name="basic/patent" />);
    await screen.findByText('待审核专利');
    const listCalls = server.calls('/api/basic/patent/list').length;
    await user.click(within(rowOf('待审核专利')).getByRole('button', { name: /驳\s*回/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('审核意见')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('请输入审核意见')).toBeTruthy();
    expect(bodies).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox'), '  附件不全，请补充证书  ');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ businessId: '2002', businessType: 'basic/patent', action: 'reject', opinion: '  附件不全，请补充证书  ' });
    await waitFor(() => expect(notice()).toContain('已驳回'));
    await waitFor(() => expect(server.calls('/api/basic/patent/list').length).toBeGreaterThan(listCalls));
    // the reloaded row is rejected now: its decisions are gone
    await waitFor(() => expect(buttonsOf('待审核专利')).toEqual(['查看', '编辑', '删除']));
  });

  it('puts a server field error on the dialog field and keeps the dialog open', async () => {
    server.on('POST', '/api/basic/examinerecord/submit', fail(400, '审核意见不能超过500个字符', [{ field: 'opinion', message: '审核意见不能超过500个字符' }]));
    const user = userEvent.setup();
    renderApp(<ResourcePage name="basic/patent" />);
    await screen.findByText('待审核专利');
    await user.click(within(rowOf('待审核专利')).getByRole('button', { name: /驳\s*回/ }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox'), '意见');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    const err = await within(dialog).findByText('审核意见不能超过500个字符');
    expect(err.closest('.ant-formily-item')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBe(dialog);
    await waitFor(() => expect(within(dialog).getByRole('button', { name: /确\s*定/ }).className).not.toContain('ant-btn-loading'));
  });

  it('asks the confirmation of an action without a dialog, then posts it and says its success text', async () => {
    const bodies: Row[] = [];
    server.on('POST', '/api/basic/examine/submit', (r: { body: unknown }) => {
      bodies.push(r.body as Row);
      return ok({ id: '1', examineStatus: '1' });
    });
    const user = userEvent.setup();
    renderApp(<ResourcePage name="basic/patent" />);
    await screen.findByText('我的草稿专利');
    await user.click(within(rowOf('我的草稿专利')).getByRole('button', { name: '提交审核' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('确定提交审核？提交后在审核完成前不能修改。')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    expect(bodies).toHaveLength(0);
    await user.click(within(rowOf('我的草稿专利')).getByRole('button', { name: '提交审核' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(bodies).toEqual([{ businessId: '2001', businessType: 'basic/patent', action: 'submitExamine' }]));
    await waitFor(() => expect(notice()).toContain('提交成功'));
  });

  it('labels the buttons in English', async () => {
    setLang('en');
    renderApp(<ResourcePage name="basic/patent" />);
    await screen.findByText('待审核专利');
    expect(buttonsOf('待审核专利')).toEqual(['View', 'Approve', 'Reject']);
    expect(await within(rowOf('待审核专利')).findByText('Pending review')).toBeTruthy();
    setLang('zh');
  });

  it('shows the status through its dictionary and searches on it', async () => {
    renderApp(<ResourcePage name="basic/patent" />);
    await screen.findByText('待审核专利');
    expect(screen.getByRole('columnheader', { name: '审核状态' })).toBeTruthy();
    expect(await within(rowOf('待审核专利')).findByText('待审核')).toBeTruthy();
    expect(within(rowOf('已通过专利')).getByText('审核通过')).toBeTruthy();
    const search = document.querySelector('.kc-search') as HTMLElement;
    const item = [...search.querySelectorAll('.ant-formily-item')].find((x) => x.textContent?.includes('审核状态'))!;
    fireEvent.mouseDown(item.querySelector('.ant-select-selector')!);
    fireEvent.click(await screen.findByText('待审核', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(server.calls('/api/basic/patent/list').at(-1)!.query).toEqual({ current: '1', size: '10', examineStatus_equal: '1' }));
    await waitFor(() => expect(screen.queryByText('我的草稿专利')).toBeNull());
    expect(screen.getByText('待审核专利')).toBeTruthy();
  });
});

describe('workflow actions on the detail view', () => {
  it('offers the actions in the footer, shows the review history, and reloads both after a decision', async () => {
    steps = [{ id: 's1', businessId: '2002', action: 'submitExamine', actionName: '提交审核', fromStatus: '0', toStatus: '1', opinion: null, operatorName: '李四', createTime: '2024-03-01 09:00:00' }];
    const bodies: Row[] = [];
    server.on('POST', '/api/basic/examinerecord/submit', (r: { body: unknown }) => {
      bodies.push(r.body as Row);
      rows = rows.map((x) => (x.id === '2002' ? { ...x, examineStatus: '2' } : x));
      steps.push({ id: 's2', businessId: '2002', action: 'approve', actionName: '审核通过', fromStatus: '1', toStatus: '2', opinion: '同意', operatorName: '张三', createTime: '2024-03-02 10:00:00' });
      return ok({ id: '1', examineStatus: '2' });
    });
    const user = userEvent.setup();
    renderApp(<ResourcePage name="basic/patent" />);
    await screen.findByText('待审核专利');
    await user.click(within(rowOf('待审核专利')).getByRole('button', { name: /查\s*看/ }));
    const detail = await screen.findByRole('dialog');
    const timeline = await within(detail).findByTestId('examine-timeline');
    expect(within(timeline).getByText('审核记录')).toBeTruthy();
    await waitFor(() => expect(within(timeline).getAllByTestId('examine-step')).toHaveLength(1));
    expect(within(timeline).getByText(/李四/)).toBeTruthy();
    expect(server.calls('/api/basic/examinerecord/list')[0].query).toEqual({ businessId: '2002', businessType: 'basic/patent', size: '200' });
    const footer = detail.querySelector('.ant-modal-footer') as HTMLElement;
    expect(within(footer).getAllByRole('button').map((b) => b.textContent!.replace(/\s+/g, ''))).toEqual(['审核通过', '驳回', '关闭']);

    await user.click(within(footer).getByRole('button', { name: '审核通过' }));
    const dialogs = await screen.findAllByRole('dialog');
    const approve = dialogs.find((d) => d.querySelector('.ant-modal-title')?.textContent === '审核通过')!;
    await user.type(within(approve).getByRole('textbox'), '同意');
    await user.click(within(approve).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(bodies).toEqual([{ businessId: '2002', businessType: 'basic/patent', action: 'approve', opinion: '同意' }]));
    // the record is loaded again: approved, so no decision is offered any more; the history has the new step
    await waitFor(() => expect(server.calls('/api/basic/patent/detail').length).toBeGreaterThan(1));
    await waitFor(() => expect(within(screen.getAllByRole('dialog')[0].querySelector('.ant-modal-footer') as HTMLElement).getAllByRole('button').map((b) => b.textContent!.replace(/\s+/g, ''))).toEqual(['关闭']));
    const after = await screen.findByTestId('examine-timeline');
    await waitFor(() => expect(within(after).getAllByTestId('examine-step').map((s) => s.textContent)).toEqual([expect.stringContaining('提交审核'), expect.stringContaining('同意')]));
  });
});

describe('action rules', () => {
  const ctx = { roleAlias: 'kygl', userId: '1001' };
  it('answers the visible actions, the locks and the body without rendering', () => {
    const r = row('9', 'x', '1', '1002');
    expect(actionsFor(patentSchema, r, ctx, 'row').map((a) => a.key)).toEqual(['approve', 'reject']);
    expect(actionsFor(patentSchema, r, { roleAlias: 'administrator', userId: '1' }, 'detail').map((a) => a.key)).toEqual(['approve', 'reject']);
    expect(actionsFor(patentSchema, r, {}, 'row')).toEqual([]);
    // an empty status counts as the field's default (0 草稿)
    expect(actionsFor(patentSchema, { id: '9', createUser: '1001' }, ctx, 'row').map((a) => a.key)).toEqual(['submitExamine']);
    expect(editLocked(patentSchema, r)).toBe(true);
    expect(removeLocked(patentSchema, r, ctx)).toBe(true);
    expect(removeLocked(patentSchema, r, { roleAlias: 'administrator' })).toBe(false);
    expect(editLocked(patentSchema, { examineStatus: '3' })).toBe(false);
    const reject = patentSchema.actions!.items.find((a) => a.key === 'reject')!;
    expect(actionBody(patentSchema, reject, r, { opinion: 'x', businessId: 'forged' })).toEqual({ businessId: '9', businessType: 'basic/patent', action: 'reject', opinion: 'x' });
  });

  it('adds the status column and search only when the list lacks them', () => {
    const list = withStatusList(patentSchema).list!;
    expect(list.columns!.filter((c) => c.field === 'examineStatus')).toHaveLength(1);
    expect(list.search!.at(-1)).toEqual({ field: 'examineStatus', operator: 'equal' });
    const bare = { ...patentSchema, list: undefined };
    const derived = withStatusList(bare).list!;
    expect(derived.columns!.at(-1)).toEqual({ field: 'examineStatus', width: 110 });
    expect(derived.columns!.length).toBe(7);
    const plain = { ...patentSchema, actions: undefined };
    expect(withStatusList(plain)).toBe(plain);
  });
});
