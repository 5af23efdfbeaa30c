import { Navigate, type RouteObject } from 'react-router';
import { LoginPage } from '@/features/auth/login-page';
import { LandingPage } from '@/features/landing/landing-page';
import { routes } from '@/lib/paths';
import { PublicLayout } from './public-layout';
import { BootSplash } from './boot-splash';
import { RouteError } from './route-error';
import { PublicOnly, RequireAuth } from './route-guards';

// The signed-in app (its shell, the device store, the sync hooks) loads on demand too, so a
// visitor to the landing or login page downloads none of it.
// Screens a driver opens now and then load on demand (route-level code splitting), so the
// first start downloads less; the service worker precaches every chunk, so they open offline.
const contact = () => import('@/features/contact/contact-page').then(({ ContactPage }) => ({ element: <ContactPage /> }));
const privacy = (inApp: boolean) => () =>
  import('@/features/legal/privacy-page').then(({ PrivacyPage }) => ({ element: <PrivacyPage inApp={inApp} /> }));
const terms = (inApp: boolean) => () =>
  import('@/features/legal/terms-page').then(({ TermsPage }) => ({ element: <TermsPage inApp={inApp} /> }));
const forgotPassword = () => import('@/features/auth/forgot-password-page').then((m) => ({ Component: m.ForgotPasswordPage }));
const resetPassword = () => import('@/features/auth/reset-password-page').then((m) => ({ Component: m.ResetPasswordPage }));
const invite = () => import('@/features/auth/invite-page').then((m) => ({ Component: m.InvitePage }));

/** Spec §2. Kept as data so tests mount the very same tree in a memory router; paths from lib/paths.ts. */
export const appRoutes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    // While the first page's code loads: what index.html painted before any JS (same markup).
    hydrateFallbackElement: <BootSplash />,
    children: [
      {
        element: <PublicOnly />,
        children: [
          {
            element: <PublicLayout />,
            children: [
              { index: true, element: <LandingPage /> },
              { path: routes.login, element: <LoginPage /> },
              { path: routes.forgotPassword, lazy: forgotPassword },
              { path: routes.contact, lazy: contact },
              { path: routes.privacy, lazy: privacy(false) },
              { path: routes.terms, lazy: terms(false) },
            ],
          },
        ],
      },
      // Opened from an e-mailed link, signed in or not: using it signs this browser in.
      {
        element: <PublicLayout />,
        children: [
          { path: routes.resetPassword, lazy: resetPassword },
          { path: routes.invite, lazy: invite },
        ],
      },
      {
        path: routes.app,
        element: <RequireAuth />,
        children: [
          {
            lazy: () => import('./app-layout').then((m) => ({ Component: m.AppLayout })),
            children: [
              { index: true, element: <Navigate to={routes.dashboard} replace /> },
              { path: routes.dashboard, lazy: () => import('@/features/dashboard/dashboard-page').then((m) => ({ Component: m.DashboardPage })) },
              { path: routes.history, lazy: () => import('@/features/history/history-page').then((m) => ({ Component: m.HistoryPage })) },
              {
                path: routes.statementCheck,
                lazy: () => import('@/features/statement-detail/statement-detail-page').then((m) => ({ Component: m.StatementDetailPage })),
              },
              {
                path: routes.statementQuery,
                lazy: () => import('@/features/statement-query/statement-query-page').then((m) => ({ Component: m.StatementQueryPage })),
              },
              { path: routes.profile, lazy: () => import('@/features/profile/profile-page').then((m) => ({ Component: m.ProfilePage })) },
              { path: routes.spending, lazy: () => import('@/features/spending/spending-page').then((m) => ({ Component: m.SpendingPage })) },
              { path: routes.taxYear, lazy: () => import('@/features/tax-year/tax-year-page').then((m) => ({ Component: m.TaxYearPage })) },
              { path: routes.settings, lazy: () => import('@/features/settings/settings-page').then((m) => ({ Component: m.SettingsPage })) },
              { path: routes.more, lazy: () => import('@/features/more/more-page').then((m) => ({ Component: m.MorePage })) },
              { path: routes.whatIf, lazy: () => import('@/features/what-if/what-if-page').then((m) => ({ Component: m.WhatIfPage })) },
              { path: routes.upgrade, lazy: () => import('@/features/upgrade/upgrade-page').then((m) => ({ Component: m.UpgradePage })) },
              { path: routes.appContact, lazy: contact },
              { path: routes.appPrivacy, lazy: privacy(true) },
              { path: routes.appTerms, lazy: terms(true) },
            ],
          },
        ],
      },
      // Spec: any unknown path goes to the landing page (which forwards signed-in users).
      { path: '*', element: <Navigate to={routes.home} replace /> },
    ],
  },
];
