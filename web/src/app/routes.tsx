import { Navigate, type RouteObject } from 'react-router';
import { LoginPage } from '@/features/auth/login-page';
import { ContactPage } from '@/features/contact/contact-page';
import { DashboardPage } from '@/features/dashboard/dashboard-page';
import { LandingPage } from '@/features/landing/landing-page';
import { ProfilePage } from '@/features/profile/profile-page';
import { routes } from '@/lib/paths';
import { AppLayout } from './app-layout';
import { PublicLayout } from './public-layout';
import { RouteError } from './route-error';
import { PublicOnly, RequireAuth } from './route-guards';

// Screens a driver opens now and then load on demand (route-level code splitting), so the
// first start downloads less; the service worker precaches every chunk, so they open offline.
const privacy = (inApp: boolean) => () =>
  import('@/features/legal/privacy-page').then(({ PrivacyPage }) => ({ element: <PrivacyPage inApp={inApp} /> }));
const terms = (inApp: boolean) => () =>
  import('@/features/legal/terms-page').then(({ TermsPage }) => ({ element: <TermsPage inApp={inApp} /> }));

/** Spec §2. Kept as data so tests mount the very same tree in a memory router. */
export const appRoutes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      {
        element: <PublicOnly />,
        children: [
          {
            element: <PublicLayout />,
            children: [
              { index: true, element: <LandingPage /> },
              { path: 'login', element: <LoginPage /> },
              { path: 'contact', element: <ContactPage /> },
              { path: 'privacy', lazy: privacy(false) },
              { path: 'terms', lazy: terms(false) },
            ],
          },
        ],
      },
      {
        path: 'app',
        element: <RequireAuth />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { index: true, element: <Navigate to={routes.dashboard} replace /> },
              { path: 'dashboard', element: <DashboardPage /> },
              { path: 'history', lazy: () => import('@/features/history/history-page').then((m) => ({ Component: m.HistoryPage })) },
              { path: 'profile', element: <ProfilePage /> },
              { path: 'settings', lazy: () => import('@/features/settings/settings-page').then((m) => ({ Component: m.SettingsPage })) },
              { path: 'upgrade', lazy: () => import('@/features/upgrade/upgrade-page').then((m) => ({ Component: m.UpgradePage })) },
              { path: 'contact', element: <ContactPage /> },
              { path: 'privacy', lazy: privacy(true) },
              { path: 'terms', lazy: terms(true) },
            ],
          },
        ],
      },
      // Spec: any unknown path goes to the landing page (which forwards signed-in users).
      { path: '*', element: <Navigate to={routes.home} replace /> },
    ],
  },
];
