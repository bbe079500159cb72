// Pages for the browser suites: each in a fresh context, with every non-local request blocked
// and counted, and console errors and page errors recorded for the runner to check.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP_VIEWPORT, type NewPageOptions } from './context';

export interface PageRecord {
  page: Page;
  context: BrowserContext;
  /** URLs of requests that tried to leave 127.0.0.1 (all aborted). */
  blocked: string[];
  /** Console errors and uncaught exceptions, as text. */
  errors: string[];
  /** URLs of every request the page made (for byte accounting). */
  requests: string[];
}

export function isLocal(url: string): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('about:')) return true;
  try {
    return new URL(url).hostname === '127.0.0.1';
  } catch {
    return false;
  }
}

export async function openGuardedPage(browser: Browser, options: NewPageOptions = {}): Promise<PageRecord> {
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP_VIEWPORT,
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: 'reduce',
  });
  const record: PageRecord = { page: undefined as unknown as Page, context, blocked: [], errors: [], requests: [] };
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (isLocal(url)) {
      await route.continue();
    } else {
      record.blocked.push(url);
      await route.abort('blockedbyclient');
    }
  });
  const page = await context.newPage();
  record.page = page;
  const allowed = options.allowConsoleErrors ?? [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (!allowed.some((a) => text.includes(a))) record.errors.push(`console.error: ${text}`);
  });
  page.on('pageerror', (error) => record.errors.push(`uncaught: ${error.stack ?? error.message}`));
  page.on('request', (request) => record.requests.push(request.url()));
  return record;
}
