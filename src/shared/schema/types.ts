/**
 * Types of the resource schema (DESIGN §4), the metadata one file of `schemas/` holds. The authoritative
 * definition is the meta-schema `schemas/_meta/resource.schema.json`; these types mirror it for code.
 */

/** The generic endpoints a resource may mount under its `api` (DESIGN §5). */
export type EndpointName =
  | 'list'
  | 'page'
  | 'detail'
  | 'submit'
  | 'remove'
  | 'select'
  | 'myList'
  | 'myPage'
  | 'list-for-myCompany'
  | 'tree'
  | 'lazy-tree';

/** A validation rule of a field, as Formily's `x-validator` entries, with the en text beside the zh one. */
export interface FieldRule {
  required?: boolean;
  maxLength?: number;
  minLength?: number;
  max?: number;
  min?: number;
  maximum?: number;
  minimum?: number;
  pattern?: string;
  format?: string;
  message?: string;
  messageEn?: string;
  triggerType?: 'onInput' | 'onFocus' | 'onBlur';
}

/** One reaction of Formily's `x-reactions` (the passive form: dependencies → state). */
export interface FieldReaction {
  dependencies?: string[];
  fulfill?: {
    state?: Record<string, unknown>;
    schema?: Record<string, unknown>;
  };
  otherwise?: FieldReaction['fulfill'];
  when?: string;
}

/** A node of a Formily form schema: a field (`type` string, number ...) or a layout node (`type: void`). */
export interface FormNode {
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'void';
  title?: string;
  titleEn?: string;
  description?: string;
  descriptionEn?: string;
  default?: unknown;
  enum?: Array<string | number | boolean | { label: string; labelEn?: string; value: string | number | boolean }>;
  format?: string;
  maxLength?: number;
  minLength?: number;
  maximum?: number;
  minimum?: number;
  maxItems?: number;
  pattern?: string;
  required?: boolean;
  properties?: Record<string, FormNode>;
  items?: FormNode;
  'x-index'?: number;
  'x-component'?: string;
  'x-component-props'?: Record<string, unknown>;
  'x-decorator'?: string;
  'x-decorator-props'?: Record<string, unknown>;
  'x-validator'?: FieldRule | FieldRule[];
  'x-reactions'?: FieldReaction | FieldReaction[];
  'x-display'?: 'visible' | 'hidden' | 'none';
  'x-pattern'?: 'editable' | 'disabled' | 'readOnly' | 'readPretty';
  'x-content'?: unknown;
  /** Column overrides for table sync: another column name, or an explicit SQL type. */
  'x-column'?: { name?: string; type?: string };
  /**
   * Written by the server only (e.g. a workflow status, see `ActionsSpec.statusField`): the generic submit
   * keeps the stored value on an update and gives a new record the field's default, whatever the body says.
   */
  'x-server-only'?: boolean;
  /**
   * The record this field references, checked to exist (live) in the caller's tenant on every submit:
   * `dept` (blade_dept), `user` (blade_user), or a resource name (`project/baseinfo`). Comma lists and
   * arrays are checked element by element.
   */
  'x-ref'?: string;
  /** Never answered by reads nor usable as a list filter (a stored secret's hash); written by hooks. */
  'x-write-only'?: boolean;
  [key: `x-${string}`]: unknown;
}

/**
 * A list column. `field` is a form field (labelled by its title, rendered by its component), or a value the
 * list answers beside the record (a join or a computed state, e.g. a user's `roleName` or `locked`): then
 * `title`/`titleEn` label it and `type` says how to show it ('boolean' → 是 / 否, 'text' → as answered).
 */
export interface ListColumn {
  field: string;
  width?: number;
  sortable?: boolean;
  ellipsis?: boolean;
  title?: string;
  titleEn?: string;
  /**
   * How the cell shows its value, when not by the field's form node: `boolean` 是 / 否; `fileSize` bytes in
   * steps of 1024 ("1.5 KB"); `relativeTime` 刚刚 / N 分钟前 … under 4 days, then the date (spec 000 §9;
   * client runtime/format.ts).
   */
  type?: 'text' | 'boolean' | 'fileSize' | 'relativeTime';
}

/**
 * A tree beside the list (e.g. the department tree left of the user list): its nodes come from a lazy tree
 * endpoint (`GET url?parentId=` answering `{id, value, title, hasChildren}` nodes); choosing a node filters
 * the list by `param` = the node's value (choosing it again clears the filter), and returns to page 1.
 */
export interface SideTreeSpec {
  url: string;
  param: string;
  title: string;
  titleEn: string;
  /** The query parameter naming the parent (default `parentId`) and the roots' parent value (default '0'). */
  parentParam?: string;
  rootValue?: string;
}

