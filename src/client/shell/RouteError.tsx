/**
 * The routes' error element (App.tsx): a page that fails to render is recorded once in the client error log
 * (type `error`, info `route`; error-log.ts, spec 000 §8) and the 500 page shows inside the layout — without
 * it, React Router's own boundary would swallow the error and the error log would never hear of it.
 */
import { useEffect } from 'react';
import { useRouteError } from 'react-router-dom';
import { recordError } from './error-log.js';
import { ErrorPage } from './pages.js';

export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    recordError('error', error, 'route');
  }, [error]);
  return <ErrorPage status={500} />;
}
