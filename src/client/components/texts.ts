/**
 * UI texts of the registry components (DictSelect, FileUpload, ProjectPicker ...): key → zh and en. The spec's
 * Chinese texts are verbatim (附件上传中，请稍等, spec 000 §9). Keys start with `cmp.`.
 */
import type { Texts } from '../shell/i18n.js';

export const componentTexts: Texts = {
  'cmp.select': { zh: '请选择', en: 'Please select' },
  'cmp.input': { zh: '请输入', en: 'Please enter' },
  'cmp.loading': { zh: '加载中', en: 'Loading' },
  'cmp.empty': { zh: '暂无数据', en: 'No data' },
  'cmp.yes': { zh: '是', en: 'Yes' },
  'cmp.no': { zh: '否', en: 'No' },
  'cmp.upload.button': { zh: '上传附件', en: 'Upload' },
  'cmp.upload.uploading': { zh: '附件上传中，请稍等', en: 'Uploading the attachment, please wait' },
  'cmp.upload.badType': { zh: '文件类型不符合要求，只能上传 {{accept}} 格式的文件', en: 'Only {{accept}} files can be uploaded' },
  'cmp.upload.tooLarge': { zh: '文件大小不能超过 {{size}}', en: 'The file must not be larger than {{size}}' },
  'cmp.upload.tooMany': { zh: '最多只能上传 {{count}} 个文件', en: 'At most {{count}} files can be uploaded' },
  'cmp.upload.hint': { zh: '支持 {{accept}}，单个文件不超过 {{size}}', en: '{{accept}}; at most {{size}} per file' },
  'cmp.project.placeholder': { zh: '请选择项目', en: 'Please select the project' },
  'cmp.user.placeholder': { zh: '请输入姓名', en: 'Please enter the name' },
  'cmp.region.placeholder': { zh: '请选择地区', en: 'Please select the region' },
  'cmp.dept.placeholder': { zh: '请选择单位', en: 'Please select the organisation' },
  'cmp.location.address': { zh: '地址', en: 'Address' },
  'cmp.location.longitude': { zh: '经度', en: 'Longitude' },
  'cmp.location.latitude': { zh: '纬度', en: 'Latitude' },
  'cmp.rich.label': { zh: '富文本', en: 'Rich text' },
  'cmp.rich.bold': { zh: '加粗', en: 'Bold' },
  'cmp.rich.italic': { zh: '斜体', en: 'Italic' },
  'cmp.rich.underline': { zh: '下划线', en: 'Underline' },
  'cmp.rich.strike': { zh: '删除线', en: 'Strike-through' },
  'cmp.rich.heading': { zh: '标题', en: 'Heading' },
  'cmp.rich.paragraph': { zh: '正文', en: 'Paragraph' },
  'cmp.rich.ul': { zh: '无序列表', en: 'Bulleted list' },
  'cmp.rich.ol': { zh: '有序列表', en: 'Numbered list' },
  'cmp.rich.link': { zh: '链接', en: 'Link' },
  'cmp.rich.linkPrompt': { zh: '请输入链接地址', en: 'Enter the link address' },
  'cmp.rich.clear': { zh: '清除格式', en: 'Clear formatting' },
};
