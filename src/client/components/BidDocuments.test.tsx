// @vitest-environment jsdom
/**
 * BidDocuments through its page schemas (schemas/_pages/smartdoc-*.json): the file catalogue lists the chapter
 * documents with 编辑 / 查看 links to the online editor's route, the project catalogue shows the analysed items and
 * assigns a writer through batchSave, the access screen grants through saveChange keeping the user's other rows.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SchemaPage } from '../runtime/SchemaPage.js';
import { pageForPath } from '../runtime/menu-pages.js';
import { ok, renderApp, setLang, type FakeServer } from '../runtime/test-utils.js';
import { baseServer } from '../runtime/fixtures.js';
import { ResourcePage } from '../runtime/ResourcePage.js';
import type { ResourceSchema } from '../../shared/schema/types.js';
import projectSchema from '../../../schemas/smartdoc/biddingbaseinfo.json';

let server: FakeServer;
const tree = [
  {
    id: '11', parentId: '0', projectId: '7', itemType: 'chapter', level: 1, title: '第三章 评标办法', writerId: null,
    children: [{ id: '12', parentId: '11', projectId: '7', itemType: 'scoring', level: 2, title: '技术方案', score: 40, content: '方案完整', children: [] }],
  },
  { id: '13', parentId: '0', projectId: '7', itemType: 'chapter', level: 1, title: '第四章 投标文件格式', writerId: null, children: [] },
];

beforeEach(() => {
  setLang('zh');
  server = baseServer();
  server.on('GET', '/api/smartdoc/biddingbaseinfo/select', ok([{ id: '7', projectName: '华北粮库智能化项目' }]));
  server.on('GET', '/api/smartdoc/biddingcatalogue/getProjectCatalogue', ok(tree));
});

const open = async (path: string) => {
  renderApp(<SchemaPage page={pageForPath(path)!} />);
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: '投标项目' }));
  fireEvent.click(await screen.findByText('华北粮库智能化项目'));
};

describe('BidDocuments', () => {
  it('file catalogue: each chapter opens the online editor by its file id, 编辑 or 查看 by the right', async () => {
    server.on('GET', '/api/smartdoc/biddingcatalogue/getFileCatalogue', ok([
      { id: '11', title: '第三章 评标办法', level: 1, fileId: '901', fileName: '第三章 评标办法.docx', canEdit: true },
      { id: '13', title: '第四章 投标文件格式', level: 1, fileId: '902', fileName: '第四章 投标文件格式.docx', canEdit: false },
    ]));
    await open('/smartdoc/files');
    const edit = await screen.findByRole('link', { name: '编辑' });
    expect(edit.getAttribute('href')).toBe('/smartdoc/editor?fileId=901');
    expect(screen.getByRole('link', { name: '查看' }).getAttribute('href')).toBe('/smartdoc/editor?fileId=902');
    expect(server.calls('/api/smartdoc/biddingcatalogue/getFileCatalogue')[0].query).toEqual({ projectId: '7' });
  });

  it('file catalogue before a project is chosen: the user’s chapters in every project (their writing tasks)', async () => {
    server.on('GET', '/api/smartdoc/userfilescope/myScope', ok([
      { projectId: '7', projectName: '华北粮库智能化项目', catalogueId: '11', title: '第三章 评标办法', fileId: '901', canEdit: true },
      { projectId: '8', projectName: '华东粮库项目', catalogueId: '21', title: '第一章 商务文件', fileId: '911', canEdit: false },
    ]));
    renderApp(<SchemaPage page={pageForPath('/smartdoc/files')!} />);
    expect((await screen.findByRole('link', { name: '编辑' })).getAttribute('href')).toBe('/smartdoc/editor?fileId=901');
    expect(screen.getByText('华东粮库项目')).toBeTruthy();
    expect(screen.getByRole('link', { name: '查看' }).getAttribute('href')).toBe('/smartdoc/editor?fileId=911');
    expect(server.calls('/api/smartdoc/userfilescope/myScope')[0].query).toEqual({});
  });

  it('project catalogue: shows the items and assigns a chapter’s writer through batchSave', async () => {
    server.on('POST', '/api/smartdoc/biddingcatalogue/batchSave', ok(tree));
    // the writer is picked from the user directory by name
    server.on('GET', '/api/blade-user/user-select', ok([{ id: '1123598821738675201', realName: '王编写', account: 'wbx', deptName: '仓储管理部' }]));
    await open('/smartdoc/catalogue');
    expect(await screen.findByText('技术方案')).toBeTruthy();
    expect(screen.getByText('评分项')).toBeTruthy();
    const row = screen.getByText('第三章 评标办法').closest('tr')!;
    fireEvent.click(within(row as HTMLElement).getByRole('button', { name: '分配编写人' }));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: '编写人' }));
    fireEvent.click(await screen.findByTitle('王编写（wbx） · 仓储管理部'));
    fireEvent.click(screen.getByRole('button', { name: /OK|确\s*定/ }));
    await waitFor(() => expect(server.calls('/api/smartdoc/biddingcatalogue/batchSave')).toHaveLength(1));
    const body = server.calls('/api/smartdoc/biddingcatalogue/batchSave')[0].body as Record<string, any>;
    expect(body.projectId).toBe('7');
    expect(body.records).toHaveLength(1);
    expect(body.records[0]).toMatchObject({ id: '11', title: '第三章 评标办法', writerId: '1123598821738675201' });
    expect(body.records[0].children).toBeUndefined();
  });

  it('chapter access: a grant keeps the user’s other chapters', async () => {
    server.on('GET', '/api/smartdoc/userfilescope/project-user-file-scope', ok([{ id: '50', catalogueId: '13', catalogueTitle: '第四章 投标文件格式', userId: '88', userName: '刘研', scopeType: 'read' }]));
    server.on('GET', '/api/smartdoc/userfilescope/myScope', ok([{ catalogueId: '11', title: '第三章 评标办法', canEdit: true }]));
    server.on('POST', '/api/smartdoc/userfilescope/saveChange', ok(null));
    server.on('GET', '/api/blade-user/user-select', ok([{ id: '88', realName: '刘研', account: 'kyry', deptName: null }]));
    await open('/smartdoc/userfilescope');
    expect(await screen.findByText('刘研')).toBeTruthy();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '用户' }));
    fireEvent.click(await screen.findByTitle('刘研（kyry）'));
    fireEvent.mouseDown(screen.getByLabelText('章节'));
    fireEvent.click(await screen.findByTitle('第三章 评标办法'));
    fireEvent.click(screen.getByRole('radio', { name: '编辑' }));
    fireEvent.click(screen.getByRole('button', { name: '授 权' }));
    await waitFor(() => expect(server.calls('/api/smartdoc/userfilescope/saveChange')).toHaveLength(1));
    expect(server.calls('/api/smartdoc/userfilescope/saveChange')[0].body).toEqual({
      projectId: '7', userId: '88', scopes: [{ catalogueId: '13', scopeType: 'read' }, { catalogueId: '11', scopeType: 'edit' }],
    });
  });

  it('a project list of the schema’s userLists (我的项目) reads its own endpoint', async () => {
    server = baseServer([projectSchema as unknown as ResourceSchema]);
    server.on('GET', '/api/smartdoc/biddingbaseinfo/myProject', ok({ records: [{ id: '7', projectName: '华北粮库智能化项目', leaderId: '88', projectStatus: '1' }], total: 1, size: 10, current: 1, pages: 1 }));
    renderApp(<ResourcePage name="smartdoc/biddingbaseinfo" listEndpoint="myProject" />);
    expect(await screen.findByText('华北粮库智能化项目')).toBeTruthy();
    expect(server.calls('/api/smartdoc/biddingbaseinfo/myProject')).toHaveLength(1);
    expect(server.calls('/api/smartdoc/biddingbaseinfo/list')).toHaveLength(0);
  });
});
