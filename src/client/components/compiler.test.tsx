// @vitest-environment jsdom
/**
 * The CSP-safe Formily compiler: `{{ }}` reactions run through the shared evaluator, with Formily's scope
 * ($deps, $self, $form, $values, $record, $index) — and with `Function` made unusable, as a strict
 * Content-Security-Policy would.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { act, render, screen } from '@testing-library/react';
import { createForm } from '@formily/core';
import { FormProvider } from '@formily/react';
import { Schema } from '@formily/json-schema';
import { SchemaField } from './registry.js';
import { compileExpression, view } from './compiler.js';

const RealFunction = globalThis.Function;
afterEach(() => {
  globalThis.Function = RealFunction;
});

describe('compiler', () => {
  it('evaluates through Schema.compile with Formily scope names', () => {
    expect(Schema.compile('{{$deps[0] === 3}}', { $deps: [3] })).toBe(true);
    expect(Schema.compile('{{$deps[0] === 1 || $deps[0] === 2}}', { $deps: [3] })).toBe(false);
    expect(Schema.compile("{{$deps[0] === 3 ? 'visible' : 'hidden'}}", { $deps: [1] })).toBe('hidden');
    expect(Schema.compile('{{$values.a.b}}', { $values: { a: { b: 'x' } } })).toBe('x');
  });

  it('reads members of class instances but never their methods or prototypes', () => {
    class Box {
      private v = 5;
      get value() {
        return this.v;
      }
      run() {
        return 'ran';
      }
    }
    const box = new Box();
    expect(compileExpression('$self.value + 1', { $self: box })).toBe(6);
    expect(compileExpression('$self.run', { $self: box })).toBeUndefined();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(compileExpression('$self.constructor', { $self: box })).toBeUndefined();
    expect(compileExpression('$self.run()', { $self: box })).toBeUndefined();
    expect(compileExpression('a; b', {})).toBeUndefined();
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
    expect((view(box) as Record<string, unknown>).value).toBe(5);
  });

  it('runs the reactions of a form without Function', async () => {
    globalThis.Function = function () {
      throw new Error('Function is blocked by the Content-Security-Policy');
    } as unknown as FunctionConstructor;
    const form = createForm();
    const schema = {
      type: 'object',
      properties: {
        kind: { type: 'number', 'x-decorator': 'FormItem', 'x-component': 'NumberPicker' },
        label: { type: 'string', 'x-decorator': 'FormItem', 'x-component': 'Input', 'x-reactions': { dependencies: ['kind'], fulfill: { state: { value: "{{$deps[0] === 3 ? 'three' : 'other'}}", visible: '{{$deps[0] !== 9}}' } } } },
        echo: { type: 'string', 'x-component': 'Input', 'x-reactions': { dependencies: ['label'], fulfill: { state: { value: '{{$form.values.label + "/" + $self.visible}}' } } } },
        items: {
          type: 'array',
          'x-component': 'ArrayItems',
          items: { type: 'object', properties: { n: { type: 'string', 'x-component': 'Input', 'x-reactions': { fulfill: { state: { value: '{{$record.base + $index}}' } } } }, remove: { type: 'void', 'x-component': 'ArrayItems.Remove' } } },
        },
      },
    };
    render(
      <FormProvider form={form}>
        <SchemaField schema={schema} />
      </FormProvider>,
    );
    await act(async () => form.setValuesIn('kind', 3));
    expect(form.values.label).toBe('three');
    expect(form.values.echo).toBe('three/true');
    await act(async () => form.setValuesIn('kind', 9));
    expect(form.query('label').take()?.visible).toBe(false);
    await act(async () => form.setValuesIn('items', [{ base: 'r' }, { base: 's' }]));
    expect(form.values.items.map((i: { n: string }) => i.n)).toEqual(['r0', 's1']);
    expect(screen.getAllByRole('textbox').length).toBeGreaterThan(0);
  });
});
