/**
 * The options of a choice field in the designer's 字段属性 (spec 002 §3): a static list or tree edited row by row
 * (`OptionsEditor`: label / value, add, add-child for trees, remove; a new or edited entry checked by rules.ts
 * `optionProblem`: 请输入label, 请输入value, value重复, a refused one not written), or a dictionary code (remote);
 * `OptionsSettings` lets the user switch when the component's registration names the component to switch to.
 */
import React, { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, Radio, Space, Tooltip, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, SubnodeOutlined } from '@ant-design/icons';
import type { TreeNode } from '@pind/designable-core';
import { useTranslation } from 'react-i18next';
import type { OptionsSetting } from '../src/client/components/registry.js';
import { optionProblem, type OptionNode } from './rules.js';
import { setNodeProp, SwitchProp, TextProp } from './prop-controls.js';

/**
 * The option editor: rows of label / value (label en), add, remove, and for trees add-child. A new or edited
 * entry is checked (请输入label, 请输入value, value重复); a refused one is not written.
 */
export function OptionsEditor({ value, onChange, tree }: { value: OptionNode[]; onChange: (v: OptionNode[]) => void; tree: boolean }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<{ label: string; value: string; parent: string | null } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const update = (list: OptionNode[], path: number[], fn: (o: OptionNode) => OptionNode | null): OptionNode[] =>
    list.flatMap((o, i) => {
      if (i !== path[0]) return [o];
      if (path.length === 1) {
        const r = fn(o);
        return r ? [r] : [];
      }
      return [{ ...o, children: update(o.children ?? [], path.slice(1), fn) }];
    });
  const others = (path: number[]) => {
    // every entry except the one at `path` (for the duplicate check of an edit)
    const walk = (list: OptionNode[], p: number[] | null): OptionNode[] =>
      list.flatMap((o, i) => {
        const here = p && p[0] === i;
        const kids = walk(o.children ?? [], here ? p!.slice(1) : null);
        return here && p!.length === 1 ? kids : [{ ...o, children: undefined }, ...kids];
      });
    return walk(value, path);
  };
  const edit = (path: number[], patch: Partial<OptionNode>) => {
    const target = path.reduce<{ list: OptionNode[]; o?: OptionNode }>((acc, i) => ({ list: acc.o ? acc.o.children ?? [] : acc.list, o: (acc.o ? acc.o.children ?? [] : acc.list)[i] }), { list: value }).o!;
    const next = { ...target, ...patch };
    const p = optionProblem({ label: next.label, value: String(next.value ?? '') }, others(path));
    setProblem(p ? t(p) : null);
    if (p) return;
    onChange(update(value, path, () => next));
  };
  const row = (o: OptionNode, path: number[]): React.ReactNode => (
    <div key={path.join('.')} style={{ marginLeft: (path.length - 1) * 16 }}>
      <Space.Compact style={{ width: '100%', marginBottom: 4 }}>
        <OptionCell aria={`${t('dz.opt.label')} ${path.join('.')}`} value={o.label} placeholder={t('dz.opt.label')} onCommit={(v) => edit(path, { label: v })} />
        <OptionCell aria={`${t('dz.opt.value')} ${path.join('.')}`} value={String(o.value)} placeholder={t('dz.opt.value')} onCommit={(v) => edit(path, { value: typeof o.value === 'number' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v })} />
        {tree && (
          <Tooltip title={t('dz.opt.addChild')}>
            <Button aria-label={t('dz.opt.addChild')} icon={<SubnodeOutlined />} onClick={() => setDraft({ label: '', value: '', parent: path.join('.') })} />
          </Tooltip>
        )}
        <Tooltip title={t('dz.opt.remove')}>
          <Button aria-label={t('dz.opt.remove')} icon={<DeleteOutlined />} onClick={() => onChange(update(value, path, () => null))} />
        </Tooltip>
      </Space.Compact>
      {(o.children ?? []).map((c, i) => row(c, [...path, i]))}
    </div>
  );
  const add = () => {
    if (!draft) return;
    const p = optionProblem(draft, others([]));
    setProblem(p ? t(p) : null);
    if (p) return;
    const entry: OptionNode = { label: draft.label.trim(), value: draft.value.trim() };
    if (draft.parent === null) onChange([...value, entry]);
    else onChange(update(value, draft.parent.split('.').map(Number), (o) => ({ ...o, children: [...(o.children ?? []), entry] })));
    setDraft(null);
  };
  return (
    <div className="kc-dz-options">
      {value.map((o, i) => row(o, [i]))}
      {draft ? (
        <Space.Compact style={{ width: '100%', marginTop: 4 }}>
          <Input aria-label={t('dz.opt.label')} placeholder={t('dz.opt.label')} value={draft.label} onChange={(e) => setDraft({ ...draft, label: e.target.value })} />
          <Input aria-label={t('dz.opt.value')} placeholder={t('dz.opt.value')} value={draft.value} onChange={(e) => setDraft({ ...draft, value: e.target.value })} onPressEnter={add} />
          <Button type="primary" onClick={add}>
            {t('dz.ok')}
          </Button>
          <Button
            onClick={() => {
              setDraft(null);
              setProblem(null);
            }}
          >
            {t('dz.cancel')}
          </Button>
        </Space.Compact>
      ) : (
        <Button size="small" icon={<PlusOutlined />} onClick={() => setDraft({ label: '', value: '', parent: null })} style={{ marginTop: 4 }}>
          {t('dz.opt.add')}
        </Button>
      )}
      {problem && <Alert type="error" showIcon message={problem} style={{ marginTop: 6 }} role="alert" />}
    </div>
  );
}

