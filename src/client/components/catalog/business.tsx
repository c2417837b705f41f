/**
 * Registrations of the palette's group 业务 (business): the platform's own components (dictionaries, departments,
 * regions, projects, users, records, grant trees, workflow history and diagrams, the home page's cards ...) — one
 * `registerComponent` call each (the API: components/registration.ts). The catalogue's entry,
 * components/catalog.tsx, calls `registerBusiness()` after the groups before it, in the palette's order of groups
 * (spec 002 §2).
 */
import { BookOutlined, ClusterOutlined, GlobalOutlined } from '@ant-design/icons';
import { registerComponent } from '../registration.js';
import { DictSelect } from '../DictSelect.js';
import { DeptTreeSelect } from '../DeptTreeSelect.js';
import { RegionCascader } from '../RegionCascader.js';
import { ProjectPicker } from '../ProjectPicker.js';
import { UserPicker } from '../UserPicker.js';
import { ResourceTreeSelect } from '../ResourceTreeSelect.js';
import { ResourceSelect } from '../ResourceSelect.js';
import { CheckTree } from '../CheckTree.js';
import { ContentModelFields } from '../ContentModelFields.js';
import { FullTextSearch } from '../FullTextSearch.js';
import { BidDocuments, BID_TEXTS } from '../BidDocuments.js';
import { ExamineTimeline } from '../ExamineTimeline.js';
import { BpmnViewer, BPMN_TEXTS } from '../BpmnViewer.js';
import { TodoCard, TODO_CARD_TEXTS } from '../TodoCard.js';
import { MenuPanel, MENU_PANEL_TEXTS } from '../MenuPanel.js';
import { HelpTip, HELP_TIP_TEXTS } from '../HelpTip.js';
import { TreeList } from '../TreeList.js';
import { BpmnFileInput, BPMN_FILE_TEXTS } from '../BpmnFileInput.js';
import { DuplicateResult, DUPLICATE_TEXTS } from '../DuplicateResult.js';

