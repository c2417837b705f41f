/**
 * What the routes' error boundary (RouteBoundary.tsx) shows for `error`: a page that fails to render is recorded
 * once in the client error log (type `error`, info `route`; error-log.ts, spec 000 §8) and the 500 page shows
 * inside the layout — a boundary without it would swallow the error and the error log would never hear of it. A screen
 * whose code could not be loaded (chunk.ts: 120 s, or a chunk gone after a release) shows 'Loading chunk
 * failed' with a reload button instead (issue 18).
 */
import { useEffect } from 'react';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { recordError } from './error-log.js';
import { ErrorPage } from './pages.js';
import { isChunkError } from './chunk.js';

/** The error page for `error` (see the module comment). */
export function RouteError({ error }: { error: unknown }) {
  useEffect(() => {
    recordError('error', error, 'route');
  }, [error]);
  // a screen whose code could not be loaded (chunk.ts): say so and offer a reload (issue 18)
  if (isChunkError(error)) return <ChunkFailed />;
  return <ErrorPage status={500} />;
}

/** 'Loading chunk failed' with a reload button. */
export function ChunkFailed() {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t('chunk.failed')}
      subTitle={t('chunk.hint')}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('chunk.reload')}
        </Button>
      }
    />
  );
}