/**
 * An operation of a list (DESIGN §4 `list.operations`): a button that calls an endpoint on the checked rows
 * (`placement` toolbar) or on one row (`placement` row), for what is not a status change — granting roles,
 * resetting passwords, unlocking, exporting. The server checks permission again (the button `code`).
 *
 * - `params` / `body`: what is sent, each value a literal or a reference: `$keys` (the rows' keys, a comma
 *   list in params and an array in the body), `$row.<field>` (the one row's field), `$query` (params only:
 *   the list's current filters, spread);
 * - `dialog`: a Formily form shown first; its values join the body. `initial` fills it: `values` from the
 *   row (`{ field: '$row.<field>' }`, one row only) and/or an `endpoint` answered before the dialog opens
 *   (`params` as above) whose properties `map` onto fields (`{ menuIds: 'menu' }`);
 * - without a dialog, `confirm` is asked (or 确定执行「…」吗？);
 * - `result`: 'download' saves the answer (a file) as `fileName`; 'reveal' shows the answered rows once in a
 *   table of `reveal` columns (generated passwords) with its `note`; 'view' only shows the `dialog` (its
 *   components read their own endpoints — a crawl's data, its dashboard — with a Close button, no `endpoint`
 *   called; string `x-component-props` values `$row.<field>` in it are the one row's field); 'open' opens the
 *   answered `link` (a same-origin path, e.g. a document's signed preview page) in a new window; otherwise the
 *   `success` text is shown;
 * - `visible`: an expression over `$record` (the row) deciding whether a row shows the button.
 */
export interface ListOperation {
  key: string;
  label: string;
  labelEn: string;
  code?: string;
  placement: Array<'toolbar' | 'row'>;
  /** Rows the toolbar button needs: 'many' (default; one or more checked), 'one', or 'none'. */
  selection?: 'none' | 'one' | 'many';
  method?: 'GET' | 'POST';
  /** The endpoint called; required unless `result` is 'view'. */
  endpoint?: string;
  params?: Record<string, string>;
  body?: Record<string, string>;
  dialog?: FormNode & { type: 'object'; properties: Record<string, FormNode> };
  dialogWidth?: number;
  initial?: { endpoint?: string; params?: Record<string, string>; map?: Record<string, string>; values?: Record<string, string> };
  confirm?: string;
  confirmEn?: string;
  success?: string;
  successEn?: string;
  danger?: boolean;
  visible?: string;
  /**
   * 'view' only shows the dialog; 'design' opens the row's `designField` (a Formily form the record holds) in
   * the form designer (`/designer/<resource>?id=&field=`), which saves it back through the resource's submit.
   */
  result?: 'download' | 'reveal' | 'view' | 'design' | 'open';
  /** With result 'design': the record's field (type object) holding the form to design. */
  designField?: string;
  fileName?: string;
  reveal?: RevealSpec;
}

/** Values answered once (generated passwords): the columns shown and the warning above them. */
export interface RevealSpec {
  columns: Array<{ field: string; title: string; titleEn: string }>;
  note: string;
  noteEn: string;
}

export interface ListSpec {
  columns?: ListColumn[];
  search?: Array<{ field: string; operator?: 'like' | 'equal' | 'daterange' }>;
  toolbar?: string[];
  rowActions?: string[];
  /** Default sort, e.g. "-createTime" (minus = descending). */
  defaultSort?: string;
  operations?: ListOperation[];
  sideTree?: SideTreeSpec;
  /** After an add, the answer's once-only values (a new account's initial password) shown as a RevealDialog. */
  revealOnSave?: RevealSpec;
}

export interface TreeSpec {
  /** The field holding the parent's key (e.g. parentId, parentCode). */
  parentField: string;
  /** The field shown as the node title. */
  labelField: string;
  /** The parent value of root nodes (e.g. "0" or "00"). */
  rootValue: string;
  /** The query parameter of lazy-tree (defaults to `parentField`). */
  lazyParam?: string;
}

