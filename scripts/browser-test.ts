// The browser suite (`npm run test:browser`): serves the built dist/ on 127.0.0.1, drives Chromium
// through playwright-core, and checks every page of the site: no request leaves the machine, no
// console or page errors, axe WCAG 2.1 AA clean in light and dark (emulated and via the toggle), on
// desktop and phone. Then it checks the keyboard path, theme persistence and search, writes the
// design screenshots, and runs every scripts/browser/*.suite.ts module (see scripts/browser/lib/context.ts).
// Prints "N passed, M failed" and exits non-zero on any failure.
import { mkdir, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { findChromium, launchChromium } from './browser/lib/chromium';
import {
  DESKTOP_VIEWPORT,
  PHONE_VIEWPORT,
  type BrowserSuite,
  type BrowserSuiteContext,
  type NewPageOptions,
} from './browser/lib/context';
import { openGuardedPage, type PageRecord } from './browser/lib/guarded-page';
import { formatViolations, runAxe } from './browser/lib/axe';
import { resolveFile, startStaticServer } from './browser/lib/static-server';
import { countBytes, kb } from './browser/lib/page-bytes';

const ROOT = resolve(import.meta.dirname, '..');
// DIST_DIR lets a developer test a build in another folder (`astro build --outDir ...`) while
// someone else rebuilds dist/; CI and `npm test` use dist/.
const DIST = resolve(ROOT, process.env.DIST_DIR ?? 'dist');
// `--suites=a,b` runs only those scripts/browser/<name>.suite.ts modules; `--suites=` runs none.
const SUITES_ARG = process.argv.find((a) => a.startsWith('--suites='))?.slice('--suites='.length);
// `--pages=/,/chapters/` audits only pages whose path equals or starts with one of these.
const PAGES_ARG = process.argv.find((a) => a.startsWith('--pages='))?.slice('--pages='.length);
const RESULTS = join(ROOT, 'test-results');
const SCREENSHOTS = join(RESULTS, 'screenshots');
const FAILURES = join(RESULTS, 'failures');

/** Body background of each theme (tokens.css --bg), to check which theme is really shown. */
const THEME_BACKGROUND = { light: 'rgb(251, 250, 247)', dark: 'rgb(20, 22, 27)' } as const;

let passed = 0;
let failed = 0;
const failures: string[] = [];

function slug(text: string): string {
  return text.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase().slice(0, 90);
}

async function recordFailure(message: string, page?: Page): Promise<void> {
  failed++;
  failures.push(message);
  console.log(`  ✗ ${message}`);
  if (page && !page.isClosed()) {
    const file = join(FAILURES, `${slug(message)}.png`);
    await page.screenshot({ path: file, fullPage: false }).catch(() => {});
    console.log(`    screenshot: ${relative(ROOT, file)}`);
  }
}

async function check(name: string, fn: () => Promise<void>, page?: Page): Promise<void> {
  try {
    await fn();
    passed++;
    console.log(`  ✓ ${name}`);
  } catch (error) {
    await recordFailure(`${name}: ${error instanceof Error ? error.message : String(error)}`, page);
  }
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** Every HTML page in dist/, as URL paths ("/", "/chapters/01-journey/", "/404.html"). */
async function listPages(): Promise<string[]> {
  const entries = await readdir(DIST, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => '/' + relative(DIST, join(e.parentPath, e.name)).split('\\').join('/'))
    .map((p) => (p.endsWith('/index.html') ? p.slice(0, -'index.html'.length) : p))
    .filter((p) => !PAGES_ARG || PAGES_ARG.split(',').some((want) => (want === '/' ? p === '/' : p.startsWith(want))))
    .sort();
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

async function shownTheme(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

/** Checks that must hold on a page after it loaded: guards, axe, theme. */
async function auditPage(record: PageRecord, label: string, theme: 'light' | 'dark'): Promise<void> {
  const { page } = record;
  await check(`${label}: shows the ${theme} theme`, async () => {
    const background = await shownTheme(page);
    assert(background === THEME_BACKGROUND[theme], `body background is ${background}, expected ${THEME_BACKGROUND[theme]}`);
  }, page);
  await check(`${label}: axe WCAG 2.1 AA`, async () => {
    const violations = await runAxe(page);
    assert(violations.length === 0, `${violations.length} violation(s):\n${formatViolations(violations)}`);
  }, page);
  await check(`${label}: no request left 127.0.0.1, no console or page errors`, async () => {
    assert(record.blocked.length === 0, `${record.blocked.length} blocked request(s): ${record.blocked.join(', ')}`);
    assert(record.errors.length === 0, record.errors.join('\n'));
  }, page);
}

async function auditAllPages(browsers: BrowserHolder, baseUrl: string, pages: string[]): Promise<void> {
  const bytes: string[] = [];
  for (const path of pages) {
    const pageStarted = Date.now();
    console.log(`\n${path}`);
    const browser = await browsers.get();
    for (const [viewportName, viewport] of [
      ['desktop', DESKTOP_VIEWPORT],
      ['phone', PHONE_VIEWPORT],
    ] as const) {
      for (const theme of ['light', 'dark'] as const) {
        const record = await openGuardedPage(browser, { colorScheme: theme, viewport });
        const label = `${path} ${viewportName} ${theme}`;
        try {
          await record.page.goto(baseUrl + path, { waitUntil: 'load' });
          await settle(record.page);
          await auditPage(record, label, theme);
          if (viewportName === 'desktop' && theme === 'light') {
            bytes.push(await pageBytes(path, record));
            await auditToggle(record, `${path} desktop toggled to dark`);
          }
        } catch (error) {
          await recordFailure(`${label}: ${error instanceof Error ? error.message : String(error)}`, record.page);
        } finally {
          await record.context.close().catch(() => {});
        }
      }
    }
    console.log(`  (${((Date.now() - pageStarted) / 1000).toFixed(1)}s)`);
  }
  console.log('\nBytes per page (files loaded before the page went idle; search index loads on first focus)');
  for (const line of bytes) console.log(line);
}

async function pageBytes(path: string, record: PageRecord): Promise<string> {
  const files: string[] = [];
  for (const url of record.requests) {
    const file = url.startsWith('http://127.0.0.1') ? await resolveFile(DIST, new URL(url).pathname) : undefined;
    if (file) files.push(file);
  }
  const t = countBytes(files);
  const parts = (['html', 'css', 'js', 'font'] as const).map(
    (k) => `${k} ${kb(t[k].raw)} (${kb(t[k].gzip)} gz, ${t[k].files} file${t[k].files === 1 ? '' : 's'})`,
  );
  const sum = t.html.raw + t.css.raw + t.js.raw;
  const sumGz = t.html.gzip + t.css.gzip + t.js.gzip;
  return `  ${path.padEnd(34)} ${parts.join(' · ')} · HTML+CSS+JS ${kb(sum)} (${kb(sumGz)} gz)`;
}

/** Presses the theme toggle on a light page and audits it again in dark. */
async function auditToggle(record: PageRecord, label: string): Promise<void> {
  const toggle = record.page.locator('[data-theme-toggle]').first();
  if ((await toggle.count()) === 0) {
    await recordFailure(`${label}: the page has no theme toggle`, record.page);
    return;
  }
  await toggle.click();
  // The switch must be instant: a colour transition still running would show (and let axe
  // measure) text in a mix of the two themes.
  await check(`${label}: no transition runs after the switch`, async () => {
    const running = await record.page.evaluate(() =>
      document.getAnimations().map((a) => {
        const target = (a.effect as KeyframeEffect | null)?.target;
        return `${target?.tagName.toLowerCase() ?? '?'}.${target?.className ?? ''} ${(a as CSSTransition).transitionProperty ?? a.id}`;
      }),
    );
    assert(running.length === 0, `${running.length} running: ${running.slice(0, 5).join(', ')}`);
  }, record.page);
  await auditPage(record, label, 'dark');
}

async function keyboardChecks(browser: Browser, baseUrl: string): Promise<void> {
  console.log('\nKeyboard');
  const record = await openGuardedPage(browser);
  const { page } = record;
  try {
    await page.goto(`${baseUrl}/chapters/01-journey/`);
    await check('Tab reaches the skip link first', async () => {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => ({
        text: document.activeElement?.textContent?.trim(),
        top: document.activeElement?.getBoundingClientRect().top ?? -1,
      }));
      assert(focused.text === 'Skip to content', `first Tab focused "${focused.text}"`);
      assert(focused.top >= 0, 'the focused skip link is off screen');
    }, page);
    await check('the skip link moves focus to main', async () => {
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.id === 'content', undefined, { timeout: 2000 });
    }, page);
    await check('focus is visible on a link', async () => {
      await page.keyboard.press('Tab');
      const outline = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el ? getComputedStyle(el).outlineStyle : 'none';
      });
      assert(outline !== 'none', 'the focused element has no outline');
    }, page);
  } finally {
    await record.context.close();
  }
}

