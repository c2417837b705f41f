// @vitest-environment jsdom
/**
 * `result: 'open'` of a list operation (OperationDialog.tsx `openLink`): the answered link of a document's signed
 * preview (`<api>/generateReportFile` → `{link: '/previewTaskBook?token=…'}`) opens in a new window, or here when
 * the browser blocks new windows; a link to another origin or a script is never followed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openLink } from './OperationDialog.js';

afterEach(() => vi.restoreAllMocks());

describe('openLink', () => {
  it('opens a same-origin link from the answer in a new window, cut off from this one', () => {
    const win = { opener: window } as unknown as Window;
    const open = vi.spyOn(window, 'open').mockReturnValue(win);
    expect(openLink({ link: '/previewTaskBook?token=abc', expiresIn: 1800 })).toBe(true);
    expect(open).toHaveBeenCalledWith('/previewTaskBook?token=abc', '_blank');
    expect(win.opener).toBeNull();
    expect(openLink('/previewReport?token=x')).toBe(true);
  });

  it('never follows another origin, a protocol-relative address, a script or nothing', () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    for (const bad of [{ link: 'https://evil.example/x' }, { link: '//evil.example/x' }, { link: 'javascript:alert(1)' }, {}, null, 42]) expect(openLink(bad)).toBe(false);
    expect(open).not.toHaveBeenCalled();
  });
});
