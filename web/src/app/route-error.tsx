import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorScreen } from '@/components/error-screen';

/**
 * Any render or loader error below the root lands here instead of a blank page. The details
 * help a developer; users get the spec's plain text only, unless `showDetails` says otherwise.
 */
export function RouteError({ showDetails = import.meta.env.DEV }: { showDetails?: boolean }) {
  const error = useRouteError();
  if (!showDetails) return <ErrorScreen />;
  return <ErrorScreen detail={describeError(error)} />;
}

function describeError(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
