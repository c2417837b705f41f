/**
 * The seeded roles and demo accounts (spec 000 §6; the first-start seed, seed/index.ts, inserts them, and the
 * menus' grants name them, seed/menus.ts): `ROLE`, the research management of a subsidiary
 * (`SUBSIDIARY_RESEARCH_MANAGEMENT`), `DEMO_ACCOUNTS`, and `ALL`, every alias of `ROLE` in seeding order.
 */

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

export const ALL = Object.values(ROLE);
