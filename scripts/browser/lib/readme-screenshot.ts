// Writes docs/screenshot.png (the README's picture of chapter 1) from a built site:
// `npm exec -- tsx scripts/browser/lib/readme-screenshot.ts [distDir]`. Run it after design changes.
import { join, resolve } from 'node:path';
import { findChromium, launchChromium } from './chromium';
import { startStaticServer } from './static-server';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const dist = resolve(ROOT, process.argv[2] ?? 'dist');
const executable = findChromium();
if (!executable) throw new Error('readme-screenshot: no Chromium found (set CHROMIUM_PATH)');
const server = await startStaticServer(dist);
const browser = await launchChromium(executable);
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 760 }, deviceScaleFactor: 0.75 });
  await context.route('**/*', (route) =>
    new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort(),
  );
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/chapters/01-journey/`, { waitUntil: 'networkidle' });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.screenshot({ path: join(ROOT, 'docs', 'screenshot.png') });
} finally {
  await browser.close();
  await server.close();
}
