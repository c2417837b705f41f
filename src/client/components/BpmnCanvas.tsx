/**
 * BpmnCanvas: draws BPMN XML with bpmn-js's NavigatedViewer (read only, pan and zoom) and marks nodes —
 * `current` (green) and `finished` (blue) — through bpmn-js canvas markers styled in BpmnCanvas.css. Loaded
 * lazily by BpmnViewer.tsx: bpmn-js and its styles live in this chunk only.
 */
import React, { useEffect, useRef, useState } from 'react';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import NavigatedViewer from 'bpmn-js/lib/NavigatedViewer';
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import './BpmnCanvas.css';

export interface BpmnCanvasProps {
  xml: string;
  current: string[];
  finished: string[];
}

type Canvas = { addMarker(id: string, cls: string): void; zoom(mode: string): void };
type Registry = { get(id: string): unknown };

export default function BpmnCanvas({ xml, current, finished }: BpmnCanvasProps) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (!host.current) return;
    const viewer = new NavigatedViewer({ container: host.current });
    let live = true;
    viewer
      .importXML(xml)
      .then(() => {
        if (!live) return;
        const canvas = viewer.get('canvas') as Canvas;
        const registry = viewer.get('elementRegistry') as Registry;
        for (const id of finished) if (registry.get(id)) canvas.addMarker(id, 'kc-bpmn-done');
        for (const id of current) if (registry.get(id)) canvas.addMarker(id, 'kc-bpmn-current');
        canvas.zoom('fit-viewport');
      })
      .catch((e: Error) => live && setFailed(e.message));
    return () => {
      live = false;
      viewer.destroy();
    };
  }, [xml, current, finished]);
  return (
    <>
      {failed ? <Typography.Text type="danger">{t('cmp.bpmn.failed', { reason: failed })}</Typography.Text> : null}
      <div ref={host} className="kc-bpmn-canvas" style={{ width: '100%', height: '100%' }} />
    </>
  );
}
