/**
 * The error boundary of the routes (App.tsx): a page that throws while rendering — or whose lazily loaded code
 * could not be loaded (chunk.ts) — shows RouteError in its place (the client error log, then the 500 page or
 * 'Loading chunk failed' with a reload; RouteError.tsx) instead of taking the whole app down. A new address
 * (`resetKey`, the path) clears the error, so the menu leads out of a broken page.
 *
 * It does the work of React Router's `errorElement`, which only data routers have: the app uses the
 * declarative `<BrowserRouter>`, whose code is about 16 KB gzip smaller than the data router's, for the login
 * route's budget (DESIGN §10). RouteError itself is loaded only when an error is shown.
 */
import { Component, Suspense, type ReactNode } from 'react';
import { Spin } from 'antd';
import { useLocation } from 'react-router-dom';
import { lazyChunk } from './chunk.js';

const RouteError = lazyChunk(() => import('./RouteError.js').then((m) => ({ default: m.RouteError })));

interface BoundaryProps {
  resetKey: string;
  children?: ReactNode;
}

/** The boundary itself: `resetKey` changing clears a caught error. */
class Boundary extends Component<BoundaryProps, { error: unknown; caught: boolean; key: string }> {
  override state = { error: undefined as unknown, caught: false, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error, caught: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { key: string }) {
    return props.resetKey === state.key ? null : { error: undefined, caught: false, key: props.resetKey };
  }

  override render() {
    if (!this.state.caught) return this.props.children;
    return (
      <Suspense fallback={<Spin style={{ display: 'block', margin: '20vh auto' }} />}>
        <RouteError error={this.state.error} />
      </Suspense>
    );
  }
}

/** `children` behind an error boundary that is cleared when the path changes (see the module comment). */
export function RouteBoundary({ children }: { children?: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary resetKey={pathname}>{children}</Boundary>;
}
