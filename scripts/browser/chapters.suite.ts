// Browser suite for the book's chapters: on every chapter page, each live cluster starts when
// scrolled into view and answers a kubectl command in its terminal; the page stays axe-clean with
// the widgets running; the self-check can be answered (a wrong answer is marked, the explanation
// opens, the answer is counted in the reader's progress). Console errors and outside requests
// fail the run through the suite context.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BrowserSuite } from './lib/context';
import { formatViolations, runAxe } from './lib/axe';

const ROOT = resolve(import.meta.dirname, '../..');

const suite: BrowserSuite = async (ctx) => {
  const chapters = readdirSync(join(ROOT, 'content')).filter((f) => f.endsWith('.mdx')).map((f) => f.replace(/\.mdx$/, '')).sort();
  for (const id of chapters) {
    const page = await ctx.newPage();
    await page.goto(`${ctx.baseUrl}/chapters/${id}/`);

    await ctx.check(`${id}: every live cluster starts and its terminal answers kubectl get nodes`, async () => {
      const figures = page.locator('[data-live-cluster]');
      const count = await figures.count();
      if (count === 0) throw new Error('no live cluster in this chapter');
      for (let i = 0; i < count; i++) {
        const figure = figures.nth(i);
        await figure.scrollIntoViewIfNeeded();
        await page.waitForFunction((n) => document.querySelectorAll('[data-live-cluster]')[n]?.getAttribute('data-live-state') === 'ready', i, { timeout: 60_000 });
        const input = figure.locator('.live-terminal-input');
        if ((await input.count()) === 0) continue;
        await input.fill('kubectl get nodes');
        await input.press('Enter');
        await figure.locator('.live-terminal-entry', { hasText: /STATUS\s+ROLES/ }).first().waitFor({ timeout: 30_000 });
      }
    }, page);

    await ctx.check(`${id}: axe clean with the live widgets running`, async () => {
      const violations = await runAxe(page);
      if (violations.length > 0) throw new Error(`axe found ${violations.length} violation(s):\n${formatViolations(violations)}`);
    }, page);

    await ctx.check(`${id}: the self-check marks an answer, explains it and counts it in progress`, async () => {
      const item = page.locator('[data-self-check] .self-check-item').first();
      await item.scrollIntoViewIfNeeded();
      const answer = Number(await item.getAttribute('data-answer'));
      const choices = item.locator('input[type=radio]');
      const wrong = answer === 0 ? 1 : 0;
      await choices.nth(wrong).check();
      await item.getByRole('button', { name: 'Check answer' }).click();
      const verdict = (await item.locator('[data-verdict]').textContent()) ?? '';
      if (!verdict.startsWith('Not quite')) throw new Error(`a wrong answer gave "${verdict}"`);
      if (!(await item.locator('details[data-explanation]').evaluate((d) => (d as HTMLDetailsElement).open))) throw new Error('the explanation did not open');
      await choices.nth(answer).check();
      await item.getByRole('button', { name: 'Check answer' }).click();
      if (((await item.locator('[data-verdict]').textContent()) ?? '') !== 'Right.') throw new Error('the right answer was not recognised');
      await page.waitForFunction((chapter) => {
        const saved = JSON.parse(localStorage.getItem('icp.progress.v2') ?? '{}') as { chapters?: Record<string, { checks?: Record<string, { correct: boolean }> }> };
        return saved.chapters?.[chapter]?.checks?.['q1']?.correct === false;
      }, id, { timeout: 5_000 });
      const score = (await page.locator('[data-self-check-score]').textContent()) ?? '';
      if (!score.includes('answered 1 of')) throw new Error(`the score reads "${score}"`);
    }, page);
  }
};

export default suite;
