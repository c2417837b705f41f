/**
 * A content model's extra fields (issue 14: "a model is a schema of extra fields a channel's content carries —
 * designed in the form designer"; spec 001 §3 "Portal content": content attributes attr/val). The model stores
 * one thing, `form`: the Formily form the designer made (`{type: 'object', properties}`); everything else is
 * read from it here, on the server (portal hooks: the model is checked on save, content attributes against
 * it) and in the browser (ContentModelFields: the controls of the content editor).
 *
 * - `modelFields(form)`: the data fields of `form` in order, through void layout nodes (grid, card, tabs):
 *   `{attr: the property key, label: title (else the key), labelEn: titleEn (else the label), component:
 *   x-component, required: required === true or a required rule in x-validator}`. Anything that is not a form
 *   answers [].
 * - `modelFormFault(form)`: why the designer's form cannot be a model, or null — not a form (对象 with
 *   properties), more than MODEL_MAX_FIELDS fields, a key that is no attribute name (letters, digits, _; at
 *   most 50, starting with a letter or _), the same key twice, or a control other than MODEL_COMPONENTS (one
 *   line, several lines, number, date: what an attribute's text value can hold and the content editor shows).
 *   Messages zh (the text users see) and en.
 */

/** One extra field of a content model. */
export interface ModelField {
  attr: string;
  label: string;
  labelEn: string;
  component: string;
  required: boolean;
}

/** The controls a model's field may use: component → its name in zh and en. */
export const MODEL_COMPONENTS: Record<string, { zh: string; en: string }> = {
  Input: { zh: '单行文本', en: 'text' },
  'Input.TextArea': { zh: '多行文本', en: 'long text' },
  NumberPicker: { zh: '数字', en: 'number' },
  DatePicker: { zh: '日期', en: 'date' },
};

export const MODEL_MAX_FIELDS = 50;
const ATTR = /^[A-Za-z_][A-Za-z0-9_]{0,49}$/;

type Node = Record<string, unknown>;
const isObj = (v: unknown): v is Node => !!v && typeof v === 'object' && !Array.isArray(v);

function requiredOf(node: Node): boolean {
  if (node.required === true) return true;
  const v = node['x-validator'];
  const rules = Array.isArray(v) ? v : v ? [v] : [];
  return rules.some((r) => isObj(r) && r.required === true);
}

/** The data nodes of `node`'s properties, void nodes opened, as [key, node] in order. */
function dataNodes(node: Node, out: Array<[string, Node]> = []): Array<[string, Node]> {
  if (!isObj(node.properties)) return out;
  for (const [key, child] of Object.entries(node.properties)) {
    if (!isObj(child)) continue;
    if (child.type === 'void') dataNodes(child, out);
    else out.push([key, child]);
  }
  return out;
}

/** See the module comment. */
export function modelFields(form: unknown): ModelField[] {
  if (!isObj(form)) return [];
  return dataNodes(form).map(([attr, n]) => {
    const label = typeof n.title === 'string' && n.title.trim() ? n.title.trim() : attr;
    return {
      attr,
      label,
      labelEn: typeof n.titleEn === 'string' && n.titleEn.trim() ? n.titleEn.trim() : label,
      component: typeof n['x-component'] === 'string' ? (n['x-component'] as string) : 'Input',
      required: requiredOf(n),
    };
  });
}

export interface ModelMessage {
  zh: string;
  en: string;
}

/** See the module comment. */
export function modelFormFault(form: unknown): ModelMessage | null {
  if (!isObj(form) || form.type !== 'object' || !isObj(form.properties)) return { zh: '字段设计不是表单配置', en: 'The field design is not a form' };
  const nodes = dataNodes(form);
  if (nodes.length > MODEL_MAX_FIELDS) return { zh: `内容模型最多${MODEL_MAX_FIELDS}个字段`, en: `A content model has at most ${MODEL_MAX_FIELDS} fields` };
  const seen = new Set<string>();
  const allowed = Object.values(MODEL_COMPONENTS);
  for (const f of modelFields(form)) {
    if (!ATTR.test(f.attr)) return { zh: `字段「${f.label}」的属性值无效`, en: `The field "${f.label}" has an invalid prop name` };
    if (seen.has(f.attr)) return { zh: `字段属性值重复：${f.attr}`, en: `Prop name used twice: ${f.attr}` };
    seen.add(f.attr);
    if (!MODEL_COMPONENTS[f.component]) {
      return {
        zh: `字段「${f.label}」的控件不能用于内容模型（可用：${allowed.map((c) => c.zh).join('、')}）`,
        en: `The field "${f.label}" uses a control a content model cannot hold (allowed: ${allowed.map((c) => c.en).join(', ')})`,
      };
    }
  }
  return null;
}
