import { lazy, Suspense } from 'react';
import { Navigate, Outlet } from 'react-router';
import { FullScreenSpinner } from '@/components/spinner';
import { routes } from '@/lib/paths';
import { useSession } from '@/lib/session/use-session';

// Rarely needed, and its forms bring zod: loaded on demand, so the public pages never carry it.
const ChooseNewPassword = lazy(() => import('@/features/profile/choose-new-password').then((m) => ({ default: m.ChooseNewPassword })));

/** /app/*: only for a signed-in user (a guest counts) who need not choose a new password first. */
export function RequireAuth() {
  const session = useSession();
  if (session.status === 'loading') return <FullScreenSpinner />;
  if (session.status === 'signed-out') {
    // Signing out on purpose ends on the landing page (spec); any other way in goes to /login.
    return <Navigate to={session.reason === 'signed-out' ? routes.home : routes.login} replace />;
  }
  // A temporary password comes before anything else: the server refuses other writes anyway.
  if (session.user.mustChangePassword) {
    return (
      <Suspense fallback={<FullScreenSpinner />}>
        <ChooseNewPassword />
      </Suspense>
    );
  }
  return <Outlet />;
}

/** Public pages: a signed-in user is taken straight to the dashboard. */
export function PublicOnly() {
  const session = useSession();
  // Someone was signed in on this device last time: wait for the answer, as showing the page,
  // then yanking it away, would flash. Anyone else sees the page at once: it is what the
  // prerendered HTML of / and /login painted before any JS (scripts/prerender.ts).
  if (session.status === 'loading' && session.remembered) return <FullScreenSpinner />;
  if (session.status === 'signed-in') return <Navigate to={routes.dashboard} replace />;
  return <Outlet />;
}
