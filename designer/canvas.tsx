/**
 * What the centre canvas draws for each node of the tree (Designable's ComponentTreeWidget looks components up
 * by the node's componentName — `Form` for the root, `Field` for every schema node — and `Field` looks up the
 * node's `x-component` / `x-decorator` in the same map):
 *
 * - `Field`: the node as a Formily field of the designer's form, with the runtime registry's component and
 *   decorator (DESIGN §1.2: the canvas shows the widgets the runtime renders), labels in the session language,
 *   expressions (`{{ }}`) left out (they belong to a filled form). The element carrying the node id is the
 *   decorator (FormItem) when there is one, else the component.
 * - Containers, as their registrations say (`designer: { canvas }`, src/client/components/catalog.tsx): a
 *   group (`Card`), a grid (`FormGrid`), a title (`Text`), sub-forms (`ArrayTable` and the other array
 *   components: their row's fields side by side in a drop area) and other void layout components (a titled
 *   drop area: tabs, collapse, steps, layout, space, button group) take drops; empty ones say where to drop.
 * - `Form`: the root, a FormLayout with the form's layout props (label width and position, gutter).
 */
import React, { useMemo } from 'react';
import { Card as AntdCard, Typography } from 'antd';
import { createForm } from '@formily/core';
import { ArrayField, Field as FormilyField, FormProvider, ObjectField, observer, useField, VoidField } from '@formily/react';
import { FormGrid, FormItem, FormLayout } from '@formily/antd-v5';
import { FormPath } from '@formily/shared';
import { DroppableWidget, TreeNodeWidget, useComponents, useDesigner, useNodeIdProps, useTreeNode } from '@pind/designable-react';
import { useTranslation } from 'react-i18next';
import { canvasKinds, components as registry, type CanvasKind } from '../src/client/components/registry.js';
import { Text } from '../src/client/components/Layout.js';
import { localizeSchema } from '../src/client/runtime/schema.js';
import { isRequired } from './rules.js';
import type { Lang } from '../src/shared/contract/lang.js';

type AnyProps = Record<string, any>;

const isExpression = (v: unknown) => typeof v === 'string' && /^\{\{[\s\S]*\}\}$/.test(v);

/** `v` without `{{ }}` expressions (recursively). */
export function withoutExpressions<T>(v: T): T {
  if (Array.isArray(v)) return v.filter((x) => !isExpression(x)).map(withoutExpressions) as T;
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v as AnyProps).filter(([, x]) => !isExpression(x)).map(([k, x]) => [k, withoutExpressions(x)])) as T;
  }
  return v;
}

function useLang(): Lang {
  const { i18n } = useTranslation();
  return i18n.language === 'en' ? 'en' : 'zh';
}

function EmptyDrop({ height = 60 }: { height?: number }) {
  const { t } = useTranslation();
  return (
    <div className="kc-dz-drop-empty" style={{ minHeight: height }}>
      {t('dz.dropHere')}
    </div>
  );
}

/** One schema node on the canvas. */
export const FieldCanvas = observer((raw: AnyProps) => {
  const node = useTreeNode();
  const designer = useDesigner();
  const components = useComponents() as AnyProps;
  const lang = useLang();
  if (!node) return null;
  const { children, ...rest } = raw;
  const schema = withoutExpressions(localizeSchema(rest, lang)) as AnyProps;
  const idAttr = designer.props.nodeIdAttrName as string;
  const decorator = schema['x-decorator'] ? FormPath.getIn(components, schema['x-decorator']) : undefined;
  const component = schema['x-component'] ? FormPath.getIn(components, schema['x-component']) : undefined;
  const decoratorProps: AnyProps = { ...(schema['x-decorator-props'] ?? {}) };
  const componentProps: AnyProps = { ...(schema['x-component-props'] ?? {}) };
  if (decorator) decoratorProps[idAttr] = node.id;
  else componentProps[idAttr] = node.id;
  const props: AnyProps & { name: string } = {
    name: node.id,
    title: schema.title,
    description: schema.description,
    required: isRequired(rest),
    dataSource: schema.enum?.map((e: unknown) => (e && typeof e === 'object' ? e : { label: String(e), value: e })),
    initialValue: schema.default,
    display: schema['x-display'] === 'none' || schema['x-display'] === 'hidden' ? 'visible' : undefined,
    pattern: schema['x-pattern'],
    decorator: decorator ? [decorator, decoratorProps] : undefined,
    component: component ? [component, componentProps] : undefined,
  };
  for (const k of Object.keys(props)) if (props[k] === undefined) delete props[k];
  if (schema.type === 'object') {
    return (
      <ObjectField {...props}>
        <DroppableWidget>{children}</DroppableWidget>
      </ObjectField>
    );
  }
  if (schema.type === 'array') return <ArrayField {...props} />;
  if (schema.type === 'void') {
    if (!component && !decorator) return <div {...{ [idAttr]: node.id }}>{children}</div>;
    return <VoidField {...props}>{children}</VoidField>;
  }
  return <FormilyField {...props} />;
});

