/**
 * The seeded menus, buttons and top menus with the roles granted each (spec 000 §3, 002 §3; the first-start seed,
 * seed/index.ts, inserts them; later additions reach existing databases through seed/menu-sync.ts):
 * `MenuSeed`, `MENUS`, `TOP_MENUS`, the achievement types (`ACHIEVEMENT_TYPES`) with their data scopes
 * (`ACHIEVEMENT_SCOPES`), and the roles that receive another role's grants (`GRANTED_WITH`).
 */
import { buttonCode } from '../../../../shared/contract/grants.js';
import type { DataScopeType } from '../../../core/context.js';
import { ALL, ROLE, SUBSIDIARY_RESEARCH_MANAGEMENT } from './roles.js';

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
export const ACHIEVEMENT_SCOPES: Array<{ scopeName: string; scopeColumn: string; scopeType: DataScopeType; roles: string[] }> = [
  { scopeName: '本人数据', scopeColumn: 'create_user', scopeType: 'own', roles: [ROLE.researcher] },
  { scopeName: '本部门及子部门数据', scopeColumn: 'create_dept', scopeType: 'ownDeptAndChildren', roles: [ROLE.declaringUnit] },
  { scopeName: '本单位及下属单位数据', scopeColumn: 'create_dept', scopeType: 'ownCompanyAndChildren', roles: [SUBSIDIARY_RESEARCH_MANAGEMENT.key] },
];

/** Role keys that receive every menu and button grant of a role alias (the subsidiary's research management). */
export const GRANTED_WITH: Record<string, string[]> = { [ROLE.researchManagement]: [SUBSIDIARY_RESEARCH_MANAGEMENT.key] };

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
