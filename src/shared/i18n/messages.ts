/**
 * Server and shared messages in both languages (DESIGN §7: zh default, en complete).
 *
 * The zh texts that the spec gives are kept verbatim (spec 000 §5, §8; DESIGN §6); the en texts are their
 * glosses. Placeholders are `{name}` and are filled by `format()`.
 */
import type { Lang } from '../contract/lang.js';

export type { Lang } from '../contract/lang.js';
export { langFromHeader } from '../contract/lang.js';

export const messages = {
  success: { zh: '操作成功', en: 'Operation succeeded' },
  failure: { zh: '操作失败', en: 'Operation failed' },
  badCredentials: { zh: '用户名或密码错误', en: 'Wrong user name or password' },
  badCaptcha: { zh: '验证码不正确', en: 'The verification code is incorrect' },
  accountLocked: {
    zh: '登录失败次数过多，账号已锁定，请 {minutes} 分钟后再试',
    en: 'Too many failed logins: the account is locked, try again in {minutes} minutes',
  },
  accountDisabled: { zh: '账号已被禁用', en: 'The account is disabled' },
  unknownClient: { zh: '客户端认证失败', en: 'Client authentication failed' },
  unsupportedGrant: { zh: '不支持的授权类型: {grant}', en: 'Unsupported grant type: {grant}' },
  tenantMissing: { zh: '租户不存在或已过期', en: 'The tenant does not exist or has expired' },
  tenantExpired: { zh: '租户已过期，请联系管理员', en: 'The tenant has expired: please contact the administrator' },
  refreshInvalid: { zh: '刷新令牌无效或已使用', en: 'The refresh token is invalid or was already used' },
  unauthorized: { zh: '请求未授权，请重新登录', en: 'Not signed in or the session expired: please log in again' },
  forbidden: { zh: '没有权限执行此操作', en: 'You do not have permission for this operation' },
  // API scopes (DESIGN §5 'API scope check'; src/server/core/api-scope.ts)
  apiScopeDenied: { zh: '当前角色无权访问接口 {method} {path}', en: 'The current role is not allowed to call {method} {path}' },
  notFound: { zh: '数据不存在', en: 'The record does not exist' },
  routeNotFound: { zh: '接口不存在: {path}', en: 'No such endpoint: {path}' },
  serverError: { zh: '服务器内部错误，错误编号 {errorId}', en: 'Internal server error, error id {errorId}' },
  tooManyRequests: { zh: '请求过于频繁，请稍后再试', en: 'Too many requests, please try again later' },
  bodyTooLarge: { zh: '请求体过大，最大 {limit} 字节', en: 'The request body is too large (at most {limit} bytes)' },
  badJson: { zh: '请求体不是有效的 JSON', en: 'The request body is not valid JSON' },
  bodyNotObject: { zh: '请求体必须是 JSON 对象', en: 'The request body must be a JSON object' },
  validationFailed: { zh: '数据校验失败', en: 'Validation failed' },
  unknownField: { zh: '未知字段: {field}', en: 'Unknown field: {field}' },
  unknownSortField: { zh: '不能按字段 {field} 排序', en: 'Cannot sort by field {field}' },
  unknownFilter: { zh: '未知的查询条件: {field}', en: 'Unknown query parameter: {field}' },
  badParam: { zh: '参数 {param} 的值无效', en: 'Invalid value for parameter {param}' },
  missingParam: { zh: '缺少参数 {param}', en: 'Missing parameter {param}' },
  // the menu panel (src/server/modules/system/menupanel.ts; issue 18)
  menuPanelNotOpenable: { zh: '所选菜单「{name}」不可用或您无权打开', en: 'The menu “{name}” is not available or you may not open it' },
  badPageSize: { zh: '每页条数只能是 10、30、50、100 或 200', en: 'The page size must be 10, 30, 50, 100 or 200' },
  duplicateKey: { zh: '{label}已存在', en: '{label} already exists' },
  regionParentMissing: { zh: '上级区划不存在', en: 'The parent region does not exist' },
  idsRequired: { zh: '请选择至少一条数据', en: 'Please select at least one record' },
  // files (spec 000 §7 Files, §9; DESIGN §8, §11)
  fileRequired: { zh: '请选择要上传的文件', en: 'Please choose a file to upload' },
  fileEmpty: { zh: '上传的文件是空的', en: 'The uploaded file is empty' },
  fileTooLarge: { zh: '文件大小不能超过 {limit} MB', en: 'The file must not be larger than {limit} MB' },
  fileTypeNotAllowed: { zh: '不支持的文件类型: {ext}', en: 'Unsupported file type: {ext}' },
  fileContentMismatch: { zh: '文件内容与扩展名 {ext} 不符', en: 'The content of the file does not match its extension {ext}' },
  // schemas for the client runtime
  schemaNotFound: { zh: '资源定义 {name} 不存在', en: 'There is no resource schema named {name}' },
  // the schema store: drafts, publishing and rollback from the designer (DESIGN §4)
  schemaAdminOnly: { zh: '只有平台管理员可以保存、发布或回滚资源定义', en: 'Only platform administrators may save, publish or roll back resource schemas' },
  schemaVersionNotFound: { zh: '资源定义 {name} 没有版本 {version}', en: 'Resource schema {name} has no version {version}' },
  schemaFixed: { zh: '资源定义 {name} 的 {key} 不能修改（{from} → {to}）', en: 'The {key} of resource schema {name} cannot change ({from} → {to})' },
  schemaTableTaken: { zh: '表 {table} 已存在，不能作为新资源的表', en: 'Table {table} already exists and cannot be the table of a new resource' },
  schemaRollbackTarget: {
    zh: '只能回滚到以前发布过的版本（当前为版本 {current}）',
    en: 'A rollback can only go to a version that was published before (the current version is {current})',
  },
  // dictionaries (spec 000 §5, 002 §3–§5)
  dictSealed: { zh: '已封存的字典不能删除', en: 'A sealed dictionary entry cannot be removed' },
  dictHasChildren: { zh: '请先删除子节点', en: 'Please remove the child entries first' },
  dictKeyExists: { zh: '当前字典键值已存在', en: 'This dictionary key already exists' },
  dictCodeExists: { zh: '字典编号已存在', en: 'This dictionary code already exists' },
  dictParentRequired: { zh: '请选择上级字典', en: 'Please select the parent dictionary' },
  dictParentMissing: { zh: '上级字典不存在', en: 'The parent dictionary does not exist' },
  dictParentCycle: { zh: '上级字典不能是自己或自己的下级', en: 'A dictionary entry cannot be its own parent or the child of its own child' },
  platformAdminOnly: { zh: '平台数据只能由平台管理员维护', en: 'Platform-wide data is maintained by the platform administrators only' },
  refMissing: { zh: '{label}不存在', en: '{label} does not exist' },
  // generic validation messages, used when the schema gives none for a rule
  required: { zh: '{label}必须填写', en: '{label} is required' },
  maxLength: { zh: '{label}长度不能超过 {limit} 个字符', en: '{label} must be at most {limit} characters' },
  minLength: { zh: '{label}长度不能少于 {limit} 个字符', en: '{label} must be at least {limit} characters' },
  maximum: { zh: '{label}不能大于 {limit}', en: '{label} must be at most {limit}' },
  minimum: { zh: '{label}不能小于 {limit}', en: '{label} must be at least {limit}' },
  pattern: { zh: '{label}格式不匹配', en: '{label} does not match the required format' },
  type: { zh: '{label}应为{type}类型', en: '{label} must be of type {type}' },
  format: { zh: '{label}格式不正确，应为 {format}', en: '{label} must be in the format {format}' },
  enum: { zh: '{label}的取值无效', en: '{label} has an invalid value' },
  tooManyItems: { zh: '{label}最多 {limit} 项', en: '{label} allows at most {limit} items' },
  // input the database would refuse, refused first with a 400 (DESIGN §11, §13)
  outOfRange: { zh: '{label}超出允许范围', en: '{label} is out of range' },
  paramOutOfRange: { zh: '参数 {param} 超出允许范围', en: 'Parameter {param} is out of range' },
  badDateParam: {
    zh: '参数 {param} 不是有效的日期，应为 yyyy-MM-dd 或 yyyy-MM-dd HH:mm:ss',
    en: 'Parameter {param} is not a valid date: use yyyy-MM-dd or yyyy-MM-dd HH:mm:ss',
  },
  nulInParam: { zh: '参数 {param} 不能包含空字符（\\u0000）', en: 'Parameter {param} must not contain NUL characters (\\u0000)' },
  nulInField: { zh: '字段 {field} 不能包含空字符（\\u0000）', en: 'Field {field} must not contain NUL characters (\\u0000)' },
  lossyChange: {
    zh: '表 {table} 的字段 {field} 从 {from} 改为 {to} 会丢失数据，已拒绝',
    en: 'Changing column {field} of table {table} from {from} to {to} would lose data: refused',
  },
  schemaInvalid: { zh: '资源定义 {file} 不合法: {fault}', en: 'Resource schema {file} is invalid: {fault}' },
  // departments, tenants, clients, parameters, logs (issue 9; src/server/modules/system/org.ts, tenants.ts, logs.ts)
  deptParentMissing: { zh: '上级机构不存在', en: 'The parent department does not exist' },
  deptParentCycle: { zh: '上级机构不能是自身或其下级机构', en: 'The parent department cannot be the department itself or one below it' },
  platformTenantRemove: { zh: '平台租户不能删除', en: 'The platform tenant cannot be removed' },
  clientIdTaken: { zh: '应用ID已存在', en: 'The client ID already exists' },
  paramKeyTaken: { zh: '参数键名已存在', en: 'The parameter key already exists' },
  clientLogEmpty: { zh: '没有要上传的日志', en: 'There is no log entry to upload' },
  clientLogTooMany: { zh: '一次最多上传 {max} 条日志', en: 'At most {max} log entries per upload' },
  clientLogNoMessage: { zh: '日志缺少错误信息', en: 'A log entry has no message' },
  // roles, menus, top menus, data and API scopes (issue 9; src/server/modules/system/roles.ts, menus.ts, scopes.ts)
  roleAliasExists: { zh: '同一上级角色下已有别名为 {alias} 的角色', en: 'A role with the alias {alias} already exists under the same parent role' },
  roleParentMissing: { zh: '上级角色不存在', en: 'The parent role does not exist' },
  roleParentCycle: { zh: '上级角色不能是该角色本身或其下级角色', en: 'The parent role cannot be the role itself or one of its sub-roles' },
  roleHasChildren: { zh: '请先删除下级角色', en: 'Please remove the sub-roles first' },
  roleInUse: { zh: '角色 {name} 已分配给用户，不能删除', en: 'The role {name} is held by users and cannot be removed' },
  grantRolesRequired: { zh: '请选择要授权的角色', en: 'Please choose the roles to grant' },
  grantIdsInvalid: { zh: '参数 {param} 应为 id 列表', en: 'Parameter {param} must be a list of ids' },
  grantUnknown: { zh: '{what}不存在或已删除: {ids}', en: '{whatEn} not found or removed: {ids}' },
  menuCodeExists: { zh: '菜单编号 {code} 已存在', en: 'The menu code {code} already exists' },
  menuParentMissing: { zh: '上级菜单不存在', en: 'The parent menu does not exist' },
  menuParentCycle: { zh: '上级菜单不能是该菜单本身或其下级菜单', en: 'The parent menu cannot be the menu itself or one of its sub-menus' },
  menuButtonNeedsParent: { zh: '按钮必须属于一个菜单', en: 'A button must belong to a menu' },
  menuHasChildren: { zh: '请先删除下级菜单或按钮', en: 'Please remove the sub-menus and buttons first' },
  topMenuCodeExists: { zh: '顶部菜单编号 {code} 已存在', en: 'The top menu code {code} already exists' },
  topMenusRequired: { zh: '请选择顶部菜单', en: 'Please choose the top menus' },
  scopeResourceUnknown: { zh: '资源 {resource} 不存在', en: 'No resource named {resource}' },
  scopePathInvalid: { zh: '接口路径须以 /api/ 开头', en: 'The path pattern must start with /api/' },
  adminOnly: { zh: '只有管理员可以执行此操作', en: 'Only administrators may do this' },
} as const satisfies Record<string, Record<Lang, string>>;

export type MessageKey = keyof typeof messages;

/** Fills `{name}` placeholders of `text` from `params` (missing ones stay as written). */
export function format(text: string, params: Record<string, unknown> = {}): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

/** The message `key` in `lang`, with placeholders filled. */
export function t(key: MessageKey, lang: Lang = 'zh', params?: Record<string, unknown>): string {
  return format(messages[key][lang], params);
}