/** An option cell edited locally and written on blur or Enter (so a half-typed duplicate is not refused per key). */
function OptionCell({ value, placeholder, aria, onCommit }: { value: string; placeholder: string; aria: string; onCommit: (v: string) => void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const commit = () => text !== value && onCommit(text);
  return <Input aria-label={aria} placeholder={placeholder} value={text} onChange={(e) => setText(e.target.value)} onBlur={commit} onPressEnter={commit} />;
}

/** The options of a node: a list or a tree edited here, or a dictionary code; `spec.switchTo` lets the user switch. */
export function OptionsSettings({ node, spec }: { node: TreeNode; spec: OptionsSetting }) {
  const { t } = useTranslation();
  const remote = spec.source === 'dictionary';
  const setSource = (s: 'static' | 'remote') => {
    if (!spec.switchTo || s === (remote ? 'remote' : 'static')) return;
    if (s === 'remote') node.setProps({ 'x-component': spec.switchTo, enum: undefined, 'x-component-props': { ...(node.props['x-component-props'] ?? {}), code: '' } });
    else {
      const { code: _c, biz: _b, ...rest } = node.props['x-component-props'] ?? {};
      node.setProps({ 'x-component': spec.switchTo, enum: [], 'x-component-props': Object.keys(rest).length ? rest : undefined });
    }
  };
  const options = (Array.isArray(node.props.enum) ? node.props.enum : []).map((e: unknown) => (e && typeof e === 'object' ? e : { label: String(e), value: e })) as OptionNode[];
  return (
    <>
      <Typography.Title level={5} style={{ fontSize: 13 }}>
        {t('dz.prop.options')}
      </Typography.Title>
      {spec.switchTo && (
        <Form.Item label={t('dz.prop.optionSource')}>
          <Radio.Group
            optionType="button"
            size="small"
            value={remote ? 'remote' : 'static'}
            onChange={(e) => setSource(e.target.value)}
            options={[
              { value: 'static', label: t('dz.prop.static') },
              { value: 'remote', label: t('dz.prop.remote') },
            ]}
          />
        </Form.Item>
      )}
      {remote ? (
        <>
          <TextProp node={node} path="x-component-props.code" label={t('dz.prop.dictCode')} />
          <SwitchProp label={t('dz.prop.dictBiz')} checked={!!node.props['x-component-props']?.biz} onChange={(v) => setNodeProp(node, 'x-component-props.biz', v || undefined)} />
        </>
      ) : (
        <OptionsEditor value={options} tree={spec.source === 'tree'} onChange={(v) => node.setProps({ enum: v })} />
      )}
    </>
  );
}
