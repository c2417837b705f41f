// @vitest-environment jsdom
/**
 * The process files picker of the upload dialog: a .bpmn or .xml file is read into the value `[{name, xml}]`
 * (nothing uploaded), another kind or a file over 2 MB is refused (with its message: readBpmnFile), the same name replaces the
 * earlier pick, removing takes it out; it is registered.
 */
import { describe, expect, it, vi } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderApp, setLang } from '../runtime/test-utils.js';
import './catalog.js';
import { components } from './registry.js';
import { BpmnFileInput, readBpmnFile, type BpmnFile } from './BpmnFileInput.js';

const XML = '<definitions id="d"><process id="p"/></definitions>';
const file = (name: string, text: string) => new File([text], name, { type: 'application/xml' });

describe('BpmnFileInput', () => {
  it('readBpmnFile: reads .bpmn and .xml, refuses other kinds and files over 2 MB', async () => {
    expect(await readBpmnFile(file('leave.bpmn', XML))).toEqual({ name: 'leave.bpmn', xml: XML });
    expect(await readBpmnFile(file('LEAVE.XML', XML))).toEqual({ name: 'LEAVE.XML', xml: XML });
    expect(await readBpmnFile(file('a.txt', XML))).toEqual({ error: 'cmp.bpmnFile.badType', params: { name: 'a.txt' } });
    expect(await readBpmnFile({ name: 'big.bpmn', size: 2 * 1024 * 1024 + 1, text: async () => '' })).toEqual({ error: 'cmp.bpmnFile.tooLarge', params: { name: 'big.bpmn' } });
  });

  it('keeps the picked files’ text as its value; removing one takes it out', async () => {
    setLang('zh');
    let value: BpmnFile[] = [];
    const onChange = vi.fn((v: BpmnFile[]) => (value = v));
    const { container, rerender } = renderApp(<BpmnFileInput value={value} onChange={onChange} />);
    expect(screen.getByText('选择流程文件')).toBeTruthy();
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    expect(input.accept).toBe('.bpmn,.xml');
    fireEvent.change(input, { target: { files: [file('leave.bpmn', XML)] } });
    await waitFor(() => expect(onChange).toHaveBeenCalledWith([{ name: 'leave.bpmn', xml: XML }]));
    rerender(<BpmnFileInput value={value} onChange={onChange} />);
    expect(await screen.findByText('leave.bpmn')).toBeTruthy();
    // another kind never reaches the value (the picker's accept filter, then readBpmnFile's check)
    fireEvent.change(input, { target: { files: [file('notes.txt', 'x')] } });
    await new Promise((r) => setTimeout(r, 50));
    expect(onChange).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByTitle('Remove file'));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith([]));
  });

  it('is registered under its name', () => {
    expect(components.BpmnFileInput).toBe(BpmnFileInput);
  });
});
