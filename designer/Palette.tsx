/**
 * The left palette (spec 002 §2): the palette items in their groups (designer/palette `palette()`, made of the
 * component registrations), each with its icon and title in the session language. Each item is a Designable
 * source (drag it onto the canvas) and a button (click it: it goes into the selected container — into the
 * row of a selected sub-form —, after the selected field, or at the end of the form). A click obeys the same
 * rules as a drop (`TreeNode.allowAppend`, which asks the behaviours' `allowDrop`: designer/rules
 * `dropRefusal`); a refusal says why.
 */
import React, { useMemo } from 'react';
import { App } from 'antd';
import { observer } from '@formily/react';
import { ResourceWidget, useWorkbench } from '@pind/designable-react';
import type { IResource, TreeNode } from '@pind/designable-core';
import { useTranslation } from 'react-i18next';
import { chainOf, ensureNames, nodeKind, paletteResources } from './engine.js';
import { kindTitle, palette, PALETTE_GROUPS } from './palette.js';
import { dropRefusal, type Refusal } from './rules.js';

export interface AddResult {
  added?: TreeNode;
  refusal?: Refusal;
}

/** Adds the source node `source` where a click on the palette puts it (see the module comment). */
export function addFromPalette(tree: TreeNode, selected: TreeNode | undefined, source: TreeNode): AddResult {
  let container: TreeNode = tree;
  let after: TreeNode | undefined;
  const sel = selected && selected.root === tree ? selected : undefined;
  if (sel && !sel.isRoot) {
    // a sub-form takes fields into its row
    const row = sel.children.find((c) => nodeKind(c) === 'items');
    if (row) container = row;
    else if (sel.designerProps?.droppable) container = sel;
    else {
      after = sel;
      container = sel.parent ?? tree;
    }
  }
  if (!container.allowAppend([source])) {
    return { refusal: dropRefusal(source.props, chainOf(container)) ?? { key: 'dz.rule.refused', kind: nodeKind(source) } };
  }
  const added = after ? after.insertAfter(source) : container.append(source);
  const node = added[0];
  if (node) {
    ensureNames(node);
    node.operation?.selection.select(node);
  }
  return { added: node };
}

/** The palette panel. */
export const Palette = observer(() => {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const workbench = useWorkbench();
  const items = useMemo(() => palette(), []);
  const resources = useMemo(() => paletteResources(), []);
  const click = (res: IResource) => {
    const ws = workbench.activeWorkspace ?? workbench.currentWorkspace;
    if (!ws) return;
    const source = res.node.children[0];
    const { refusal } = addFromPalette(ws.operation.tree, ws.operation.selection.selectedNodes[0], source);
    if (refusal) void message.warning(t(refusal.key, { name: kindTitle(refusal.kind, lang) ?? refusal.kind }));
  };
  return (
    <div className="kc-dz-palette">
      <div className="kc-dz-palette-hint">{t('dz.paletteHint')}</div>
      {PALETTE_GROUPS.map((group) => {
        const inGroup = items.filter((p) => p.group === group);
        if (!inGroup.length) return null;
        const sources = inGroup.map((p) => resources.get(p.key)!);
        return (
          <ResourceWidget key={group} title={t(`dz.group.${group}`)} sources={[sources]} defaultExpand>
            {
              ((res: IResource) => {
                const item = inGroup[sources.indexOf(res)];
                const Icon = item.icon;
                return (
                  <div
                    key={item.key}
                    role="button"
                    tabIndex={0}
                    className="dn-resource-item kc-dz-palette-item"
                    data-designer-source-id={res.node.id}
                    data-palette-key={item.key}
                    onClick={() => click(res)}
                    onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && click(res)}
                  >
                    {Icon && (
                      <span className="kc-dz-palette-icon" aria-hidden="true">
                        <Icon />
                      </span>
                    )}
                    <span className="dn-resource-item-text">{item.title[lang]}</span>
                  </div>
                );
              }) as never
            }
          </ResourceWidget>
        );
      })}
    </div>
  );
});
