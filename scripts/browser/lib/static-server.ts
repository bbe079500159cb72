// A tiny static file server for the built site (dist/), so the browser suite needs no preview
// server: correct MIME types, directory -> index.html, and dist/404.html (status 404) for misses.
// Listens on 127.0.0.1 only; requests for paths outside the root are refused.
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

export const MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.xml': 'application/xml',
  '.webmanifest': 'application/manifest+json',
};

export function mimeType(path: string): string {
  return MIME_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Maps a URL path to a file under root: decodes it, refuses escapes from root, and turns
 * "/dir/" and "/dir" (when a directory) into "/dir/index.html". Returns undefined for no file.
 */
export async function resolveFile(root: string, urlPath: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0]!.split('#')[0]!);
  } catch {
    return undefined;
  }
  const rootAbs = resolve(root);
  const candidate = resolve(rootAbs, '.' + normalize('/' + decoded));
  if (candidate !== rootAbs && !candidate.startsWith(rootAbs + sep)) return undefined;
  for (const path of [candidate, join(candidate, 'index.html')]) {
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile()) return path;
  }
  return undefined;
}

export interface StaticServer {
  server: Server;
  baseUrl: string;
  /** Every path served, in order (the suite uses it to measure bytes per page). */
  served: string[];
  close(): Promise<void>;
}

export async function startStaticServer(root: string, port = 0): Promise<StaticServer> {
  const served: string[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const file = await resolveFile(root, request.url ?? '/');
      if (file) served.push(file);
      const target = file ?? (await resolveFile(root, '/404.html'));
      const status = file ? 200 : 404;
      if (!target) {
        response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
        return;
      }
      const body = await readFile(target);
      response.writeHead(status, {
        'Content-Type': mimeType(target),
        'Content-Length': body.length,
        'Cache-Control': 'no-store',
      });
      response.end(request.method === 'HEAD' ? undefined : body);
    })().catch((error: unknown) => {
      response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end(String(error));
    });
  });
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('static server: no TCP address');
  return {
    server,
    baseUrl: `http://127.0.0.1:${address.port}`,
    served,
    close: () => new Promise<void>((ok, fail) => server.close((e) => (e ? fail(e) : ok()))),
  };
}
