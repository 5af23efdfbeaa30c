import { fileURLToPath } from 'node:url';
import { defaultAssetName, type Preset } from '@vite-pwa/assets-generator/config';
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

// The icon's own blue (public/favicon.svg), so a maskable or apple-touch icon is one blue tile.
const ICON_BLUE = '#2563eb';
const opaque = { background: ICON_BLUE, fit: 'contain' } as const;
const ANY_SIZES = [192, 512];
const MASKABLE_SIZES = [192, 512];

const ICON_PRESET: Preset = {
  // Purpose "any": the SVG's rounded tile as it is, transparent around it.
  transparent: { sizes: ANY_SIZES, favicons: [[48, 'favicon.ico']] },
  // A launcher may cut a maskable icon to any shape inside the inner 80 % circle (the safe
  // zone). At 30 % padding the truck, about 70 % of the SVG, spans under half of the tile, well
  // inside that circle, and the blue bleeds to the edges.
  maskable: { sizes: MASKABLE_SIZES, padding: 0.3, resizeOptions: opaque },
  // iOS rounds the corners itself and shows transparency as black, so this one is opaque too.
  apple: { sizes: [180], padding: 0.2, resizeOptions: opaque },
};

// The generated icons, named as the generator names them. Listed here rather than left to the
// plugin to fill in, because the plugin precaches the manifest under a revision taken before
// it fills them in: the file as built would then be listed twice with two revisions, and such
// a service worker refuses to install (e2e/pwa-install.spec.ts checks both).
const square = (size: number) => ({ original: size, width: size, height: size });
const MANIFEST_ICONS = [
  ...ANY_SIZES.map((size) => ({ src: defaultAssetName('transparent', square(size)), sizes: `${size}x${size}`, type: 'image/png', purpose: 'any' })),
  ...MASKABLE_SIZES.map((size) => ({ src: defaultAssetName('maskable', square(size)), sizes: `${size}x${size}`, type: 'image/png', purpose: 'maskable' })),
];

// `.test.ts` files that need the browser's document or localStorage.
const domLogicTests = [
  'src/features/reminders/dismissals.test.ts',
  'src/lib/session/session-store.test.ts',
  'src/lib/sync-react/sync-manager.test.ts',
  'src/lib/theme.test.ts',
];

// The chunks (issue 30). Left to itself the bundler splits the signed-in app into about fifty
// chunks, one per set of screens sharing a module: opening the dashboard then costs fifty module
// requests, and on a slow phone each request, its preload link and its module record cost main
// thread time (at 4× CPU throttling, 100 ms and more of an offline cold start). So:
// - "index": everything the first page loads statically (the landing and login pages' code,
//   React, the router), in one file instead of the entry and its ten shared chunks;
// - "signed-in": everything else the signed-in shell, the dashboard and the sync engine load
//   statically, which every signed-in start needs, in one file;
// - "shared": the few of those a public page (one a visitor who is not signed in opens:
//   features/auth, contact, legal, landing) uses too, so such a visitor never loads the
//   signed-in app.
// The other screens keep their own chunks and share these two.
const PUBLIC_PAGES = /[\\/]src[\\/]features[\\/](auth|contact|legal|landing)[\\/]/;
const SRC = fileURLToPath(new URL('./src', import.meta.url));
const SIGNED_IN_ROOTS = ['app/app-layout.tsx', 'features/dashboard/dashboard-page.tsx', 'sync/coordinator.ts'].map((path) => `${SRC}/${path}`);

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;
}

/** The modules `roots` import (statically, and dynamically too when asked), short of `stop`. */
function reach(graph: ModuleGraph, roots: readonly string[], stop: ReadonlySet<string>, dynamic = false): Set<string> {
  const seen = new Set<string>();
  const todo = [...roots];
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
    if (seen.has(id) || stop.has(id)) continue;
    seen.add(id);
    const info = graph.getModuleInfo(id);
    todo.push(...(info?.importedIds ?? []), ...(dynamic ? (info?.dynamicallyImportedIds ?? []) : []));
  }
  return seen;
}

// Worked out once per build (the bundler passes the same graph to every call).
let groupsOf: { graph: ModuleGraph; initial: Set<string>; shared: Set<string>; signedIn: Set<string> } | null = null;
function chunkGroups(graph: ModuleGraph) {
  if (groupsOf?.graph !== graph) {
    const initial = reach(graph, [`${SRC}/main.tsx`], new Set());
    const publicRoots = [...initial].flatMap((id) => graph.getModuleInfo(id)?.dynamicallyImportedIds ?? []).filter((id) => PUBLIC_PAGES.test(id));
    const publicPages = reach(graph, publicRoots, initial, true);
    const signedIn = reach(graph, SIGNED_IN_ROOTS, initial);
    const shared = new Set([...signedIn].filter((id) => publicPages.has(id)));
    groupsOf = { graph, initial, shared, signedIn };
  }
  return groupsOf;
}

// Higher priority first: a group takes its modules before a lower one can pull them in as
// dependencies of its own.
const CHUNK_GROUPS = [
  { name: (id: string, graph: ModuleGraph) => (chunkGroups(graph).initial.has(id) ? 'index' : null), debugName: 'index', priority: 3 },
  { name: (id: string, graph: ModuleGraph) => (chunkGroups(graph).shared.has(id) ? 'shared' : null), debugName: 'shared', priority: 2 },
  { name: (id: string, graph: ModuleGraph) => (chunkGroups(graph).signedIn.has(id) ? 'signed-in' : null), debugName: 'signed-in', priority: 1 },
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
      // The PNG icons are made from public/favicon.svg at build time (@vite-pwa/assets-generator,
      // sharp): Android needs 192/512 PNGs to install, a maskable one to fill its shape, and iOS
      // an opaque 180×180 apple-touch icon. The plugin writes them to dist, puts them in the
      // manifest (MANIFEST_ICONS) and links the apple-touch icon and favicon.ico in index.html.
      pwaAssets: {
        image: 'public/favicon.svg',
        preset: ICON_PRESET,
        overrideManifestIcons: false,
        includeHtmlHeadLinks: true,
        // index.html has its own theme-color meta, the same colour as the manifest's.
        injectThemeColor: false,
      },
      manifest: {
        name: 'Delivery Tracker',
        short_name: 'Deliveries',
        description: 'Track your delivery stats efficiently',
        theme_color: '#0e1116',
        background_color: '#0e1116',
        display: 'standalone',
        start_url: '/app/dashboard',
        icons: MANIFEST_ICONS,
      },
      workbox: {
        // mjs: the PDF reader's worker (pdfjs-dist), loaded only when a driver picks a PDF
        // statement, precached so that works offline too.
        globPatterns: ['**/*.{js,mjs,css,html,svg,png,ico,woff2,webmanifest}'],
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
  // The sync's pull worker (sync/pull-worker.ts) is a module worker, as its code is split like the app's.
  worker: { format: 'es' },
  server: { proxy },
  preview: { proxy },
  // No source maps: dist is embedded in the server binary, which should stay lean.
  build: {
    outDir: 'dist',
    // Three chunks instead of fifty on the way to the dashboard (see CHUNK_GROUPS).
    rolldownOptions: { output: { codeSplitting: { groups: CHUNK_GROUPS } } },
  },
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