async function themeChecks(browser: Browser, baseUrl: string): Promise<void> {
  console.log('\nTheme toggle');
  const record = await openGuardedPage(browser, { colorScheme: 'light' });
  const { page } = record;
  try {
    await page.goto(`${baseUrl}/`);
    const toggle = page.locator('[data-theme-toggle]');
    await check('the toggle starts unpressed in a light system theme', async () => {
      assert((await toggle.getAttribute('aria-pressed')) === 'false', 'aria-pressed is not false');
      assert((await toggle.getAttribute('aria-label')) === 'Dark theme', 'the toggle has no label');
    }, page);
    await check('the toggle persists across a reload', async () => {
      await toggle.click();
      assert((await toggle.getAttribute('aria-pressed')) === 'true', 'aria-pressed did not become true');
      await page.reload();
      assert((await page.evaluate(() => document.documentElement.dataset.theme)) === 'dark', 'data-theme lost on reload');
      assert((await page.locator('[data-theme-toggle]').getAttribute('aria-pressed')) === 'true', 'aria-pressed lost on reload');
      assert((await shownTheme(page)) === THEME_BACKGROUND.dark, 'the dark theme is not shown after reload');
    }, page);
    await check('the saved theme is applied before first paint', async () => {
      // The inline <head> script must set data-theme before any stylesheet or body is parsed.
      const html = await (await fetch(`${baseUrl}/`)).text();
      const script = html.indexOf("localStorage.getItem('theme')");
      assert(script > 0 && script < html.indexOf('<body'), 'the theme bootstrap is not in <head>');
    });
    assert(record.errors.length === 0 && record.blocked.length === 0, 'errors on theme page');
  } catch (error) {
    await recordFailure(`theme checks: ${String(error)}`, page);
  } finally {
    await record.context.close();
  }
}

