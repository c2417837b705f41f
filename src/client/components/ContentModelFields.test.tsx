// @vitest-environment jsdom
/**
 * ContentModelFields (issue 14, content models): in a form with a channel, the fields of the channel's models
 * (GET /api/portal/channel/detail → modelIds, GET /api/portal/model/listByIds) are shown with their labels
 * and required marks; typing writes the `attrs` pair of the field's attr (other pairs kept), a number field
 * stores the number as text; another channel without models shows nothing; readPretty shows the values.
 * The fields are read from the model's `form` as the form designer saved it (a grid holding them, a required
 * rule), labelled in the user's language.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createForm, type Form } from '@formily/core';
import { FormProvider } from '@formily/react';
import { SchemaField } from './registry.js';
import { ok, renderApp, setLang, type FakeRequest, type FakeServer } from '../runtime/test-utils.js';
import { baseServer } from '../runtime/fixtures.js';

let server: FakeServer;
/** A model's form as the designer saves it. */
const FORM = {
  type: 'object',
  properties: {
    grid: {
      type: 'void',
      'x-component': 'FormGrid',
      properties: {
        issn: { type: 'string', title: 'ISSN', 'x-decorator': 'FormItem', 'x-component': 'Input', 'x-validator': [{ required: true, message: 'ISSN必须填写' }] },
        pages: { type: 'number', title: '页数', titleEn: 'Pages', 'x-decorator': 'FormItem', 'x-component': 'NumberPicker' },
      },
    },
  },
};

beforeEach(() => {
  setLang('zh');
  server = baseServer();
  server.on('GET', '/api/portal/channel/detail', (req: FakeRequest) => ok(req.query.id === '11' ? { id: '11', title: '期刊论文', modelIds: ['21'] } : { id: req.query.id, title: '新闻', modelIds: [] }));
  server.on('GET', '/api/portal/model/listByIds', [{ id: '21', name: '期刊模型', form: FORM }]);
});

function renderForm(values: Record<string, unknown>, readPretty = false): Form {
  const form = createForm({ initialValues: values, readPretty });
  renderApp(
    <FormProvider form={form}>
      <SchemaField schema={{ type: 'object', properties: { channelId: { type: 'string' }, attrs: { type: 'array' }, modelFields: { type: 'void', 'x-component': 'ContentModelFields' } } as never }} />
    </FormProvider>,
  );
  return form;
}

describe('ContentModelFields', () => {
  it('shows the channel’s model fields and writes their values into the attributes', async () => {
    const form = renderForm({ channelId: '11', attrs: [{ attr: 'region', val: '华北' }] });
    expect(await screen.findByText('ISSN')).toBeTruthy();
    expect(screen.getByText('页数')).toBeTruthy();
    // the required rule marks ISSN
    expect(screen.getByText('ISSN').closest('.ant-formily-item')?.querySelector('.ant-formily-item-asterisk')).toBeTruthy();
    expect(server.calls('/api/portal/model/listByIds')[0].query.ids).toBe('21');
    fireEvent.change(document.getElementById('kc-model-issn')!, { target: { value: '1007-2640' } });
    fireEvent.change(document.getElementById('kc-model-pages')!, { target: { value: '12' } });
    await waitFor(() =>
      expect(form.values.attrs).toEqual([
        { attr: 'region', val: '华北' },
        { attr: 'issn', val: '1007-2640' },
        { attr: 'pages', val: '12' },
      ]),
    );
    fireEvent.change(document.getElementById('kc-model-issn')!, { target: { value: '1007-2641' } });
    await waitFor(() => expect(form.values.attrs[1]).toEqual({ attr: 'issn', val: '1007-2641' }));
    form.setValuesIn('channelId', '12');
    await waitFor(() => expect(screen.queryByTestId('kc-model-fields')).toBeNull());
  });

  it('shows the values in readPretty', async () => {
    renderForm({ channelId: '11', attrs: [{ attr: 'issn', val: '1007-2640' }] }, true);
    expect(await screen.findByText('1007-2640')).toBeTruthy();
    expect(document.querySelector('[data-attr="pages"]')?.textContent).toBe('—');
  });

  it('labels the fields in English with titleEn (the title where there is none)', async () => {
    setLang('en');
    renderForm({ channelId: '11', attrs: [] });
    expect(await screen.findByText('Pages')).toBeTruthy();
    expect(screen.getByText('ISSN')).toBeTruthy();
  });
});