export interface ResourceSchema {
  $schema?: string;
  name: string;
  title: string;
  titleEn: string;
  api: string;
  table: string;
  /** The identifying field; default `id` (a snowflake). Another key is a user-given string column. */
  key?: string;
  /**
   * Row filters the server applies: `tenant` (default true) keeps rows per tenant; `dataScope` applies the
   * caller's role data scopes; `platform` makes one copy for all tenants (regions, system dictionaries),
   * readable by every signed-in user and writable only by administrators of the platform tenant 000000
   * (DESIGN §4). `platform` implies `tenant: false`.
   */
  scope?: {
    tenant?: boolean;
    dataScope?: boolean;
    platform?: boolean;
    /** Every operation, reads included, only for administrators of the platform tenant 000000 (403 otherwise). */
    platformAdminOnly?: boolean;
    /** Reads by administrators of the platform tenant 000000 see every tenant's rows (logs). */
    platformSeesAll?: boolean;
    /** A user's own records: everyone but an administrator reads, edits and removes only the rows they created. */
    own?: boolean;
  };
  endpoints: EndpointName[];
  /** Menu code whose grants gate the endpoints (see `permissions`). */
  menu?: string;
  /**
   * Required grant per operation: `read` (list, page, detail, select, tree), `myList`, `list-for-myCompany`,
   * `add`, `edit`, `remove`. Defaults: read = menu, myList and list-for-myCompany = read, add/edit/remove =
   * `<menu>_add`/`_edit`/`_delete`. `null` means any signed-in user of the tenant; a list of codes, any one of
   * them (a resource read through two menus: resources/access.ts `requiredCode`).
   */
  permissions?: Partial<Record<'read' | 'myList' | 'list-for-myCompany' | 'add' | 'edit' | 'remove', string | string[] | null>>;
  /** Field shown as an option's label by `select`. */
  labelField?: string;
  tree?: TreeSpec;
  form: FormNode & { type: 'object'; properties: Record<string, FormNode> };
  list?: ListSpec;
  detail?: FormNode;
  actions?: ActionsSpec;
  /** Cross-field rules the engine checks (or applies) on every submit, after the fields' own rules. */
  rules?: RecordRule[];
  /** What statistics group this resource's records by (DESIGN §4 `stats`). */
  stats?: StatsSpec;
  /** Every generic submit and remove writes an audit row to the usual log (blade_log_usual; write.ts). */
  audit?: boolean;
  /** The BPMN process that drives the resource's workflow (DESIGN §4 `flow`, §8; src/server/modules/flow). */
  flow?: FlowSpec;
  /** Removal refused while other rows reference the record (write.ts; see `RemoveGuard`). */
  removeGuard?: RemoveGuard[];
  /**
   * `GET <api>/checkRepeat?id=` compares a record's texts (label, long texts, attachments) with the library kinds
   * listed (default: the resource's own area) through the duplicate-checking module (src/server/modules/duplicate).
   */
  duplicateCheck?: { library?: Array<'file' | 'achievement' | 'project' | 'portal'> };
  /**
   * `GET <api>/searchByEs` searches the resource's index definitions (es/index) for readers of the resource;
   * `public` (field → value, e.g. `{ "isRelease": 1 }`) lets the records holding those values be found without
   * login (`GET /api/es/public/search`) through the search module (src/server/modules/search).
   */
  searchByEs?: { public?: Record<string, string | number | boolean> };
  /**
   * `GET <api>/select` answers only the records holding these values (field → value, compared as text), e.g.
   * `{ "supplierStatus": "2" }`: only approved suppliers are offered where a form picks one (engine.ts `select`).
   */
  selectWhere?: Record<string, string | number | boolean>;
  /**
   * Named lists of the records that name the caller: `GET <api>/<endpoint>` answers the page of records whose
   * `field` equals the caller's user id (or, an array field, contains it) — a bidding project's `myProject`
   * (leaderId) and `myCooperationProject` (cooperationUserIds); the myList grant, no data scope (routes.ts). With a
   * `title` the resource's screen offers the list in its list switch (shell/pages.tsx).
   */
  userLists?: Array<{ endpoint: string; field: string; title?: string; titleEn?: string }>;
  /** `false`: Excel templates may not name this resource (src/server/modules/excel/templates.ts `templatable`). */
  excel?: boolean;
  /**
   * The resource's own names for the Excel calls (spec 001 §7 project/report: import-report, export-report,
   * export-excel-report), served under its `api` through the Excel module's importData / exportData /
   * exportTemplate with the tenant's template of code `template` (src/server/modules/excel/aliases.ts).
   */
  excelCalls?: { template: string; import?: string; export?: string; exportTemplate?: string };
  /**
   * Sets of fields no two live records of a tenant may share (text trimmed, case-insensitive; a set with an empty
   * value is not checked), each refused with its message on the first field (write.ts `uniqueFaults`).
   */
  unique?: Array<{ fields: string[]; message: string; messageEn: string }>;
  /**
   * Word documents filled from a record (src/server/modules/documents): each `items` kind has its template in
   * `templates` (uploaded .docx, newest enabled of the kind) or one built from the form; `preview` is the public
   * page a signed link opens.
   */
  documents?: { templates?: string; items: Array<{ kind: string; title: string; titleEn: string; preview?: string }> };
  /**
   * Records imported from files and published to the portal (src/server/modules/portal/records.ts): `dedupe`
   * fields make two records the same (deleteRuplicate), `toContent` maps portal/content fields to this
   * resource's (export-to-portal), `import` the formats import-qikan reads into it.
   */
  portalRecord?: { dedupe: string[]; toContent: Record<string, string>; import?: Array<'xlsx' | 'refworks' | 'endnote' | 'noteexpress'> };
}