async function searchChecks(browser: Browser, baseUrl: string): Promise<void> {
  console.log('\nSearch');
  for (const viewport of [DESKTOP_VIEWPORT, PHONE_VIEWPORT]) {
    const record = await openGuardedPage(browser, { viewport });
    const { page } = record;
    const where = viewport === PHONE_VIEWPORT ? 'phone' : 'desktop';
    try {
      await page.goto(`${baseUrl}/`);
      await check(`${where}: "/" focuses the search box`, async () => {
        await page.keyboard.press('/');
        assert((await page.evaluate(() => document.activeElement?.id)) === 'search-input', 'focus is not in the search box');
      }, page);
      await check(`${where}: search finds "etcd" and Enter opens the first result`, async () => {
        await page.keyboard.type('etcd');
        const first = page.locator('#search-results [role="option"]').first();
        await first.waitFor({ state: 'visible', timeout: 5000 });
        const title = (await first.locator('.search-hit-title').textContent())?.trim();
        assert(title === 'etcd', `the first result is "${title}", expected the glossary term "etcd"`);
        assert((await page.locator('#search-input').getAttribute('aria-expanded')) === 'true', 'aria-expanded is not true');
        if (where === 'desktop') {
          await page.screenshot({ path: join(SCREENSHOTS, 'search-desktop-light.png') });
          const violations = await runAxe(page);
          assert(violations.length === 0, `axe with results open:\n${formatViolations(violations)}`);
        }
        await Promise.all([page.waitForURL('**/glossary/#etcd'), page.keyboard.press('Enter')]);
      }, page);
      await check(`${where}: arrow keys choose a chapter section`, async () => {
        await page.locator('#search-input').fill('');
        await page.locator('#search-input').focus();
        await page.keyboard.type('quorum raft');
        await page.locator('#search-results [role="option"]').first().waitFor({ state: 'visible' });
        await page.keyboard.press('ArrowDown');
        const active = await page.locator('#search-input').getAttribute('aria-activedescendant');
        assert(active === 'search-option-0', `aria-activedescendant is ${active}`);
        const url = await page.locator('#search-option-0').getAttribute('data-url');
        assert(url?.startsWith('/chapters/01-journey/#'), `the best result for "quorum raft" is ${url}`);
        await Promise.all([page.waitForURL(`**${url}`), page.keyboard.press('Enter')]);
      }, page);
      await check(`${where}: no search errors or outside requests`, async () => {
        assert(record.blocked.length === 0, `blocked: ${record.blocked.join(', ')}`);
        assert(record.errors.length === 0, record.errors.join('\n'));
      }, page);
    } finally {
      await record.context.close();
    }
  }
}

