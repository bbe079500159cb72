import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mimeType, resolveFile, startStaticServer, type StaticServer } from './static-server';

let root: string;
let server: StaticServer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'static-server-'));
  await mkdir(join(root, 'chapters', 'one'), { recursive: true });
  await writeFile(join(root, 'index.html'), '<h1>home</h1>');
  await writeFile(join(root, '404.html'), '<h1>missing</h1>');
  await writeFile(join(root, 'chapters', 'one', 'index.html'), '<h1>one</h1>');
  await writeFile(join(root, 'app.js'), 'export {}');
  await writeFile(join(root, 'a file.css'), 'body{}');
  server = await startStaticServer(root);
});

afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

describe('mimeType', () => {
  it.each([
    ['/x/index.html', 'text/html; charset=utf-8'],
    ['/_astro/a.B1.js', 'text/javascript; charset=utf-8'],
    ['/f.woff2', 'font/woff2'],
    ['/search-index.json', 'application/json; charset=utf-8'],
    ['/unknown.bin', 'application/octet-stream'],
  ])('%s -> %s', (path, type) => {
    expect(mimeType(path)).toBe(type);
  });
});

describe('resolveFile', () => {
  it.each([
    ['root', '/', 'index.html'],
    ['directory with slash', '/chapters/one/', 'chapters/one/index.html'],
    ['directory without slash', '/chapters/one', 'chapters/one/index.html'],
    ['query string ignored', '/app.js?v=1', 'app.js'],
    ['percent-encoded name', '/a%20file.css', 'a file.css'],
  ])('%s', async (_name, url, expected) => {
    expect(await resolveFile(root, url)).toBe(join(root, expected));
  });

  it.each([
    ['missing file', '/nope.html'],
    ['escape with dot-dot', '/../../etc/passwd'],
    ['encoded escape', '/%2e%2e/%2e%2e/etc/passwd'],
    ['malformed encoding', '/%E0%A4%A'],
  ])('refuses %s', async (_name, url) => {
    expect(await resolveFile(root, url)).toBeUndefined();
  });
});

describe('startStaticServer', () => {
  it('serves files with their MIME type on 127.0.0.1', async () => {
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${server.baseUrl}/app.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await response.text()).toBe('export {}');
  });

  it('answers a miss with 404.html and status 404', async () => {
    const response = await fetch(`${server.baseUrl}/does/not/exist/`);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('<h1>missing</h1>');
  });

  it('records what it served', async () => {
    await fetch(`${server.baseUrl}/chapters/one/`);
    expect(server.served.at(-1)).toBe(join(root, 'chapters', 'one', 'index.html'));
  });
});