/** A group: an antd Card titled with the node's title, its fields inside. */
const CardCanvas = observer((props: AnyProps) => {
  const node = useTreeNode();
  const field = useField();
  const nodeId = useNodeIdProps();
  return (
    <AntdCard size="small" title={field?.title as React.ReactNode} style={{ marginBottom: 16 }} {...nodeId}>
      {node.children.length ? props.children : <EmptyDrop />}
    </AntdCard>
  );
});

/** A grid: Formily's FormGrid with its fields, or a drop area while empty. */
const GridCanvas = observer((props: AnyProps) => {
  const node = useTreeNode();
  const nodeId = useNodeIdProps();
  const { children, ...rest } = props;
  for (const k of Object.keys(rest)) if (k.startsWith('data-')) delete rest[k];
  return (
    <div {...nodeId} className="kc-dz-grid">
      {node.children.length ? <FormGrid {...rest}>{children}</FormGrid> : <EmptyDrop />}
    </div>
  );
});

/** A title: the registry's Text (heading or paragraph). */
const TextCanvas = observer((props: AnyProps) => {
  const nodeId = useNodeIdProps();
  return (
    <div {...nodeId}>
      <Text mode={props.mode} content={props.content} />
    </div>
  );
});

/** A sub-form: its row's fields side by side, in a drop area that is the row node. */
const SubFormCanvas = observer(() => {
  const node = useTreeNode();
  const row = node.children.find((c) => c.props?.type === 'object');
  if (!row) return <Typography.Text type="secondary">{String(node.props?.['x-component'] ?? '')}</Typography.Text>;
  return (
    <DroppableWidget node={row} placeholder={false} className="kc-dz-subform">
      {row.children.length ? (
        <div className="kc-dz-subform-row">
          {row.children.map((c) => (
            <div className="kc-dz-subform-cell" key={c.id}>
              <TreeNodeWidget node={c} />
            </div>
          ))}
        </div>
      ) : (
        <EmptyDrop />
      )}
    </DroppableWidget>
  );
});

/** Other void layout nodes (tabs, collapse, form layout, space ...): a titled drop area. */
const VoidBox = observer((props: AnyProps) => {
  const node = useTreeNode();
  const field = useField();
  const nodeId = useNodeIdProps();
  return (
    <div {...nodeId} className="kc-dz-box">
      <div className="kc-dz-box-title">{(field?.title as React.ReactNode) || String(node.props?.['x-component'] ?? '')}</div>
      {node.children.length ? props.children : <EmptyDrop />}
    </div>
  );
});

/** The root: the designer's Formily form with the form's layout. */
export const FormCanvas = observer((props: AnyProps) => {
  const node = useTreeNode();
  const form = useMemo(() => createForm({ designable: true }), []);
  const { dialogWidth: _w, ...layout } = (props['x-component-props'] ?? {}) as AnyProps;
  const { t } = useTranslation();
  return (
    <FormProvider form={form}>
      <FormLayout labelWidth={130} {...layout}>
        <div className="kc-dz-form">
          {node.children.length ? (
            props.children
          ) : (
            <DroppableWidget placeholder={false}>
              <div className="kc-dz-canvas-empty">{t('dz.canvasEmpty')}</div>
            </DroppableWidget>
          )}
        </div>
      </FormLayout>
    </FormProvider>
  );
});

/** What draws each kind of container on the canvas. */
const CANVAS: Record<CanvasKind, React.ComponentType<any>> = { group: CardCanvas, grid: GridCanvas, text: TextCanvas, subform: SubFormCanvas, box: VoidBox };

/**
 * The component map of the canvas: the runtime registry (as registered now), with the containers drawn as
 * their registrations' `canvas` says.
 */
export function canvasComponents(): AnyProps {
  const drawn = Object.fromEntries(Object.entries(canvasKinds()).map(([name, kind]) => [name, CANVAS[kind]]));
  return { ...registry, FormItem, ...drawn, Form: FormCanvas, Field: FieldCanvas };
}
