/**
 * A JSON editor for the import and generate drawers: Designable's MonacoInput (monaco-editor, served from our
 * own origin: designer/assets.ts) with a plain text area in its place until monaco has loaded — or when it
 * cannot load (a browser without workers, a test under jsdom) — so the drawers always work.
 */
import React from 'react';
import { Input } from 'antd';
import { MonacoInput } from '@pind/designable-react-settings-form';

export interface JsonEditorProps {
  value: string;
  onChange?: (value: string) => void;
  readOnly?: boolean;
  height?: number | string;
  label?: string;
}

export function JsonEditor({ value, onChange, readOnly, height = 480, label }: JsonEditorProps) {
  const fallback = (
    <Input.TextArea
      aria-label={label}
      className="kc-dz-json-text"
      value={value}
      readOnly={readOnly}
      spellCheck={false}
      style={{ height: typeof height === 'number' ? height : undefined, fontFamily: 'monospace', fontSize: 12 }}
      onChange={(e) => onChange?.(e.target.value)}
    />
  );
  return (
    <div className="kc-dz-json" style={{ height }}>
      <MonacoInput
        language="json"
        value={value}
        height={height}
        loading={fallback}
        options={{ readOnly, minimap: { enabled: false }, lineNumbers: 'on', automaticLayout: true }}
        onChange={(v) => onChange?.(v ?? '')}
      />
    </div>
  );
}
