// @vitest-environment jsdom
/**
 * List operations (`list.operations`) and the tree beside a list (`list.sideTree`) through the real user and
 * role schemas against a fake server: what each button sends, the role grant dialog's four trees filled from
 * role-tree-keys, the once-shown reset passwords, the row-only unlock, the department filter, the
 * button grants, and both languages.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userJson from '../../../schemas/system/user.json';
import roleJson from '../../../schemas/system/role.json';
import type { ResourceSchema } from '../../shared/schema/types.js';
import { ResourcePage } from './ResourcePage.js';
import { ok, renderApp, setLang, type FakeServer } from './test-utils.js';
import { baseServer } from './fixtures.js';
import { initialValues, resolveRefs, selectionFault } from './operations.js';

const userSchema = userJson as unknown as ResourceSchema;
const roleSchema = roleJson as unknown as ResourceSchema;

const USERS = [
  { id: '11', account: 'alice', realName: '爱丽丝', name: 'A', roleId: '21', roleName: '科研人员', deptId: '101', locked: false },
  { id: '12', account: 'bob', realName: '鲍勃', name: 'B', roleId: '21,22', roleName: '科研人员,管理员', deptId: '102', locked: true },
];
const ROLES = [
  { id: '21', roleName: '科研人员', roleNameEn: 'Researcher', roleAlias: 'researcher', sort: 1 },
  { id: '22', roleName: '管理员', roleNameEn: 'Administrator', roleAlias: 'administrator', sort: 2 },
];
const ROLE_TREE = ROLES.map((r) => ({ id: r.id, key: r.id, value: r.id, title: r.roleName, titleEn: r.roleNameEn, children: [] }));
const GRANT_TREE = {
  menu: [
    { id: '1', title: '科技成果', titleEn: 'Achievements', kind: 'menu', children: [{ id: '2', title: '专利', titleEn: 'Patents', kind: 'menu', children: [{ id: '3', title: '新增专利', titleEn: 'Add patent', kind: 'button', children: [] }] }] },
    { id: '4', title: '系统管理', titleEn: 'System', kind: 'menu', children: [] },
  ],
  dataScope: [{ id: 'menu-2', title: '专利', titleEn: 'Patents', kind: 'menu', children: [{ id: '31', title: '本人数据', kind: 'dataScope', children: [] }] }],
  apiScope: [{ id: 'menu-2', title: '专利', titleEn: 'Patents', kind: 'menu', children: [{ id: '41', title: '专利读', kind: 'apiScope', children: [] }] }],
};

let server: FakeServer;
let page: typeof USERS;

beforeEach(() => {
  setLang('zh');
  page = USERS;
  server = baseServer([userSchema, roleSchema]);
  server.on('GET', '/api/blade-user/list', (r: { query: Record<string, string> }) => {
    const rows = r.query.deptId ? page.filter((u) => u.deptId === r.query.deptId) : page;
    return ok({ records: rows, total: rows.length, size: 10, current: 1, pages: 1 });
  });
  server.on('GET', '/api/blade-system/dept/lazy-tree', (r: { query: Record<string, string> }) =>
    ok(r.query.parentId === '0' ? [{ id: '100', value: '100', title: '粮储集团有限公司', hasChildren: true }] : [{ id: '102', value: '102', title: '华北分公司', hasChildren: false }]),
  );
  server.on('GET', '/api/blade-system/role/tree', ROLE_TREE);
  server.on('GET', '/api/blade-system/role/list', ok({ records: ROLES, total: 2, size: 10, current: 1, pages: 1 }));
  server.on('GET', '/api/blade-system/menu/grant-tree', GRANT_TREE);
  server.on('GET', '/api/blade-system/menu/grant-top-tree', { menu: [{ id: '51', title: '科研管理', titleEn: 'Research', kind: 'topMenu', children: [] }] });
  server.on('GET', '/api/blade-system/menu/role-tree-keys', { menu: ['1', '2'], dataScope: ['31'], apiScope: [], topMenu: ['51'] });
  server.on('POST', '/api/blade-system/role/grant', ok(null));
  server.on('POST', '/api/blade-user/grant', ok(null));
  server.on('POST', '/api/blade-user/unlock', ok(null));
  server.on('POST', '/api/blade-user/reset-password', ok([{ id: '11', account: 'alice', realName: '爱丽丝', password: 'Xy7#kPq2mN' }]));
});

afterEach(() => setLang('zh'));

const rowOf = (text: string) => screen.getByText(text).closest('tr')! as HTMLElement;
/** The toolbar's button (rendered before the table's row buttons of the same name). */
const toolbarButton = (name: string) => screen.getAllByRole('button', { name })[0];
const check = (text: string) => fireEvent.click(within(rowOf(text)).getByRole('checkbox'));

