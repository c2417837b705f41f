/**
 * The research projects' business dictionaries (issue 12; blade_dict_biz, per tenant), seeded by the project
 * module for every live tenant that lacks a code (existing databases included). Values follow enterprise
 * research-management practice (科技项目管理办法; 国家重点研发计划 budget subjects, 财教〔2021〕 series).
 * `project_level` and `project_research_type` are the system seed's (seed/dictionaries.ts).
 */
export interface ProjectDict {
  code: string;
  dictValue: string;
  dictValueEn: string;
  remark: string;
  items: Array<[key: string, zh: string, en: string]>;
}

export const PROJECT_DICTIONARIES: ProjectDict[] = [
  {
    code: 'project_guide_area', dictValue: '指南领域', dictValueEn: 'Guide area', remark: '粮食储备企业科技项目指南的研究领域',
    items: [
      ['1', '绿色储粮', 'Green grain storage'], ['2', '智能粮库', 'Intelligent granaries'], ['3', '粮食质量安全', 'Grain quality and safety'],
      ['4', '节能减损', 'Energy saving and loss reduction'], ['5', '粮食物流', 'Grain logistics'], ['6', '信息化与数字化', 'Informatisation and digitalisation'],
      ['7', '安全生产', 'Work safety'], ['8', '软科学研究', 'Soft science'],
    ],
  },
  {
    code: 'project_guide_status', dictValue: '指南状态', dictValueEn: 'Guide status', remark: '指南的审核发布状态 (schemas/project/guide.json actions)',
    items: [['0', '草稿', 'Draft'], ['1', '待审核', 'Under review'], ['2', '已发布', 'Published'], ['3', '已驳回', 'Rejected']],
  },
  {
    code: 'project_status', dictValue: '项目状态', dictValueEn: 'Project status', remark: '申报流程 projectDeclaration 推导的项目状态',
    items: [
      ['0', '草稿', 'Draft'], ['1', '单位审核中', 'Company review'], ['2', '集团审核中', 'Group review'], ['3', '专家评审中', 'Expert review'],
      ['4', '立项审批中', 'Final approval'], ['5', '退回修改', 'Returned for changes'], ['6', '已立项', 'Approved'], ['7', '未通过', 'Rejected'],
      ['8', '已结题', 'Completed'],
    ],
  },
  {
    code: 'project_report_kind', dictValue: '报告类型', dictValueEn: 'Report kind', remark: '项目过程管理的三类报告',
    items: [['1', '开题报告', 'Opening report'], ['2', '中期报告', 'Mid-term report'], ['3', '结题报告', 'Final report']],
  },
  {
    code: 'project_budget_subject', dictValue: '预算科目', dictValueEn: 'Budget subject', remark: '直接费用预算科目（参照国家科技计划项目资金管理办法）',
    items: [
      ['budgetEquipment', '设备费', 'Equipment'], ['budgetMaterial', '材料费', 'Materials'], ['budgetTesting', '测试化验加工费', 'Testing and processing'],
      ['budgetTravel', '差旅费', 'Travel'], ['budgetMeeting', '会议费', 'Meetings'], ['budgetLabour', '劳务费', 'Labour'],
      ['budgetExpert', '专家咨询费', 'Expert consultation'], ['budgetOther', '其他费用', 'Other'],
    ],
  },
  {
    code: 'project_member_role', dictValue: '项目分工', dictValueEn: 'Member role', remark: '项目组成员在项目中的分工',
    items: [['1', '项目负责人', 'Project leader'], ['2', '技术负责人', 'Technical lead'], ['3', '主要研究人员', 'Principal researcher'], ['4', '参与人员', 'Participant'], ['5', '财务人员', 'Finance']],
  },
  {
    code: 'project_change_type', dictValue: '变更类型', dictValueEn: 'Change type', remark: '项目实施过程中的变更事项 (schemas/project/itemchange.json)',
    items: [
      ['1', '项目负责人变更', 'Change of leader'], ['2', '项目延期', 'Extension'], ['3', '研究内容调整', 'Change of content'],
      ['4', '考核指标调整', 'Change of indicators'], ['5', '经费预算调整', 'Budget adjustment'], ['6', '承担单位变更', 'Change of undertaking unit'],
      ['7', '项目终止', 'Termination'],
    ],
  },
  {
    code: 'project_annex_kind', dictValue: '附件类别', dictValueEn: 'Document kind', remark: '项目归档附件的类别 (schemas/project/annex.json)',
    items: [
      ['1', '申报书', 'Declaration'], ['2', '任务书', 'Task book'], ['3', '合同协议', 'Contract'], ['4', '过程报告', 'Progress report'],
      ['5', '财务资料', 'Financial records'], ['6', '验收材料', 'Acceptance materials'], ['7', '其他', 'Other'],
    ],
  },
  {
    code: 'project_document_kind', dictValue: '项目文书', dictValueEn: 'Project document', remark: '由 Word 模板生成的项目文书',
    items: [['feasibility', '可行性研究报告', 'Feasibility report'], ['taskBook', '任务书', 'Task book'], ['acceptance', '验收报告', 'Acceptance report'], ['report', '项目报告', 'Project report']],
  },
];
