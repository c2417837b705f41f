/**
 * Test fixtures of the client tests: the schemas of schemas/ as ResourceSchema values, dictionary entries,
 * and a fake server primed with the endpoints every resource screen touches (schema detail, dictionaries,
 * department tree).
 */
import patentJson from '../../../schemas/basic/patent.json';
import regionJson from '../../../schemas/system/region.json';
import type { ResourceSchema } from '../../shared/schema/types.js';
import { FakeServer, ok } from './test-utils.js';
import { updateSession } from './session.js';

export const patentSchema = patentJson as unknown as ResourceSchema;
export const regionSchema = regionJson as unknown as ResourceSchema;

export const DICTS: Record<string, Array<{ id: string; dictKey: string; dictValue: string; dictValueEn?: string }>> = {
  patent_type: [
    { id: '11', dictKey: '1', dictValue: '发明专利', dictValueEn: 'Invention' },
    { id: '12', dictKey: '2', dictValue: '实用新型', dictValueEn: 'Utility model' },
  ],
  achievements_resource: [{ id: '21', dictKey: '1', dictValue: '国家级项目', dictValueEn: 'National project' }],
  transform_type: [{ id: '31', dictKey: '1', dictValue: '转让', dictValueEn: 'Transfer' }],
  patent_group_sign: [{ id: '41', dictKey: '1', dictValue: '第一专利权人', dictValueEn: 'First patentee' }],
  examine_status: [
    { id: '51', dictKey: '0', dictValue: '草稿', dictValueEn: 'Draft' },
    { id: '52', dictKey: '1', dictValue: '待审核', dictValueEn: 'Pending review' },
    { id: '53', dictKey: '2', dictValue: '审核通过', dictValueEn: 'Approved' },
    { id: '54', dictKey: '3', dictValue: '已驳回', dictValueEn: 'Rejected' },
  ],
};

export const DEPTS = [{ id: '100', title: '粮储集团有限公司', value: '100', children: [{ id: '101', title: '集团科技信息部', value: '101', children: [] }] }];

/** A FakeServer (installed as fetch) answering the schema, dictionary and department calls. */
export function baseServer(schemas: ResourceSchema[] = [patentSchema, regionSchema]): FakeServer {
  const server = new FakeServer().install();
  server.on('GET', '/api/system/schema/detail', (r: { query: Record<string, string> }) => ok(schemas.find((s) => s.name === r.query.name) ?? null));
  server.on('GET', '/api/blade-system/dict/dictionary', (r: { query: Record<string, string> }) => ok(DICTS[r.query.code] ?? []));
  server.on('GET', '/api/blade-system/dept/tree', DEPTS);
  return server;
}

/** Signs in as `roleAlias` (user 1001 unless given): the session the workflow buttons read. */
export function signInAs(roleAlias: string, userId = '1001'): void {
  updateSession({
    token: 'test-token',
    user: { userId, tenantId: '000000', account: 'u' + userId, realName: '张三', nickName: '张三', avatar: '', deptId: '101' },
    roles: [{ id: 'r-' + roleAlias, roleName: roleAlias, roleAlias }],
    currentRoleId: 'r-' + roleAlias,
  });
}

/** A complete, valid patent record (as detail answers it). */
export function patentRecord(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: '9001',
    name: '一种粮仓温湿度监测装置',
    deptId: '101',
    projectSource: 3,
    projectId: null,
    projectName: '智慧粮库',
    projectType: '1',
    type: '1',
    region: '中国',
    address: '北京市',
    postcode: '100000',
    applyDate: '2023-03-01',
    authorizationDate: '2024-01-15',
    openCode: null,
    authorizationCode: 'ZL2023100001.1',
    code: 'C-001',
    signature: null,
    isTransfer: true,
    assignee: [{ name: '甲公司', transferType: '1' }],
    ownershipDetailForm: [],
    userNamesDetailForm: [],
    annex: [{ name: 'a.pdf', link: '/upload/20240101/a.pdf', originalName: '证书.pdf' }],
    tenantId: '000000',
    createTime: '2024-02-01 10:00:00',
    ...over,
  };
}