/** Registers the components of this group (see the module comment). */
export function registerBusiness(): void {
  registerComponent({
    name: 'DictSelect',
    component: DictSelect,
    title: { zh: '字典选择', en: 'Dictionary select' },
    group: 'business',
    palette: {
      key: 'dict',
      order: 10,
      icon: BookOutlined,
      schema: { maxLength: 32, 'x-component-props': { code: '' } },
      settings: { options: { source: 'dictionary', switchTo: 'Select' } },
      designer: { choice: true },
    },
  });
  registerComponent({
    name: 'DeptTreeSelect',
    component: DeptTreeSelect,
    title: { zh: '单位选择', en: 'Organisation select' },
    group: 'business',
    palette: { key: 'dept', order: 20, icon: ClusterOutlined, schema: { maxLength: 32 }, designer: { choice: true } },
    texts: { 'cmp.dept.placeholder': { zh: '请选择单位', en: 'Please select the organisation' } },
  });
  registerComponent({ name: 'ResourceTreeSelect', component: ResourceTreeSelect, title: { zh: '上级选择', en: 'Parent select' }, group: 'business' });
  registerComponent({ name: 'ResourceSelect', component: ResourceSelect, title: { zh: '数据选择', en: 'Record select' }, group: 'business' });
  // the extra fields of a portal channel's content models, stored as the content's attributes (issue 14)
  registerComponent({ name: 'ContentModelFields', component: ContentModelFields, title: { zh: '内容模型字段', en: 'Content model fields' }, group: 'business' });
  // the back office's full-text search over a searchByEs endpoint, with searchByGPT's answers when configured (issue 14)
  registerComponent({
    name: 'FullTextSearch',
    component: FullTextSearch,
    title: { zh: '全文检索', en: 'Full-text search' },
    group: 'business',
    texts: {
      'cmp.search.placeholder': { zh: '请输入关键词，多个词以空格分隔', en: 'Keywords, separated by spaces' },
      'cmp.search.found': { zh: '共找到 {{n}} 条', en: '{{n}} found' },
      'cmp.search.foundMore': { zh: '找到超过 {{n}} 条', en: 'More than {{n}} found' },
      'cmp.search.none': { zh: '没有找到相关内容', en: 'Nothing found' },
      'cmp.search.ask': { zh: '智能问答', en: 'Ask' },
      'cmp.search.answer': { zh: '智能问答（依据检索结果）', en: 'Answer (from the hits)' },
    },
  });
  // a bidding project's catalogue, chapter documents (with the editor's link) and chapter access (issue 17)
  registerComponent({ name: 'BidDocuments', component: BidDocuments, title: { zh: '投标文档', en: 'Bid documents' }, group: 'business', texts: BID_TEXTS });
  // the trees of grant dialogs (roles: menus, data scopes, API scopes, top menus; top menus: menus)
  registerComponent({
    name: 'CheckTree',
    component: CheckTree,
    title: { zh: '授权树', en: 'Grant tree' },
    group: 'business',
    texts: {
      'cmp.checkTree.expandAll': { zh: '全部展开', en: 'Expand all' },
      'cmp.checkTree.collapseAll': { zh: '全部折叠', en: 'Collapse all' },
      'cmp.checkTree.checkAll': { zh: '全选', en: 'Check all' },
      'cmp.checkTree.clear': { zh: '清空', en: 'Clear' },
    },
  });
  registerComponent({
    name: 'RegionCascader',
    component: RegionCascader,
    title: { zh: '地区选择', en: 'Region select' },
    group: 'business',
    palette: { key: 'region', order: 30, icon: GlobalOutlined, schema: { type: 'array', items: { type: 'string' } }, designer: { choice: true } },
    texts: { 'cmp.region.placeholder': { zh: '请选择地区', en: 'Please select the region' } },
  });
  registerComponent({
    name: 'ProjectPicker',
    component: ProjectPicker,
    title: { zh: '项目选择', en: 'Project picker' },
    group: 'business',
    texts: { 'cmp.project.placeholder': { zh: '请选择项目', en: 'Please select the project' } },
  });
  registerComponent({
    name: 'UserPicker',
    component: UserPicker,
    title: { zh: '人员选择', en: 'User picker' },
    group: 'business',
    texts: { 'cmp.user.placeholder': { zh: '请输入姓名或账号搜索', en: 'Search by name or account' } },
  });
  // workflow history (DetailView shows it under the form of resources with a flow)
  registerComponent({ name: 'ExamineTimeline', component: ExamineTimeline, title: { zh: '审核记录', en: 'Review history' }, group: 'business' });
  // a process instance's diagram with its current and finished nodes (bpmn-js loads lazily: BpmnCanvas.tsx)
  registerComponent({ name: 'BpmnViewer', component: BpmnViewer, title: { zh: '流程图', en: 'Process diagram' }, group: 'business', texts: BPMN_TEXTS });
  // the home page's 待办 / 已办 cards: the user's open or done to-dos, their number and the newest (issue 11)
  registerComponent({ name: 'TodoCard', component: TodoCard, title: { zh: '待办卡片', en: 'To-do card' }, group: 'business', texts: TODO_CARD_TEXTS });
  // the home page's shortcut panel: the user's picked screens, with its editor (issue 18, system/menupanel)
  registerComponent({ name: 'MenuPanel', component: MenuPanel, title: { zh: '快捷菜单', en: 'Shortcuts' }, group: 'business', texts: MENU_PANEL_TEXTS });
  registerComponent({ name: 'HelpTip', component: HelpTip, title: { zh: '帮助提示', en: 'Help tip' }, group: 'business', texts: HELP_TIP_TEXTS });
  // a tree resource's tree beside or above the list of the chosen node's children (the dictionary layouts, spec 000 §2.3)
  registerComponent({ name: 'TreeList', component: TreeList, title: { zh: '树与列表', en: 'Tree and list' }, group: 'business' });
  // BPMN files read in the browser for the process models' upload dialog (sent as JSON to deploy-upload)
  registerComponent({ name: 'BpmnFileInput', component: BpmnFileInput, title: { zh: '流程文件', en: 'Process files' }, group: 'business', texts: BPMN_FILE_TEXTS });
  // a duplicate-check task's result: figures, sources, the two texts side by side with the matches highlighted (issue 15)
  registerComponent({ name: 'DuplicateResult', component: DuplicateResult, title: { zh: '查重结果', en: 'Duplicate-check result' }, group: 'business', texts: DUPLICATE_TEXTS });
}
