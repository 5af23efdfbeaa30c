import { Navigate, type RouteObject } from 'react-router';
import { LoginPage } from '@/features/auth/login-page';
import { ContactPage } from '@/features/contact/contact-page';
import { DashboardPage } from '@/features/dashboard/dashboard-page';
import { HistoryPage } from '@/features/history/history-page';
import { LandingPage } from '@/features/landing/landing-page';
import { PrivacyPage } from '@/features/legal/privacy-page';
import { TermsPage } from '@/features/legal/terms-page';
import { ProfilePage } from '@/features/profile/profile-page';
import { SettingsPage } from '@/features/settings/settings-page';
import { UpgradePage } from '@/features/upgrade/upgrade-page';
import { routes } from '@/lib/paths';
import { AppLayout } from './app-layout';
import { PublicLayout } from './public-layout';
import { RouteError } from './route-error';
import { PublicOnly, RequireAuth } from './route-guards';

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
              { path: 'privacy', element: <PrivacyPage /> },
              { path: 'terms', element: <TermsPage /> },
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
              { path: 'history', element: <HistoryPage /> },
              { path: 'profile', element: <ProfilePage /> },
              { path: 'settings', element: <SettingsPage /> },
              { path: 'upgrade', element: <UpgradePage /> },
              { path: 'contact', element: <ContactPage /> },
              { path: 'privacy', element: <PrivacyPage inApp /> },
              { path: 'terms', element: <TermsPage inApp /> },
            ],
          },
        ],
      },
      // Spec: any unknown path goes to the landing page (which forwards signed-in users).
      { path: '*', element: <Navigate to={routes.home} replace /> },
    ],
  },
];