async function notFoundCheck(browser: Browser, baseUrl: string): Promise<void> {
  console.log('\nMissing pages');
  const record = await openGuardedPage(browser, { allowConsoleErrors: ['status of 404'] });
  try {
    await check('a missing page answers 404 with the 404 page', async () => {
      const response = await record.page.goto(`${baseUrl}/no/such/page/`);
      assert(response?.status() === 404, `status ${response?.status()}`);
      assert((await record.page.locator('h1').textContent())?.includes('not in the book'), 'not the 404 page');
    }, record.page);
  } finally {
    await record.context.close();
  }
}

/** Design screenshots, written on every run, for a human (or a helper) to look at. */
async function screenshots(browser: Browser, baseUrl: string): Promise<void> {
  console.log('\nScreenshots');
  const shots: { name: string; path: string; options: NewPageOptions; scrollTo?: string; fullPage?: boolean }[] = [];
  for (const theme of ['light', 'dark'] as const) {
    for (const [device, viewport] of [
      ['desktop', DESKTOP_VIEWPORT],
      ['phone', PHONE_VIEWPORT],
    ] as const) {
      shots.push({ name: `home-${device}-${theme}`, path: '/', options: { colorScheme: theme, viewport } });
      shots.push({ name: `chapter1-${device}-${theme}`, path: '/chapters/01-journey/', options: { colorScheme: theme, viewport } });
      shots.push({
        name: `chapter1-diagram-${device}-${theme}`,
        path: '/chapters/01-journey/',
        options: { colorScheme: theme, viewport },
        scrollTo: '.journey-diagram',
      });
    }
    shots.push({
      name: `chapter1-callout-desktop-${theme}`,
      path: '/chapters/01-journey/',
      options: { colorScheme: theme },
      scrollTo: '.callout',
    });
    shots.push({
      name: `playground-desktop-${theme}`,
      path: '/playground/',
      options: { colorScheme: theme },
      scrollTo: '[data-live-cluster]',
      fullPage: true,
    });
    shots.push({ name: `home-full-desktop-${theme}`, path: '/', options: { colorScheme: theme }, fullPage: true });
    shots.push({ name: `glossary-desktop-${theme}`, path: '/glossary/', options: { colorScheme: theme } });
  }
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const shot of shots) {
    const record = await openGuardedPage(browser, shot.options);
    try {
      await record.page.goto(baseUrl + shot.path);
      await settle(record.page);
      if (shot.scrollTo) {
        await record.page.locator(shot.scrollTo).first().evaluate((el) => el.scrollIntoView({ block: 'center' }));
      }
      await record.page.screenshot({ path: join(SCREENSHOTS, `${shot.name}.png`), fullPage: shot.fullPage ?? false });
    } finally {
      await record.context.close();
    }
  }
  console.log(`  wrote ${shots.length} screenshots to ${relative(ROOT, SCREENSHOTS)}/`);
}

