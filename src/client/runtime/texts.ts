/**
 * UI texts of the schema runtime (lists, forms, details, dialogs): key → zh and en. The zh texts the spec
 * gives are verbatim (spec 000 §8, 002 §2: 新增成功, 更新成功, 删除成功, 请选择至少一条数据,
 * 确定将选择数据删除?). Keys start with `rt.` (plus the api client's `error.*`). The texts of the registry components
 * that belong to the runtime's screens (Chart, ExamineTimeline) are here too (`rt.chart.*`, `rt.timeline.*`).
 */
import type { Texts } from '../components/texts.js';
import { excelTexts } from './excel-texts.js';

export const runtimeTexts: Texts = {
  ...excelTexts, // the Excel toolbar and its import dialog (excel-texts.ts)
  'error.network': { zh: '网络异常，请稍后重试', en: 'Network error, please try again' },
  'error.unknown': { zh: '未知错误', en: 'unknown error' },
  'rt.search': { zh: '搜索', en: 'Search' },
  'rt.reset': { zh: '重置', en: 'Reset' },
  'rt.add': { zh: '新增', en: 'Add' },
  'rt.addChild': { zh: '新增子项', en: 'Add child' },
  'rt.remove': { zh: '删除', en: 'Delete' },
  'rt.detail': { zh: '查看', en: 'View' },
  'rt.edit': { zh: '编辑', en: 'Edit' },
  'rt.actions': { zh: '操作', en: 'Actions' },
  'rt.ok': { zh: '确定', en: 'OK' },
  'rt.cancel': { zh: '取消', en: 'Cancel' },
  'rt.close': { zh: '关闭', en: 'Close' },
  'rt.save': { zh: '保存', en: 'Save' },
  'rt.saved': { zh: '保存成功', en: 'Saved' },
  'rt.confirmTitle': { zh: '提示', en: 'Confirm' },
  'rt.removeConfirm': { zh: '确定将选择数据删除?', en: 'Delete the selected records?' },
  'rt.selectOne': { zh: '请选择至少一条数据', en: 'Please select at least one record' },
  'rt.removed': { zh: '删除成功', en: 'Deleted successfully' },
  'rt.added': { zh: '新增成功', en: 'Added successfully' },
  'rt.invalidFields': { zh: '有 {{count}} 项需要修改，请查看标红的字段', en: '{{count}} field(s) need attention: see the ones marked in red' },
  'rt.updated': { zh: '更新成功', en: 'Updated successfully' },
  'rt.total': { zh: '共 {{total}} 条', en: 'Total {{total}}' },
  'rt.totalBounded': { zh: '超过 {{total}} 条', en: 'More than {{total}}' },
  'rt.startDate': { zh: '开始日期', en: 'Start date' },
  'rt.endDate': { zh: '结束日期', en: 'End date' },
  'rt.yes': { zh: '是', en: 'Yes' },
  'rt.no': { zh: '否', en: 'No' },
  'rt.loading': { zh: '加载中', en: 'Loading' },
  'rt.schemaFailed': { zh: '页面配置加载失败', en: 'The page definition could not be loaded' },
  'rt.retry': { zh: '重试', en: 'Retry' },
  'rt.serverErrors': { zh: '以下内容未通过校验', en: 'These entries were not accepted' },
  'rt.files': { zh: '{{count}} 个附件', en: '{{count}} file(s)' },
  'rt.array.index': { zh: '序号', en: 'No.' },
  'rt.array.actions': { zh: '操作', en: 'Actions' },
  'rt.array.add': { zh: '添加', en: 'Add' },
  'rt.field.createTime': { zh: '创建时间', en: 'Created' },
  'rt.field.updateTime': { zh: '更新时间', en: 'Updated' },
  'rt.field.createUser': { zh: '创建人', en: 'Created by' },
  'rt.field.createDept': { zh: '创建部门', en: 'Department' },
  'rt.field.status': { zh: '状态', en: 'Status' },
  'rt.field.id': { zh: '编号', en: 'ID' },
  // workflow actions (ActionDialog) and the examination history (ExamineTimeline)
  'rt.action.done': { zh: '操作成功', en: 'Done' },
  'rt.action.confirm': { zh: '确定执行「{{label}}」吗？', en: '{{label}}: are you sure?' },
  'rt.timeline.title': { zh: '审核记录', en: 'Review history' },
  'rt.timeline.empty': { zh: '暂无审核记录', en: 'Not reviewed yet' },
  'rt.timeline.opinion': { zh: '审核意见：', en: 'Opinion: ' },
  // charts (Chart) and schema-described pages (SchemaPage)
  'rt.chart.empty': { zh: '暂无数据', en: 'No data' },
  'rt.chart.failed': { zh: '数据加载失败', en: 'The data could not be loaded' },
  'rt.chart.unknown': { zh: '未知', en: 'Unknown' },
  // list operations (OperationDialog) and the tree beside a list (SideTree)
  'rt.selectExactlyOne': { zh: '请选择一条数据', en: 'Please select exactly one record' },
  'rt.reveal.noted': { zh: '我已记下', en: 'I have noted it' },
  'rt.sideTree.search': { zh: '输入关键字过滤', en: 'Filter by name' },
};
