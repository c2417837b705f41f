// @vitest-environment jsdom
/**
 * Help (spec 000 §2.2, §7, §8; issue 18): the help centre lists the help_tip articles (title = first line),
 * searchable, the one of `?code=` opened; a form's HelpTip shows its article, or the spec's message for an
 * unknown key (未找到对应的提示) or website-tip code (未找到对应code的提示).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import React from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { HelpCenterPage } from './HelpCenterPage.js';
import { HelpTip, helpEntries } from '../components/HelpTip.js';
import { FakeServer, renderApp, setLang } from '../runtime/test-utils.js';
import { signInAs } from '../runtime/fixtures.js';
import { clearSession } from '../runtime/session.js';

const HELP = [
  { id: '1', dictKey: '003', dictValue: '科技成果登记指南\n1. 选择成果类型，点击新增。\n2. 保存后提交审核。', dictValueEn: 'Registering achievements\n1. Pick the kind, click Add.\n2. Save, then submit.' },
  { id: '2', dictKey: 'basic_patent', dictValue: '专利登记说明\n专利名称须与证书一致。', dictValueEn: 'Registering a patent\nThe name must match the certificate.' },
];

const TIPS = [{ id: '9', dictKey: 'help_center', dictValue: '找不到答案？\n请联系本单位科研管理人员。', dictValueEn: 'No answer here?\nAsk your research management.' }];

// the tree: the two articles at the top, and a section 项目申报 holding one article
const TREE = [
  ...HELP,
  { id: '3', dictKey: 'project', dictValue: '项目申报\n', dictValueEn: 'Projects\n', children: [{ id: '4', dictKey: 'project_baseinfo', dictValue: '项目申报说明\n按指南填写申报书。', dictValueEn: 'Declaring a project\nFill the declaration as the guide says.' }] },
];

let server: FakeServer;
beforeEach(() => {
  setLang('zh');
  signInAs('kygl');
  server = new FakeServer().install();
  server.on('GET', '/api/blade-system/dict/dictionary-tree', (r: { query: Record<string, string> }) => ({ status: 200, json: { code: 200, success: true, data: r.query.code === 'help_tip' ? TREE : [], msg: '' } }));
  server.on('GET', '/api/blade-system/dict/dictionary', (r: { query: Record<string, string> }) => ({ status: 200, json: { code: 200, success: true, data: r.query.code === 'help_tip' ? HELP : r.query.code === 'websiteTip' ? TIPS : [], msg: '' } }));
});

describe('help', () => {
  it('entries: first line the title, the rest the text, in the language asked', () => {
    expect(helpEntries(HELP, 'zh')[1]).toEqual({ key: 'basic_patent', title: '专利登记说明', text: '专利名称须与证书一致。' });
    expect(helpEntries(HELP, 'en')[0].title).toBe('Registering achievements');
    expect(helpEntries(undefined, 'zh')).toEqual([]);
  });

  it('the help centre lists the articles, opens the one of ?code=, and searches titles and texts', async () => {
    renderApp(
      <MemoryRouter initialEntries={['/helpCenter?code=003']}>
        <HelpCenterPage />
      </MemoryRouter>,
    );
    expect(await screen.findByText('科技成果登记指南')).toBeTruthy();
    expect(screen.getByText('专利登记说明')).toBeTruthy();
    expect(await screen.findByText(/保存后提交审核/)).toBeTruthy();
    // the section of the tree, with its article
    expect(screen.getByRole('heading', { name: '项目申报' })).toBeTruthy();
    expect(screen.getByText('项目申报说明')).toBeTruthy();
    expect(screen.queryByText('专利名称须与证书一致。')).toBeNull();
    fireEvent.change(screen.getByRole('searchbox', { name: '搜索帮助' }), { target: { value: '证书' } });
    await waitFor(() => expect(screen.queryByText('科技成果登记指南')).toBeNull());
    expect(screen.getByText('专利名称须与证书一致。')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: '项目申报' })).toBeNull();
    fireEvent.change(screen.getByRole('searchbox', { name: '搜索帮助' }), { target: { value: '申报书' } });
    expect(await screen.findByRole('heading', { name: '项目申报' })).toBeTruthy();
    expect(screen.getByText('按指南填写申报书。')).toBeTruthy();
    expect(screen.queryByText('专利登记说明')).toBeNull();
    fireEvent.change(screen.getByRole('searchbox', { name: '搜索帮助' }), { target: { value: '没有这个' } });
    expect(await screen.findByText('没有匹配的帮助')).toBeTruthy();
  });

  it('opens without a session (a public route): the articles and the website tip come without a token', async () => {
    clearSession();
    renderApp(
      <MemoryRouter initialEntries={['/helpCenter']}>
        <HelpCenterPage />
      </MemoryRouter>,
    );
    expect(await screen.findByText('科技成果登记指南')).toBeTruthy();
    expect(await screen.findByText('找不到答案？')).toBeTruthy();
    const calls = [...server.calls('/api/blade-system/dict/dictionary-tree'), ...server.calls('/api/blade-system/dict/dictionary')];
    expect(calls.map((c) => `${c.path.split('/').pop()} ${c.query.code}`).sort()).toEqual(['dictionary websiteTip', 'dictionary-tree help_tip']);
    for (const c of calls) expect(JSON.stringify(c.headers).toLowerCase()).not.toContain('bearer');
  });

  it("a form's tip shows its article; unknown keys and website codes get the spec's messages; English", async () => {
    const view = renderApp(<HelpTip code="basic_patent" />);
    expect(await screen.findByText('专利登记说明')).toBeTruthy();
    expect(screen.getByText('专利名称须与证书一致。')).toBeTruthy();
    view.unmount();
    const unknown = renderApp(<HelpTip code="nope" />);
    expect(await screen.findByText('未找到对应的提示')).toBeTruthy();
    unknown.unmount();
    const website = renderApp(<HelpTip code="x" kind="website" />);
    expect(await screen.findByText('未找到对应code的提示')).toBeTruthy();
    website.unmount();
    const known = renderApp(<HelpTip code="help_center" kind="website" />);
    expect(await screen.findByText('请联系本单位科研管理人员。')).toBeTruthy();
    known.unmount();
    setLang('en');
    renderApp(<HelpTip code="basic_patent" />);
    expect(await screen.findByText('Registering a patent')).toBeTruthy();
    setLang('zh');
  });
});
