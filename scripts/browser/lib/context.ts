// The contract between the browser-suite runner (scripts/browser-test.ts) and every suite module
// scripts/browser/*.suite.ts. A suite default-exports `async (ctx: BrowserSuiteContext) => void`.
import type { Browser, Page } from 'playwright-core';

export interface NewPageOptions {
  /** Emulated prefers-color-scheme; default 'light'. */
  colorScheme?: 'light' | 'dark';
  /** Viewport size; default DESKTOP_VIEWPORT. */
  viewport?: { width: number; height: number };
  /** Console error texts (substrings) this page may log without failing the suite. */
  allowConsoleErrors?: string[];
}

export const DESKTOP_VIEWPORT = { width: 1366, height: 900 } as const;
export const PHONE_VIEWPORT = { width: 390, height: 844 } as const;

export interface BrowserSuiteContext {
  browser: Browser;
  /** Where dist/ is served, e.g. "http://127.0.0.1:41234" (no trailing slash). */
  baseUrl: string;
  /**
   * A fresh page in its own browser context. Every request that does not go to 127.0.0.1 is
   * blocked and counted, and console errors and uncaught page errors are recorded: after the
   * suite returns, the runner fails it for any of those. The runner closes these pages.
   */
  newPage(options?: NewPageOptions): Promise<Page>;
  /** Records a failed check (does not throw); the run exits non-zero. Pass a page for a screenshot. */
  fail(message: string, page?: Page): Promise<void>;
  /**
   * Runs one named check: it passes if `fn` resolves, fails (with a screenshot of `page` if
   * given) if it throws. Counts towards "N passed, M failed".
   */
  check(name: string, fn: () => Promise<void>, page?: Page): Promise<void>;
  /** Prints a line under the suite's name (measurements, progress). */
  log(message: string): void;
}

export type BrowserSuite = (ctx: BrowserSuiteContext) => Promise<void>;
