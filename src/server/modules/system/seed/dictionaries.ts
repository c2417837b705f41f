/**
 * Seed data for the dictionaries (spec 002 §3 "Dictionary"; DESIGN §5 "dictionaries (system and business)").
 *
 * Shape: each {@link DictSeed} is meant to become one parent row (`parentId` 0; `code`, `dictValue`, `remark`;
 * BladeX stores the parent's `dictKey` as '-1') and one child row per item (`code`, `dictKey`, `dictValue`,
 * `isSealed` default 0), the item's position in `items` (from 1) giving its `sort`. `dictValueEn` is the
 * en-locale label of the parent and of each item. Keys are strings, as the API returns them.
 *
 * - {@link systemDictionaries} are served by `GET /api/blade-system/dict/dictionary?code=` (table dict).
 * - {@link businessDictionaries} are served by `GET /api/blade-system/dict-biz/dictionary?code=` (dict_biz).
 *
 * Every category list comes from a law, a national standard, an official catalogue or settled practice in
 * Chinese research management; each dictionary's `remark` names its source. Summary:
 *
 * | code | source of the categories |
 * | --- | --- |
 * | achievements_resource | 课题来源 of 科技部《科技成果登记办法》 registration forms, mapped to the group's project tiers |
 * | patent_type | 《中华人民共和国专利法》第二条 (发明、实用新型、外观设计) |
 * | patent_group_sign | the group's signing position among the patentees (sole / first / joint), 《专利法》共有专利权 |
 * | transform_type | 《中华人民共和国促进科技成果转化法》第十六条, items (一)–(六) in the law's order |
 * | paper_level | the citation indexes and core-journal lists used in Chinese research evaluation |
 * | paper_apply_scope, paper_languages | common practice of 论文 records (journal / conference / proceedings) |
 * | soft_apply_status, soft_get_type, soft_auth_scope | 《计算机软件著作权登记办法》 and the CPCC 软件著作权登记申请表 |
 * | book_* | CIP / ISBN publication data and common practice of 著作 records |
 * | honor_* | 《国家科学技术奖励条例》, 《省、部级科学技术奖励管理办法》, 中国专利奖, 《社会力量设立科学技术奖管理办法》 |
 * | standard_category | 《中华人民共和国标准化法》(2017) 第二条 |
 * | standard_create_type, standard_state | 《标准化法》 制定/修订; status labels of 全国标准信息公共服务平台 |
 * | sex | spec 000 §3.3 (1/2/3); GB/T 2261.1-2003 for male/female |
 * | education | GB/T 4658-2006 学历代码 (keys are the standard's codes) |
 * | people_zc_level | 中办发〔2016〕77号《关于深化职称制度改革的意见》 (正高级/副高级/中级/初级/员级) |
 * | yes_no, menu_category, data_scope_type, org_category, user_type | platform conventions (spec 000/002, DESIGN §5) |
 * | examine_status | the platform's achievement review workflow |
 *
 * Choices made where the spec is silent (spec README: "not shown" → build what a user expects, document it):
 * - `patent_group_sign`: the patent record carries a `signature` field next to the patentee list
 *   (ownershipDetailForm); the code reads 专利·集团·署名, so the dictionary records where the group's unit
 *   stands among the patentees: sole, first, or a joint patentee that is not first.
 * - `education` keys are the GB/T 4658-2006 codes ('11' 博士研究生毕业, '14' 硕士研究生毕业, '21', '31', '41',
 *   '61', '90') rather than 1..n, so exports line up with HR data that already use the standard.
 * - `people_zc_level` adds 无 (no title) because zcLevel is required on the personal-info form and staff
 *   without a professional title must still be able to save it.
 * - `honor_grade` adds 金奖 and 银奖: 中国专利奖 (an `honor_product_type`) is graded 金奖/银奖/优秀奖.
 * - `yes_no` is 0 否 / 1 是 (as isSealed). Note BladeX's own yes_no is 1 否 / 2 是 and its menu isOpen uses
 *   it (spec 002: isOpen 2 = new window); the menu form must therefore not take isOpen choices from yes_no.
 * - `help_tip` holds the help articles (dictKey = tip key, dictValue = title line + text): the guide the help
 *   links open (003) and one per achievement form; administrators add more; a missing key shows 未找到对应的提示.
 *   `websiteTip` holds the website tips a page schema asks for (HelpTip kind website; a missing code shows
 *   未找到对应code的提示). Both are public (`isPublic`): the help centre is a public route (spec 000 §2.2).
 * - Not seeded here: BladeX's `flow` (route per dictKey held in each child's remark; the routes are not shown),
 *   the project-source values 1/2/3 and the portal configuration choices 1/2/3 (fixed lists in the forms).
 */