async function runSuites(browser: Browser, baseUrl: string): Promise<void> {
  const dir = join(ROOT, 'scripts', 'browser');
  const wanted = SUITES_ARG === undefined ? undefined : SUITES_ARG.split(',').filter(Boolean);
  const files = (existsSync(dir) ? await readdir(dir) : [])
    .filter((f) => f.endsWith('.suite.ts'))
    .filter((f) => !wanted || wanted.includes(f.slice(0, -'.suite.ts'.length)))
    .sort();
  for (const file of files) {
    console.log(`\nSuite ${file}`);
    const records: PageRecord[] = [];
    const ctx: BrowserSuiteContext = {
      browser,
      baseUrl,
      newPage: async (options) => {
        const record = await openGuardedPage(browser, options);
        records.push(record);
        return record.page;
      },
      fail: (message, page) => recordFailure(`${file}: ${message}`, page),
      check: (name, fn, page) => check(`${file}: ${name}`, fn, page),
      log: (message) => console.log(`  ${message}`),
    };
    try {
      const module = (await import(pathToFileURL(join(dir, file)).href)) as { default?: BrowserSuite };
      if (typeof module.default !== 'function') throw new Error('the module has no default export function');
      await module.default(ctx);
    } catch (error) {
      await recordFailure(`${file}: threw ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    for (const record of records) {
      const url = record.page.isClosed() ? '(closed page)' : record.page.url();
      if (record.blocked.length > 0) await recordFailure(`${file}: ${url}: blocked outside requests: ${record.blocked.join(', ')}`);
      if (record.errors.length > 0) await recordFailure(`${file}: ${url}: ${record.errors.join('\n')}`);
      await record.context.close().catch(() => {});
    }
  }
}

/** The browser, relaunched if it crashed (a crash is reported as a failure, not a hang). */
interface BrowserHolder {
  get(): Promise<Browser>;
}

function holdBrowser(executable: string, first: Browser): BrowserHolder & { current(): Browser } {
  let browser = first;
  return {
    current: () => browser,
    async get() {
      if (!browser.isConnected()) {
        await recordFailure('Chromium disconnected (crashed?) during the previous page; relaunching');
        browser = await launchChromium(executable);
      }
      return browser;
    },
  };
}

async function main(): Promise<void> {
  const started = Date.now();
  if (!existsSync(join(DIST, 'index.html'))) {
    console.error('browser-test: dist/index.html is missing. Run `npm run build` first.');
    process.exit(1);
  }
  const executable = findChromium();
  if (!executable) {
    const message =
      'browser-test: NO CHROMIUM FOUND. Set CHROMIUM_PATH, or install Debian\'s chromium package (/usr/bin/chromium).';
    if (process.env.CI) {
      console.error(`\n${'!'.repeat(80)}\n${message}\nThe browser suite cannot run, and CI requires it.\n${'!'.repeat(80)}\n`);
      process.exit(1);
    }
    console.warn(`\nWARNING: ${message}\nSkipping the browser suite (it would fail under CI=true).\n`);
    process.exit(0);
  }
  await mkdir(FAILURES, { recursive: true });
  await mkdir(SCREENSHOTS, { recursive: true });
  const server = await startStaticServer(DIST);
  const browsers = holdBrowser(executable, await launchChromium(executable));
  console.log(`browser-test: ${executable} against ${server.baseUrl} (${relative(ROOT, DIST) || '.'}/)`);
  try {
    const pages = await listPages();
    console.log(`${pages.length} pages: ${pages.join(' ')}`);
    await auditAllPages(browsers, server.baseUrl, pages);
    await keyboardChecks(await browsers.get(), server.baseUrl);
    await themeChecks(await browsers.get(), server.baseUrl);
    await searchChecks(await browsers.get(), server.baseUrl);
    await notFoundCheck(await browsers.get(), server.baseUrl);
    await screenshots(await browsers.get(), server.baseUrl);
    await runSuites(await browsers.get(), server.baseUrl);
  } finally {
    await browsers.current().close();
    await server.close();
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (failures.length > 0) {
    console.log('\nFailures:');
    for (const f of failures) console.log(`  - ${f.split('\n')[0]}`);
  }
  console.log(`\n${passed} passed, ${failed} failed (${seconds}s)`);
  process.exit(failed > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
