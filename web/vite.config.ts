import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';

// The Rust server answers /api and /healthz. Keeping the Host header (changeOrigin: false)
// lets its Fetch-Metadata/Origin CSRF check see the same origin the browser used.
const apiTarget = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:8080';
const proxy = {
  '/api': { target: apiTarget, changeOrigin: false },
  '/healthz': { target: apiTarget, changeOrigin: false },
};

// `.test.ts` files that need the browser's document or localStorage.
const domLogicTests = [
  'src/features/reminders/dismissals.test.ts',
  'src/lib/session/session-store.test.ts',
  'src/lib/sync/sync-manager.test.ts',
  'src/lib/theme.test.ts',
];

export default defineConfig({
  plugins: [
    react(),
    // The service worker precaches the app shell so /app/* opens with no network. New
    // versions wait for the driver to accept them (registerType 'prompt').
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg'],
      manifest: {
        name: 'Delivery Tracker',
        short_name: 'Deliveries',
        description: 'Track your delivery stats efficiently',
        theme_color: '#0e1116',
        background_color: '#0e1116',
        display: 'standalone',
        start_url: '/app/dashboard',
        icons: [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
        navigateFallback: '/index.html',
        // The API and health check always go to the network; the sync engine handles failure.
        navigateFallbackDenylist: [/^\/api\//, /^\/healthz/],
        cleanupOutdatedCaches: true,
        // The first install takes the open page at once, so a driver who signs in and loses
        // signal in the same visit can still open a screen whose code loads on demand. An
        // update still waits for the driver (no skipWaiting), so this never swaps a running app.
        clientsClaim: true,
      },
    }),
  ],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { proxy },
  preview: { proxy },
  // No source maps: dist is embedded in the server binary, which should stay lean.
  build: { outDir: 'dist' },
  test: {
    globals: true,
    restoreMocks: true,
    unstubGlobals: true,
    // Above the suite's wait for a condition (src/testing/wait.ts, 10 s), so a slow machine
    // fails a test on what it waited for, not on the clock of the test as a whole.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Components need a DOM; the rules, sums and parsers do not, and a jsdom per test file
    // costs about three times the CPU of the tests themselves. So `.test.tsx` files (and the
    // few `.test.ts` files that use the page's storage or document) run in jsdom, the rest in
    // plain Node.
    projects: [
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          setupFiles: ['./src/testing/setup.ts'],
          include: ['src/**/*.test.tsx', ...domLogicTests],
        },
      },
      {
        extends: true,
        test: { name: 'logic', environment: 'node', include: ['src/**/*.test.ts'], exclude: domLogicTests },
      },
    ],
  },
});
