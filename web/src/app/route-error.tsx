import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorScreen } from '@/components/error-screen';

/** Any render error below the root lands here instead of a blank page. */
export function RouteError() {
  const error = useRouteError();
  // The details help a developer; users get the spec's plain text only.
  if (!import.meta.env.DEV) return <ErrorScreen />;
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? (error.stack ?? error.message)
      : String(error);
  return <ErrorScreen detail={detail} />;
}