import { helpDictionaries } from './help-tips.js';

/** One seeded dictionary: a parent entry (code, dictValue) and its child entries (dictKey → dictValue). */
export interface DictSeed {
  code: string; // dictionary code, e.g. 'patent_type'
  dictValue: string; // Chinese name of the dictionary itself, e.g. '专利类型'
  dictValueEn: string; // English name
  remark?: string; // where the categories come from (standard / law / common practice), Chinese or English
  isPublic?: 1; // system dictionaries only: readable without signing in (dictionary?code=)
  items: Array<{ dictKey: string; dictValue: string; dictValueEn: string; isSealed?: 0 | 1 }>;
}

type DictItem = DictSeed['items'][number];

/** A child entry: key, zh label, en label. */
function item(dictKey: string, dictValue: string, dictValueEn: string): DictItem {
  return { dictKey, dictValue, dictValueEn };
}

/** System dictionaries, served by /api/blade-system/dict/dictionary?code= */
export const systemDictionaries: DictSeed[] = [
  // ---------------------------------------------------------------- achievements (spec 001 §3)
  {
    code: 'achievements_resource',
    dictValue: '成果来源',
    dictValueEn: 'Achievement source',
    remark:
      '依据科技部《科技成果登记办法》成果登记表“课题来源”（国家计划、部门/地方计划、横向委托、自选等），按集团项目层级归并',
    items: [
      item('1', '国家级项目', 'National-level project'),
      item('2', '省部级项目', 'Provincial or ministerial-level project'),
      item('3', '集团公司项目', 'Group company project'),
      item('4', '企业自主项目', 'Enterprise self-initiated project'),
      item('5', '横向合作项目', 'Commissioned cooperation project'),
      item('6', '其他', 'Other'),
    ],
  },
  {
    code: 'patent_type',
    dictValue: '专利类型',
    dictValueEn: 'Patent type',
    remark: '《中华人民共和国专利法》第二条：发明创造是指发明、实用新型和外观设计',
    items: [
      item('1', '发明专利', 'Invention patent'),
      item('2', '实用新型专利', 'Utility model patent'),
      item('3', '外观设计专利', 'Design patent'),
    ],
  },
  {
    code: 'patent_group_sign',
    dictValue: '专利权人署名',
    dictValueEn: 'Patentee signing position',
    remark:
      '集团所属单位在专利权人中的署名位次（独立/第一/共同），对应专利证书专利权人顺序；共有专利权见《专利法》关于专利权共有的规定',
    items: [
      item('1', '独立专利权人', 'Sole patentee'),
      item('2', '第一专利权人', 'First patentee'),
      item('3', '共同专利权人（非第一）', 'Joint patentee (not first)'),
    ],
  },
  {
    code: 'transform_type',
    dictValue: '成果转化方式',
    dictValueEn: 'Achievement transfer method',
    remark: '《中华人民共和国促进科技成果转化法》第十六条第（一）至（六）项',
    items: [
      item('1', '自行投资实施转化', 'Self-invested implementation'),
      item('2', '转让', 'Assignment to others'),
      item('3', '许可', 'Licensing to others'),
      item('4', '合作实施', 'Joint implementation with others'),
      item('5', '作价投资', 'Investment in kind (valued as equity)'),
      item('6', '其他', 'Other agreed method'),
    ],
  },
  {
    code: 'paper_level',
    dictValue: '刊物级别',
    dictValueEn: 'Journal level',
    remark:
      'SCI/SSCI（Web of Science）、EI（Ei Compendex）、CSSCI（南京大学）、北大核心（《中文核心期刊要目总览》）、中国科技核心期刊（中国科学技术信息研究所）、CSCD（中国科学院文献情报中心）',
    items: [
      item('1', 'SCI', 'SCI (Science Citation Index)'),
      item('2', 'SSCI', 'SSCI (Social Sciences Citation Index)'),
      item('3', 'EI', 'EI (Engineering Index)'),
      item('4', 'CSSCI', 'CSSCI (Chinese Social Sciences Citation Index)'),
      item('5', '北大中文核心期刊', 'Peking University core journal'),
      item('6', '中国科技核心期刊', 'Chinese S&T core journal (ISTIC)'),
      item('7', 'CSCD', 'CSCD (Chinese Science Citation Database)'),
      item('8', '普通期刊', 'General journal'),
      item('9', '其他', 'Other'),
    ],
  },
  {
    code: 'paper_apply_scope',
    dictValue: '发表类型',
    dictValueEn: 'Publication type',
    remark: '论文成果登记通行分类：期刊论文、会议论文、论文集（对应论文表单的刊物、会议、论文集字段）',
    items: [
      item('1', '期刊论文', 'Journal article'),
      item('2', '会议论文', 'Conference paper'),
      item('3', '论文集', 'Collected papers'),
    ],
  },
  {
    code: 'paper_languages',
    dictValue: '论文语种',
    dictValueEn: 'Paper language',
    remark: '论文成果登记通行分类',
    items: [item('1', '中文', 'Chinese'), item('2', '英文', 'English'), item('3', '其他', 'Other')],
  },
  {
    code: 'soft_apply_status',
    dictValue: '发表状态',
    dictValueEn: 'Publication status',
    remark:
      '《计算机软件著作权登记办法》及软件著作权登记申请表“发表状态”；值 2（已发表）时须填首次发表日期（spec 001 §4）',
    items: [item('1', '未发表', 'Unpublished'), item('2', '已发表', 'Published')],
  },
  {
    code: 'soft_get_type',
    dictValue: '权利取得方式',
    dictValueEn: 'Way of acquiring rights',
    remark: '软件著作权登记申请表“权利取得方式”：原始取得、继受取得（受让、承受、继承）',
    items: [
      item('1', '原始取得', 'Original acquisition'),
      item('2', '继受取得', 'Derivative acquisition (assignment, succession or inheritance)'),
    ],
  },
  {
    code: 'soft_auth_scope',
    dictValue: '权利范围',
    dictValueEn: 'Scope of rights',
    remark: '软件著作权登记申请表“权利范围”；权利内容见《计算机软件保护条例》第八条',
    items: [item('1', '全部权利', 'All rights'), item('2', '部分权利', 'Partial rights')],
  },
  {
    code: 'book_publish_address',
    dictValue: '出版地',
    dictValueEn: 'Place of publication',
    remark: '著作成果登记通行分类：境内（内地）、境外、港澳台地区',
    items: [
      item('1', '国内', 'Mainland China'),
      item('2', '国外', 'Abroad'),
      item('3', '港澳台', 'Hong Kong, Macao and Taiwan'),
    ],
  },
  {
    code: 'book_language',
    dictValue: '出版语种',
    dictValueEn: 'Publication language',
    remark: '著作成果登记通行分类',
    items: [item('1', '中文', 'Chinese'), item('2', '英文', 'English'), item('3', '其他', 'Other')],
  },
  {
    code: 'book_type',
    dictValue: '著作类别',
    dictValueEn: 'Book type',
    remark: '高校与科研院所科技统计中的著作分类：专著、编著、译著、教材、工具书、科普读物',
    items: [
      item('1', '专著', 'Monograph'),
      item('2', '编著', 'Compiled work'),
      item('3', '译著', 'Translation'),
      item('4', '教材', 'Textbook'),
      item('5', '工具书', 'Reference book'),
      item('6', '科普读物', 'Popular science book'),
      item('7', '其他', 'Other'),
    ],
  },
  {
    code: 'book_publish_level',
    dictValue: '出版社级别',
    dictValueEn: 'Publisher level',
    remark: '按出版社主管主办单位划分（中央/国家级、省部级）的成果评价通行做法',
    items: [
      item('1', '国家级出版社', 'National-level publisher'),
      item('2', '省部级出版社', 'Provincial or ministerial-level publisher'),
      item('3', '其他', 'Other'),
    ],
  },
  {
    code: 'honor_level',
    dictValue: '奖励级别',
    dictValueEn: 'Award level',
    remark:
      '《国家科学技术奖励条例》（国家级）、《省、部级科学技术奖励管理办法》（省部级）、市厅级政府奖励、行业协会（社会力量设奖）及集团内部奖励',
    items: [
      item('1', '国家级', 'National level'),
      item('2', '省部级', 'Provincial or ministerial level'),
      item('3', '市厅级', 'Municipal or bureau level'),
      item('4', '行业协会', 'Industry association'),
      item('5', '集团公司级', 'Group company level'),
      item('6', '企业级', 'Enterprise level'),
    ],
  },
  {
    code: 'honor_grade',
    dictValue: '奖励等级',
    dictValueEn: 'Award grade',
    remark:
      '《国家科学技术奖励条例》（特等奖、一等奖、二等奖）、省部级奖（含三等奖）、中国专利奖（金奖、银奖、优秀奖）',
    items: [
      item('1', '特等奖', 'Special prize'),
      item('2', '一等奖', 'First prize'),
      item('3', '二等奖', 'Second prize'),
      item('4', '三等奖', 'Third prize'),
      item('5', '优秀奖', 'Award of excellence'),
      item('6', '金奖', 'Gold award'),
      item('7', '银奖', 'Silver award'),
    ],
  },
  {
    code: 'honor_product_type',
    dictValue: '奖励类别',
    dictValueEn: 'Award category',
    remark:
      '《国家科学技术奖励条例》第二条（国家自然科学奖、国家技术发明奖、国家科学技术进步奖）、省部级科学技术奖、国家知识产权局中国专利奖、《社会力量设立科学技术奖管理办法》',
    items: [
      item('1', '国家自然科学奖', 'State Natural Science Award'),
      item('2', '国家技术发明奖', 'State Technological Invention Award'),
      item('3', '国家科学技术进步奖', 'State Scientific and Technological Progress Award'),
      item('4', '省部级科学技术奖', 'Provincial or ministerial S&T award'),
      item('5', '中国专利奖', 'China Patent Award'),
      item('6', '社会力量设立科技奖', 'S&T award established by social organisations'),
      item('7', '其他', 'Other'),
    ],
  },
  {
    code: 'standard_category',
    dictValue: '标准类别',
    dictValueEn: 'Standard category',
    remark: '《中华人民共和国标准化法》（2017年修订）第二条：标准包括国家标准、行业标准、地方标准和团体标准、企业标准',
    items: [
      item('1', '国家标准', 'National standard'),
      item('2', '行业标准', 'Industry standard'),
      item('3', '地方标准', 'Local standard'),
      item('4', '团体标准', 'Association standard'),
      item('5', '企业标准', 'Enterprise standard'),
    ],
  },
  {
    code: 'standard_create_type',
    dictValue: '制修订类型',
    dictValueEn: 'Drafting type',
    remark: '《中华人民共和国标准化法》《国家标准管理办法》中的标准制定、修订',
    items: [item('1', '制定', 'New standard'), item('2', '修订', 'Revision')],
  },
  {
    code: 'standard_state',
    dictValue: '标准状态',
    dictValueEn: 'Standard status',
    remark: '全国标准信息公共服务平台的标准状态：现行、即将实施、废止、被代替',
    items: [
      item('1', '现行', 'In force'),
      item('2', '即将实施', 'To be implemented'),
      item('3', '废止', 'Withdrawn'),
      item('4', '被代替', 'Superseded'),
    ],
  },

  // ---------------------------------------------------------------- shell (spec 000 §3, spec 002 §3)
  {
    code: 'sex',
    dictValue: '性别',
    dictValueEn: 'Sex',
    remark: 'spec 000 §3.3：1 男、2 女、3 未知；男/女代码同 GB/T 2261.1-2003（该标准以 0/9 表示未知/未说明，平台按规格用 3）',
    items: [item('1', '男', 'Male'), item('2', '女', 'Female'), item('3', '未知', 'Unknown')],
  },
  {
    code: 'education',
    dictValue: '学历',
    dictValueEn: 'Education',
    remark: 'GB/T 4658-2006《学历代码》，字典键即标准代码（11、14、21、31、41、61、90）',
    items: [
      item('11', '博士研究生', 'Doctoral degree'),
      item('14', '硕士研究生', "Master's degree"),
      item('21', '大学本科', "Bachelor's degree"),
      item('31', '大学专科', 'Junior college'),
      item('41', '中等专科', 'Secondary vocational school'),
      item('61', '高中', 'Senior high school'),
      item('90', '其他', 'Other'),
    ],
  },
  {
    code: 'people_zc_level',
    dictValue: '职称级别',
    dictValueEn: 'Professional title level',
    remark:
      '中办发〔2016〕77号《关于深化职称制度改革的意见》：职称设初级、中级、高级，高级分正高级和副高级，初级分助理级和员级；另设“无”供未评职称人员填写',
    items: [
      item('1', '正高级', 'Senior (full)'),
      item('2', '副高级', 'Senior (associate)'),
      item('3', '中级', 'Intermediate'),
      item('4', '初级', 'Junior (assistant level)'),
      item('5', '员级', 'Junior (technician level)'),
      item('6', '无', 'None'),
    ],
  },
  {
    code: 'yes_no',
    dictValue: '是否',
    dictValueEn: 'Yes or no',
    remark: '平台约定 0 否、1 是（与 isSealed 一致）',
    items: [item('0', '否', 'No'), item('1', '是', 'Yes')],
  },
  {
    code: 'examine_status',
    dictValue: '审核状态',
    dictValueEn: 'Review status',
    remark: '平台成果审核流程：草稿、待审核、审核通过、已驳回',
    items: [
      item('0', '草稿', 'Draft'),
      item('1', '待审核', 'Pending review'),
      item('2', '审核通过', 'Approved'),
      item('3', '已驳回', 'Rejected'),
    ],
  },
  {
    code: 'menu_category',
    dictValue: '菜单类型',
    dictValueEn: 'Menu category',
    remark: 'DESIGN §5：菜单类别 1 菜单、2 按钮',
    items: [item('1', '菜单', 'Menu'), item('2', '按钮', 'Button')],
  },
  {
    code: 'data_scope_type',
    dictValue: '数据权限类型',
    dictValueEn: 'Data scope type',
    remark: 'DESIGN §5：全部、本人、本部门、本部门及子部门、自定义',
    items: [
      item('1', '全部', 'All'),
      item('2', '本人', 'Own records'),
      item('3', '本部门', 'Own department'),
      item('4', '本部门及子部门', 'Own department and sub-departments'),
      item('5', '自定义', 'Custom'),
    ],
  },
  {
    code: 'org_category',
    dictValue: '机构类型',
    dictValueEn: 'Organisation category',
    remark: 'DESIGN §5：公司 → 部门树',
    items: [item('1', '公司', 'Company'), item('2', '部门', 'Department'), item('3', '小组', 'Team')],
  },
  {
    code: 'user_type',
    dictValue: '用户平台',
    dictValueEn: 'User platform',
    remark: '平台约定：1 Web 端、2 App 端',
    items: [item('1', 'Web端', 'Web'), item('2', 'App端', 'Mobile app')],
  },
  ...helpDictionaries, // help_tip and websiteTip: help-tips.ts
];