describe('list operations', () => {
  it('resolves references: keys as a comma list in params and an array in the body, the row, the filters', () => {
    const ctx = { keys: ['1', '2'], row: { id: '1', roleId: '7,8' }, query: { account: 'a' } };
    expect(resolveRefs({ userIds: '$keys', x: 'lit' }, ctx, 'params')).toEqual({ userIds: '1,2', x: 'lit' });
    expect(resolveRefs({ roleIds: '$keys' }, ctx, 'body')).toEqual({ roleIds: ['1', '2'] });
    expect(resolveRefs({ f: '$query' }, ctx, 'params')).toEqual({ account: 'a' });
    const grant = userSchema.list!.operations!.find((o) => o.key === 'grant')!;
    expect(initialValues(grant, { keys: ['1'], row: { roleId: '7,8' } })).toEqual({ roleIds: ['7', '8'] });
    expect(initialValues(grant, { keys: ['1', '2'], row: { roleId: '7,8' } })).toEqual({});
    expect(selectionFault(grant, 0)).toBe('rt.selectOne');
    expect(selectionFault({ ...grant, selection: 'one' }, 2)).toBe('rt.selectExactlyOne');
    expect(selectionFault({ ...grant, selection: 'none' }, 0)).toBeNull();
  });

  it('grants roles to the checked users: the dialog starts from the row, posts userIds and roleIds', async () => {
    renderApp(<ResourcePage name="system/user" />);
    await screen.findByText('alice');
    fireEvent.click(toolbarButton('角色配置'));
    expect(await screen.findByText('请选择至少一条数据')).toBeTruthy();
    check('bob');
    fireEvent.click(toolbarButton('角色配置'));
    const dialog = await screen.findByRole('dialog');
    // bob holds both roles: both show checked
    await waitFor(() => expect(dialog.querySelectorAll('.ant-tree-checkbox-checked')).toHaveLength(2));
    fireEvent.click(within(dialog).getByText('管理员'));
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(server.calls('/api/blade-user/grant')).toHaveLength(1));
    const call = server.calls('/api/blade-user/grant')[0];
    expect(call.query.userIds).toBe('12');
    expect(call.body).toEqual({ roleIds: ['21'] });
    expect(await screen.findByText('角色配置成功')).toBeTruthy();
  });

  it('refuses to grant no role at all, with the schema message, and sends nothing', async () => {
    page = [USERS[0]];
    renderApp(<ResourcePage name="system/user" />);
    await screen.findByText('alice');
    fireEvent.click(within(rowOf('alice')).getByRole('button', { name: '角色配置' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('科研人员');
    fireEvent.click(within(dialog).getByText('科研人员'));
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('请选择角色')).toBeTruthy();
    expect(server.calls('/api/blade-user/grant')).toHaveLength(0);
  });

  it('shows reset passwords once, with the note, after the confirmation', async () => {
    renderApp(<ResourcePage name="system/user" />);
    await screen.findByText('alice');
    check('alice');
    fireEvent.click(screen.getByRole('button', { name: '密码重置' }));
    expect(await screen.findByText('确定重置所选账号的密码吗？')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('Xy7#kPq2mN')).toBeTruthy();
    expect(screen.getByText('新密码只显示这一次，请告知用户；用户下次登录时必须修改密码。')).toBeTruthy();
    expect(server.calls('/api/blade-user/reset-password')[0].query.userIds).toBe('11');
    fireEvent.click(await screen.findByRole('button', { name: '我已记下' }));
    await waitFor(() => expect(screen.queryByText('Xy7#kPq2mN')).toBeNull());
  });

  it('offers unlock on locked rows only, shows the lock column, and filters by the department tree', async () => {
    renderApp(<ResourcePage name="system/user" />);
    await screen.findByText('alice');
    expect(screen.getByRole('columnheader', { name: '已锁定' })).toBeTruthy();
    expect(within(rowOf('alice')).queryByRole('button', { name: '账号解锁' })).toBeNull();
    fireEvent.click(within(rowOf('bob')).getByRole('button', { name: '账号解锁' }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(server.calls('/api/blade-user/unlock')[0]?.query.userIds).toBe('12'));
    // the department tree: choosing 华北分公司 lists its users, choosing it again clears the filter
    expect(screen.getByText('组织机构')).toBeTruthy();
    fireEvent.click(await screen.findByText('粮储集团有限公司'));
    await waitFor(() => expect(server.calls('/api/blade-user/list').at(-1)!.query.deptId).toBe('100'));
    fireEvent.click(screen.getByText('粮储集团有限公司'));
    await waitFor(() => expect(server.calls('/api/blade-user/list').at(-1)!.query.deptId).toBeUndefined());
  });

  it('hides the buttons the role lacks', async () => {
    renderApp(<ResourcePage name="system/user" can={(code) => code !== 'user_reset' && code !== 'user_role'} />);
    await screen.findByText('alice');
    expect(screen.queryByRole('button', { name: '密码重置' })).toBeNull();
    expect(screen.queryByRole('button', { name: '角色配置' })).toBeNull();
    expect(screen.getByRole('button', { name: '设置专家' })).toBeTruthy();
  });

  it('grants a role its menus, scopes and top menus from four trees filled by role-tree-keys (English)', async () => {
    setLang('en');
    renderApp(<ResourcePage name="system/role" />);
    await screen.findByText('科研人员');
    fireEvent.click(within(rowOf('科研人员')).getByRole('button', { name: 'Grant' }));
    const dialog = await screen.findByRole('dialog');
    expect(server.calls('/api/blade-system/menu/role-tree-keys')[0].query.roleIds).toBe('21');
    for (const tab of ['Menus', 'Data scopes', 'API scopes', 'Top menus']) expect(within(dialog).getByRole('tab', { name: tab })).toBeTruthy();
    // checking System adds it; Add patent is below Patents: checking it keeps its parents
    fireEvent.click(await within(dialog).findByText('System'));
    fireEvent.click(within(dialog).getByText('Add patent'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(server.calls('/api/blade-system/role/grant')).toHaveLength(1));
    const body = server.calls('/api/blade-system/role/grant')[0].body as Record<string, string[]>;
    expect(body.roleIds).toEqual(['21']);
    expect([...body.menuIds].sort()).toEqual(['1', '2', '3', '4']);
    expect(body.dataScopeIds).toEqual(['31']);
    expect(body.apiScopeIds).toEqual([]);
    expect(body.topMenuIds).toEqual(['51']);
    expect(await screen.findByText('Granted')).toBeTruthy();
  });
});
