/**
 * The public system dictionaries of help (spec 000 §2.2, §7, §8; issue 18), seeded with the other system
 * dictionaries (dictionaries.ts `systemDictionaries`):
 *
 * - `help_tip`: the help articles — the help centre reads their tree (dictionary-tree?code=help_tip) and a
 *   form's HelpTip one entry by its key; the first line of a value is the title, the rest the text. 003 is the
 *   guide the help links open (/helpCenter?code=003); basic_* are the achievement forms' help.
 * - `websiteTip`: the website tips a page schema asks for (HelpTip kind website): wel_dashboard on the console,
 *   help_center under the help centre's articles.
 *
 * Both are `isPublic`: visitors read them without signing in (the help centre is a public route).
 */
import type { DictSeed } from './dictionaries.js';

type DictItem = DictSeed['items'][number];

/** A child entry: key, zh text, en text. */
function item(dictKey: string, dictValue: string, dictValueEn: string): DictItem {
  return { dictKey, dictValue, dictValueEn };
}

export const helpDictionaries: DictSeed[] = [
  {
    code: 'help_tip',
    dictValue: '帮助提示',
    dictValueEn: 'Help tips',
    isPublic: 1,
    remark:
      'spec 000 §7：壳层以 dictionary-tree?code=help_tip 读取帮助提示，子项键为提示标识、值为提示内容，由管理员维护；缺失时提示“未找到对应的提示”。值的第一行为标题，其余为正文（帮助中心与表单中的 HelpTip 组件）',
    // the help of the achievement screens (issue 18): key 003 is the guide the help links open (/helpCenter?code=003)
    items: [
      item(
        '003',
        '科技成果登记指南\n1. 在“科技成果”下选择成果类型（专利、论文、软件著作权、著作、奖励、标准），点击“新增”。\n2. 带 * 的项必须填写；附件请上传证书或全文的扫描件（PDF 或图片）。\n3. 保存后成果为“草稿”，可以修改；确认无误后点击“提交审核”，由本单位科研管理人员审核。\n4. 审核通过的成果计入统计，不能再修改或删除；被驳回的成果可按审核意见修改后重新提交。',
        'Registering achievements\n1. Under Achievements pick the kind, click Add.\n2. Fill the fields marked *, attach the certificate or text.\n3. Save (a draft), then Submit for review.\n4. Approved records are locked; fix a rejected one and resubmit.',
      ),
      item(
        'basic_patent',
        '专利登记说明\n专利名称、专利类型、申请日期须与专利证书或受理通知书一致；已授权的专利请填写授权号和授权公告日，并上传专利证书。多个专利权人时在“专利权人”中按证书顺序逐一添加。',
        'Registering a patent\nThe name, type and application date must match the certificate or filing receipt; for a granted patent enter the grant number and date and upload the certificate. Add several patentees in the certificate\'s order.',
      ),
      item(
        'basic_thesis',
        '论文登记说明\n论文名称、发表刊物/论文集、发表年份、卷期与页码须与刊物一致；请上传论文全文或刊物目录页。作者按署名顺序填写，本单位作者可从人员中选择。',
        'Registering a thesis\nThe title, journal or proceedings, year, volume, issue and pages must match the publication; upload the full text or contents page. Enter the authors in byline order; our own authors can be picked from the staff.',
      ),
      item(
        'basic_softwarecopyright',
        '软件著作权登记说明\n软件名称与登记号须与计算机软件著作权登记证书一致，并上传证书扫描件；著作权人有多个时请逐一填写。',
        'Registering a software copyright\nThe software name and registration number must match the registration certificate; upload its scan and list every copyright owner.',
      ),
      item(
        'basic_book',
        '著作登记说明\n著作名称、出版社、出版日期与 ISBN 号须与版权页一致；请上传封面与版权页，在“著作简介”中用三百字以内概述主要内容。',
        'Registering a book\nThe title, publisher, publication date and ISBN must match the copyright page; upload the cover and the copyright page, and summarise the book in Description (300 characters at most).',
      ),
      item(
        'basic_award',
        '奖励登记说明\n奖励名称、授奖单位、奖励等级与获奖日期须与获奖证书一致，并上传证书；获奖人员按证书排名填写。',
        'Registering an award\nThe award, the awarding body, the grade and the date must match the certificate; upload it and enter the winners in the order of the certificate.',
      ),
      item(
        'basic_standard',
        '标准登记说明\n标准名称、标准编号、标准类别与发布、实施日期须与标准文本一致；请上传标准文本封面，起草人按标准前言中的顺序填写。',
        'Registering a standard\nThe name, number, kind and the publication and effective dates must match the standard; upload its cover and enter the drafters in the order of its foreword.',
      ),
    ],
  },
  {
    code: 'websiteTip',
    dictValue: '网站提示',
    dictValueEn: 'Website tips',
    isPublic: 1,
    remark:
      'spec 000 §7 “lookups websiteTip and helpTip for tips”：页面模式中 HelpTip（kind website）按 code 显示的网站提示，值的第一行为标题，其余为正文；缺失时提示“未找到对应code的提示”',
    items: [
      item(
        'wel_dashboard',
        '控制台说明\n这里只统计您本人登记的成果和您的待办：“我的待审核”是已提交、等待本单位科研管理人员审核的成果，“我的已驳回”可按审核意见修改后重新提交。点击待办可直接进入对应页面。',
        'About the console\nOnly your own achievements and to-dos are counted here: "Mine pending review" are submitted and wait for your unit\'s research management; "Mine rejected" can be corrected and submitted again. Open a to-do to go to its screen.',
      ),
      item(
        'help_center',
        '找不到答案？\n帮助中心的内容由系统管理员维护。如果这里没有您要的说明，请联系本单位科研管理人员或系统管理员。',
        'No answer here?\nThe help centre is written by the system administrators. If it does not answer your question, ask your unit\'s research management or an administrator.',
      ),
    ],
  },
];