/** Business dictionaries, served by /api/blade-system/dict-biz/dictionary?code= */
export const businessDictionaries: DictSeed[] = [
  {
    code: 'research_field',
    dictValue: '研究领域',
    dictValueEn: 'Research field',
    remark: '粮食储备企业科技工作的主要方向（储藏、绿色储粮、质量安全、仓储设施、智能化粮库、物流、加工）',
    items: [
      item('1', '粮食储藏', 'Grain storage'),
      item('2', '绿色储粮', 'Green grain storage'),
      item('3', '粮油质量安全', 'Grain and oil quality and safety'),
      item('4', '仓储设施装备', 'Storage facilities and equipment'),
      item('5', '智能化粮库', 'Intelligent granary'),
      item('6', '粮食物流', 'Grain logistics'),
      item('7', '粮油加工', 'Grain and oil processing'),
      item('8', '其他', 'Other'),
    ],
  },
  {
    code: 'project_level',
    dictValue: '项目级别',
    dictValueEn: 'Project level',
    remark: '科技项目按立项主体分级：国家级、省部级、集团级、企业级',
    items: [
      item('1', '国家级', 'National level'),
      item('2', '省部级', 'Provincial or ministerial level'),
      item('3', '集团级', 'Group level'),
      item('4', '企业级', 'Enterprise level'),
    ],
  },
  {
    code: 'project_research_type',
    dictValue: '研究类型',
    dictValueEn: 'Research type',
    remark:
      '国家统计局科技活动分类：研究与试验发展（基础研究、应用研究、试验发展）、研究与试验发展成果应用、科技服务',
    items: [
      item('1', '基础研究', 'Basic research'),
      item('2', '应用研究', 'Applied research'),
      item('3', '试验发展', 'Experimental development'),
      item('4', '成果应用', 'Application of R&D results'),
      item('5', '科技服务', 'S&T services'),
    ],
  },
  {
    code: 'grain_variety',
    dictValue: '粮油品种',
    dictValueEn: 'Grain and oil variety',
    remark: '中央储备粮油的主要储存品种：小麦、稻谷、玉米、大豆、食用植物油',
    items: [
      item('1', '小麦', 'Wheat'),
      item('2', '稻谷', 'Paddy'),
      item('3', '玉米', 'Maize'),
      item('4', '大豆', 'Soybean'),
      item('5', '食用植物油', 'Edible vegetable oil'),
      item('6', '其他', 'Other'),
    ],
  },
];
