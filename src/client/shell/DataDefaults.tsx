/**
 * The data hooks' defaults for every screen but the login page (App.tsx): swr does not refetch when the window
 * regains focus and does not retry a failed request (the API client has already shown its error once, DESIGN §7).
 * A chunk of its own, so that swr's code is not part of the login route, which fetches nothing through swr
 * (DESIGN §10: the login route's JavaScript under 250 KB gzip); `useGet` (components/env.tsx) sets the same two
 * options on its own calls.
 */
import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';

/** `children` under the app's swr defaults. */
export default function DataDefaults({ children }: { children?: ReactNode }) {
  return <SWRConfig value={{ revalidateOnFocus: false, shouldRetryOnError: false }}>{children}</SWRConfig>;
}
