/**
 * Prerenders the landing and login pages (issue 15: they paint before the app's JS) after
 * `vite build`: renders src/prerender.tsx under Node with the same Vite config, and writes each
 * page's markup (and its stylesheets) into a copy of dist/index.html as dist/pages/<route>.html, which the server
 * sends for that route (crates/server/src/http/spa.rs). index.html keeps its neutral splash: it
 * answers every other route, and the service worker's navigations.
 *
 * The markup is the app's own first render on a device nobody signed in on, so React hydrates
 * it (main.tsx) rather than drawing it again. Until the JS runs its controls are disabled (and
 * drawn as enabled, index.html), so nothing is typed or tapped where no one listens yet;
 * main.tsx takes that and the wrapper off just before hydrating.
 */
import { readdirSync, readFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

const web = resolve(import.meta.dirname, '..');
const dist = join(web, 'dist');
const ssrOut = join(web, 'node_modules', '.prerender');
/** Route → file under dist/pages (the server's naming: the route's one segment, or index). */
const PAGES: [route: string, file: string][] = [
  ['/', 'index.html'],
  ['/login', 'login.html'],
];
const ROOT = /<div id="root">[\s\S]*?<!-- \/boot -->\s*<\/div>/;

await build({
  root: web,
  configFile: join(web, 'vite.config.ts'),
  logLevel: 'warn',
  build: { ssr: join(web, 'src', 'prerender.tsx'), outDir: ssrOut, emptyOutDir: true, copyPublicDir: false },
});
const { prerender } = (await import(pathToFileURL(join(ssrOut, 'prerender.js')).href)) as { prerender: (path: string) => string };

const shell = readFileSync(join(dist, 'index.html'), 'utf8');
if (!ROOT.test(shell)) throw new Error('dist/index.html: no <div id="root"> ending in <!-- /boot --> to fill');
const css = readdirSync(join(dist, 'assets'))
  .filter((name) => name.endsWith('.css'))
  .map((name) => readFileSync(join(dist, 'assets', name), 'utf8'))
  .join('\n');

/**
 * The stylesheets the page links, written into it: no request stands between the HTML and its
 * first paint. Each link stays, with media="not all" (never applied, never blocking), because
 * Vite's loader of on-demand chunks adds a chunk's stylesheet again, later in the cascade than
 * it was, unless a link to it is already in the page.
 */
function inlineStylesheets(html: string): string {
  return html.replace(/<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/g, (link, file: string) => {
    const rules = readFileSync(join(dist, file), 'utf8');
    // A relative url() would resolve against the page, not assets/; "</style" would end the element.
    if (/url\(\s*['"]?(?!\/|data:)/.test(rules) || rules.includes('</style')) throw new Error(`${file} cannot be inlined as it is`);
    return `<style>${rules}</style>${link.replace('>', ' media="not all">')}`;
  });
}

rmSync(join(dist, 'pages'), { recursive: true, force: true });
mkdirSync(join(dist, 'pages'));
for (const [route, file] of PAGES) {
  const markup = prerender(route);
  // A class the built CSS does not know means the two builds named CSS modules differently,
  // and the page would paint unstyled until the JS runs.
  const unknown = [...markup.matchAll(/class="([^"]*)"/g)].flatMap((m) => m[1]!.split(/\s+/)).filter((name) => name.startsWith('_') && !css.includes(`.${name}`));
  if (unknown.length > 0) throw new Error(`${route}: classes missing from the built CSS: ${[...new Set(unknown)].join(' ')}`);
  const inert = markup.replace(/<(button|input|select|textarea)\b(?![^>]*\sdisabled)/g, '<$1 disabled="" data-until-js=""');
  const html = inlineStylesheets(shell).replace(ROOT, () => `<div id="root"><div class="prerendered">${inert}</div></div>`);
  writeFileSync(join(dist, 'pages', file), html);
  console.log(`prerendered ${route} -> dist/pages/${file} (${markup.length} characters of markup)`);
}