/**
 * A resource's BPMN process (DESIGN §4 `flow`): `process` is the process id of a deployed definition
 * (schemas/flows/*.bpmn or uploaded); `path` the menu path its to-dos link to (default: the path of the
 * resource's `menu`). Its generic endpoints (start-process, claim-list, confirm-task, complete-task,
 * todo-list, send-list, done-list, expert-todo, expert-done) are mounted under the resource's `api`; its
 * workflow `actions`, when it has some, start the process (kind submit) and complete its tasks.
 */
export interface FlowSpec {
  process: string;
  path?: string;
}

/**
 * "Refuse removal while rows of `table` reference this record through `column`" (write.ts): checked in the
 * remove's transaction over live rows (`is_deleted = 0`), in the caller's tenant unless `tenant` is false; a
 * hit is a 400 with the message, and nothing changes. E.g. a department with users or child departments.
 */
export interface RemoveGuard {
  table: string;
  column: string;
  tenant?: boolean;
  message: string;
  messageEn: string;
}

/**
 * A rule across fields of one record (DESIGN §4 `rules`), enforced by the engine for every resource:
 *
 * - `{ before: [a, b], message, messageEn, field? }`: when both are present, `a` may not come after `b`
 *   (dates as yyyy-MM-dd / yyyy-MM-dd HH:mm:ss texts compare as the dates do; numbers as numbers); a failure
 *   is a 400 on `field` (default `b`) with the rule's message, and nothing is stored.
 * - `{ clear: [fields], unless: expression }`: the fields are emptied (null) unless the expression holds —
 *   the server's half of an `x-reactions` that hides a field, so a record never keeps a value its other
 *   fields say it cannot have. The expression is the shared safe evaluator's (shared/schema/expression.ts)
 *   over `$record` (e.g. `{{$record.state === '2'}}`).
 */
export type RecordRule =
  | { before: [string, string]; field?: string; message: string; messageEn: string }
  | { clear: string[]; unless: string }
  /** Σ `sum` must equal `equals` (rounded to `scale` decimals, default 2); src/shared/schema/rules.ts. */
  | { sum: string[]; equals: string; scale?: number; field?: string; message: string; messageEn: string };

/**
 * The fields statistics group a resource's records by (DESIGN §4 `stats`): the resources of one `group`
 * (e.g. `achievement`) are counted together.
 * - `yearField`: the record's natural date, first present field wins (else the year of create_time);
 * - `authorField`: `<array field>.<name property>` of the author list (e.g. `userNamesDetailForm.userName`);
 * - `companyField`: the department field whose company the record counts for (default `createDept`).
 */
export interface StatsSpec {
  group: string;
  yearField?: string | string[];
  authorField?: string;
  companyField?: string;
}

/**
 * A workflow action (DESIGN §4 `actions`, §8): a button that moves a record from one status to another. The
 * server enforces it (src/server/modules/flow/actions.ts): status in `from`, an active role in `roles`
 * (administrators pass), the caller standing to the record as `actor` says, the dialog's rules.
 */
export interface WorkflowAction {
  key: string;
  label: string;
  labelEn: string;
  /** POST path; body `{businessId, businessType, action?, ...dialog values}`. */
  endpoint: string;
  /** For the flow's history: submit (submitter kept), decide (examiner and opinion kept), other. */
  kind?: 'submit' | 'decide' | 'other';
  /** With a schema `flow`: the outcome the action completes its process task with (default: the key). */
  outcome?: string;
  /** With a schema `flow`: the user tasks (BPMN ids) the action may complete (default: any open one). */
  task?: string[];
  /** Statuses the action applies to. */
  from?: string[];
  /** The status after the action. */
  to?: string;
  /** Role aliases allowed; '*' = any signed-in user. */
  roles: string[];
  /** owner = created the record; company = record in the caller's company; companyTree = or a company below. */
  actor?: 'any' | 'owner' | 'company' | 'companyTree';
  /** A Formily form shown before posting; its values are posted with the body and checked by the server. */
  dialog?: FormNode & { type: 'object'; properties: Record<string, FormNode> };
  confirm?: string;
  confirmEn?: string;
  success?: string;
  successEn?: string;
  danger?: boolean;
  placement?: Array<'row' | 'detail'>;
}

/** The `actions` section of a resource schema. */
export interface ActionsSpec {
  /** The flow that keeps the history: 'examine' (basic_examine, basic_examine_record). */
  flow?: string;
  /** The record field holding the status (x-server-only). */
  statusField?: string;
  /** The system dictionary labelling the statuses. */
  statusDict?: string;
  /** Statuses in which generic edit and remove are refused. */
  locked?: string[];
  items: WorkflowAction[];
}
