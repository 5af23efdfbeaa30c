// A web app's built folder served in front of a server binary's API: two builds of the web app
// measured against one server (the device bench's BENCH_DIST and BENCH_BASELINE_DIST), when only
// the web app differs and building a binary per web build would take longer than the bench.
// Static files as the server's SPA serves them (the prerendered landing and login pages, the
// app's index.html for every other page), /api streamed through, cookies kept.
/**
 * A static server of `dist` that forwards /api to `api`: its URL and the way to stop it.
 * `pullDelayMs`: each pull page's answer held back that long, as a mobile network's round trip
 * would (the device bench's BENCH_PULL_DELAY_MS).
 */
export async function distProxy(dist: string, api: string, { pullDelayMs = 0 } = {}): Promise<{ url: string; close(): void }> {
  const http = await import('node:http');
  const { readFile } = await import('node:fs/promises');
  const { join, extname } = await import('node:path');
  const types: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.json': 'application/json', '.webmanifest': 'application/manifest+json', '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2' };
  const proxy = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.startsWith('/api/')) {
      if (pullDelayMs > 0 && url.pathname === '/api/v1/sync/pull') await new Promise((done) => setTimeout(done, pullDelayMs));
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection') as [string, string][]);
      const answer = await fetch(api + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined, redirect: 'manual' });
      const out: Record<string, string | string[]> = {};
      answer.headers.forEach((v, k) => { if (k !== 'content-encoding' && k !== 'content-length' && k !== 'transfer-encoding') out[k] = v; });
      const cookies = answer.headers.getSetCookie();
      if (cookies.length) out['set-cookie'] = cookies;
      res.writeHead(answer.status, out);
      // Streamed: the event stream never ends.
      const reader = answer.body?.getReader();
      for (let part = await reader?.read(); part && !part.done; part = await reader!.read()) res.write(part.value);
      res.end();
      return;
    }
    const file = url.pathname === '/' ? 'pages/index.html' : url.pathname === '/login' ? 'pages/login.html' : extname(url.pathname) ? url.pathname.slice(1) : 'index.html';
    try {
      const body = await readFile(join(dist, file)).catch(() => readFile(join(dist, 'index.html')));
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  const address = proxy.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, close: () => (proxy.closeAllConnections(), proxy.close()) };
}
