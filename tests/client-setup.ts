/**
 * Set-up of the client tests (vitest `client` project, jsdom): the browser APIs antd and Formily expect but
 * jsdom lacks (matchMedia for antd's responsive observers, ResizeObserver for FormGrid and rc-resize-observer,
 * getComputedStyle with a pseudo element, scrollTo, scrollIntoView), React Testing Library's cleanup
 * after each test (vitest globals are off, so RTL cannot register it itself) with any error toast still pending
 * (runtime/api.ts `cancelErrorToast`), one filtered console
 * warning (below), and i18next set up as the app's entry sets it up (shell/i18n.ts; the designer's texts as its
 * chunk adds them) — the runtime and the
 * components read i18next's instance without importing the shell (src/client/components/layering.test.ts).
 *
 * The client files run two at a time (vitest.config.ts) on a 2-core machine others share: RTL's `findBy…` /
 * `waitFor` wait up to 15 s (not RTL's 1 s) for what a user would see, so a busy machine does not fail a test
 * that is right (the designer's save-and-publish took over 5 s per step at a load average of 13); a passing
 * wait returns as soon as its condition holds, and no test waits for something that must not appear.
 */
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import '../src/client/shell/i18n.js';
import { registerDesignerTexts } from '../designer/texts.js';
import { cancelErrorToast } from '../src/client/runtime/api.js';

// the designer's texts, which the app adds when the designer's chunk loads (designer/texts.ts)
registerDesignerTexts();

if (typeof window !== 'undefined') {
  if (!window.matchMedia) {
    Object.defineProperty(window, 'matchMedia', {
      writable: true,
      configurable: true,
      value: (query: string) => ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }),
    });
  }

  if (!('ResizeObserver' in window)) {
    class ResizeObserverStub {
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    }
    Object.defineProperty(window, 'ResizeObserver', { writable: true, configurable: true, value: ResizeObserverStub });
    Object.defineProperty(globalThis, 'ResizeObserver', { writable: true, configurable: true, value: ResizeObserverStub });
  }

  // jsdom does not implement getComputedStyle(elt, pseudoElt) and logs an error for each call antd makes
  const computed = window.getComputedStyle.bind(window);
  window.getComputedStyle = ((elt: Element) => computed(elt)) as typeof window.getComputedStyle;

  window.scrollTo = (() => {}) as typeof window.scrollTo;
  if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};
}

// @formily/antd-v5's ArrayTable puts dnd-kit's screen-reader text (a div) inside <tbody>: a known
// library quirk, harmless, and React's dev warning about it would bury the tests' own output
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes('validateDOMNesting') && String(args[1]).includes('<div>') && String(args[2]) === 'tbody') return;
  consoleError(...args);
};

configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  cancelErrorToast();
});
