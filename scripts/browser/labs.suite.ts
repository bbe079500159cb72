// Browser suite for the lab workbench (/labs/<slug>/). For every lab it pastes the starter, the
// solution and a mutant, grades each in the page, and checks the verdicts against the CLI grader
// (scripts/grade.ts --file X --json) test for test; on the first lab also code that loops forever,
// code that tries to forge a pass, the solution with comments SES's source checks used to refuse,
// and exports that throw odd values, then the whole tamper set (scripts/lib/labs/tamper.ts) must
// fail in the page. Then:
// reload keeps code and verdict; code typed key by key stays in the editor; progress export, reset
// and import round-trip. Prints (does not assert) editor-ready, first-grade and warm-grade timings.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import ts from 'typescript';
import type { BrowserSuite, BrowserSuiteContext } from './lib/context';
import { PHONE_VIEWPORT } from './lib/context';
import { formatViolations, runAxe } from './lib/axe';
import type { LabResults } from '../lib/labs/results.ts';
import { oddThrowsSource, TAMPER_TECHNIQUES, tamperedSource } from '../lib/labs/tamper.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const WORK = join(ROOT, 'test-results', 'labs-suite');
const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');

type Suite = 'hidden' | 'examples';
interface Variant {
  name: string;
  source: string;
  suite: Suite;
  expectPassed: boolean;
}

/** Offset just inside the body of the first exported function (parsed: a return type may hold braces). */
function firstExportedFunction(source: string): number {
  const file = ts.createSourceFile('submission.ts', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  for (const statement of file.statements) {
    const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (exported && ts.isFunctionDeclaration(statement) && statement.body) return statement.body.getStart(file) + 1;
  }
  throw new Error('no exported function to put a loop in');
}

/**
 * The submissions each lab is graded with, in the page and on the CLI. Every lab: its starter,
 * solution and a mutant (verdicts that depend on the lab). With `sandboxCases` (the first lab) also
 * the ones that test the sandbox and the watchdogs, which are the same code for every lab: a loop,
 * a forged pass, SES look-alikes, odd throws. In Node, labs/tamper.test.ts grades forgeries and odd
 * throws for every lab on both hosts, and labs/labs.proof.test.ts the CLI's hang watchdog; running
 * them in Chromium for all thirteen labs cost CI about ten minutes and found nothing the first
 * lab's run does not.
 */
function variants(slug: string, sandboxCases: boolean): Variant[] {
  const dir = join(ROOT, 'labs', slug);
  const starter = readFileSync(join(dir, 'starter.ts'), 'utf8');
  const solution = readFileSync(join(dir, 'solution.ts'), 'utf8');
  const mutantFile = readdirSync(join(dir, 'mutants')).filter((file) => file.endsWith('.ts')).sort()[0]!;
  const bodyAt = firstExportedFunction(solution);
  const forge = [
    starter,
    '// Attempts to forge a pass: replace Object.is, switch chai off, post fake results.',
    'try { (Object as { is: unknown }).is = () => true; } catch { /* frozen */ }',
    "try { const g = globalThis as Record<PropertyKey, unknown>; const chai = g[Symbol.for('chai')] as { config?: { includeStack?: unknown } } | undefined; if (chai) chai.config = {}; } catch { /* absent */ }",
    "try { (globalThis as unknown as { postMessage: (m: unknown) => void }).postMessage({ type: 'test-end', result: { name: 'x', status: 'pass', durationMs: 0 } }); } catch { /* no channel */ }",
  ].join('\n');
  const perLab: Variant[] = [
    { name: 'starter', source: starter, suite: 'hidden', expectPassed: false },
    { name: 'solution', source: solution, suite: 'hidden', expectPassed: true },
    { name: `mutant ${mutantFile}`, source: readFileSync(join(dir, 'mutants', mutantFile), 'utf8'), suite: 'hidden', expectPassed: false },
  ];
  if (!sandboxCases) return perLab;
  return [
    ...perLab,
    // examples only: with the loop in the first function every test hangs, and each costs a full time limit
    { name: 'infinite loop', source: `${solution.slice(0, bodyAt)}\n  while (true) {}\n${solution.slice(bodyAt)}`, suite: 'examples', expectPassed: false },
    { name: 'forged pass', source: forge, suite: 'hidden', expectPassed: false },
    // SES's source checks used to refuse this in the page only (a comment mentioning an import
    // expression, the `-->` of `while (n --> 0)`): it must pass on both hosts.
    { name: 'solution with SES look-alikes', source: `${solution.trimEnd()}\n${SES_LOOKALIKES}`, suite: 'hidden', expectPassed: true },
    // Every export throws something vitest could not report before (null prototype, symbol, throwing getters...).
    { name: 'throws odd values', source: oddThrowsSource(starter), suite: 'examples', expectPassed: false },
  ];
}

const SES_LOOKALIKES = `
// Never import (anything) at run time here --> it would not load; eval(x) neither. <!-- not HTML
export function __countDown(n: number): number {
  let steps = 0;
  while (n --> 0) steps += 1; // the "goes to" idiom
  return steps + "import (x) -->".length * 0;
}
`;

/** Runs the CLI grader on a file, through the same Node (the npm-provided Node 24). */
function gradeWithCli(slug: string, file: string, suite: Suite): Promise<LabResults> {
  const args = ['--import', 'tsx', join(ROOT, 'scripts/grade.ts'), slug, '--file', file, '--json', ...(suite === 'examples' ? ['--examples'] : [])];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', () => {
      try {
        const start = stdout.indexOf('{');
        resolvePromise(JSON.parse(stdout.slice(start)) as LabResults);
      } catch {
        reject(new Error(`CLI grade of ${file} printed no JSON: ${stderr.slice(0, 500)}`));
      }
    });
  });
}

/** Replaces the editor's content exactly (paste, not typing: typing would auto-indent). */
async function setCode(page: Page, text: string): Promise<void> {
  await page.evaluate((code) => {
    const editor = (window as unknown as { __labEditor: { getModel(): { getFullModelRange(): unknown; getValue(): string }; setSelection(r: unknown): void; focus(): void; trigger(s: string, h: string, p: unknown): void } }).__labEditor;
    editor.focus();
    editor.setSelection(editor.getModel().getFullModelRange());
    editor.trigger('keyboard', 'paste', { text: code });
  }, text);
  const value = await page.evaluate(() => (window as unknown as { __labEditor: { getValue(): string } }).__labEditor.getValue());
  if (value !== text) throw new Error('the editor does not hold exactly the pasted code');
}

/** Clicks a toolbar button and waits for its results; returns them and the click-to-results time. */
async function runInPage(page: Page, suite: Suite): Promise<{ results: LabResults; ms: number }> {
  await page.evaluate(() => delete document.body.dataset.gradeState);
  const started = Date.now();
  await page.click(`[data-lab-action="${suite === 'hidden' ? 'grade' : 'examples'}"]`);
  await page.waitForFunction(() => document.body.dataset.gradeState === 'done', undefined, { timeout: 240_000 });
  const ms = Date.now() - started;
  const results = await page.evaluate(() => (window as unknown as { __labLastResults: LabResults }).__labLastResults);
  return { results, ms };
}

function compareVerdicts(browser: LabResults, cli: LabResults): string[] {
  const problems: string[] = [];
  if (browser.passed !== cli.passed) problems.push(`passed: browser ${browser.passed}, CLI ${cli.passed}`);
  const cliByName = new Map(cli.tests.map((test) => [test.name, test.status]));
  for (const test of browser.tests) {
    const status = cliByName.get(test.name);
    if (status !== test.status) problems.push(`"${test.name}": browser ${test.status}, CLI ${status ?? 'missing'}`);
  }
  if (browser.tests.length !== cli.tests.length) problems.push(`test count: browser ${browser.tests.length}, CLI ${cli.tests.length}`);
  return problems;
}

async function openLab(ctx: BrowserSuiteContext, slug: string, colorScheme: 'light' | 'dark' = 'light'): Promise<{ page: Page; readyMs: number }> {
  const page = await ctx.newPage({ colorScheme });
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${ctx.baseUrl}/labs/${slug}/`);
  await page.waitForFunction(() => document.body.dataset.editorReady === 'true', undefined, { timeout: 60_000 });
  const readyMs = await page.evaluate(() => Math.round(performance.getEntriesByName('lab-editor-ready')[0]?.startTime ?? -1));
  return { page, readyMs };
}

/** Where the editor's load time went: Monaco's chunk downloads and the editor's marks, in ms since navigation. */
async function editorTimeline(page: Page): Promise<string> {
  // No named helpers inside evaluate: tsx would wrap them in a __name() the page does not have.
  const { chunks, marks } = await page.evaluate(() => ({
    chunks: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => /\/_astro\/(editor\.api|monaco-editor)[^/]*\.js$/.test(entry.name))
      .map((entry) => [entry.startTime, entry.responseEnd] as const),
    marks: performance.getEntriesByType('mark').filter((mark) => mark.name.startsWith('lab-')).map((mark) => [mark.name, mark.startTime] as const),
  }));
  const fetched = chunks.length > 0 ? `monaco fetch ${Math.round(Math.min(...chunks.map(([start]) => start)))}-${Math.round(Math.max(...chunks.map(([, end]) => end)))}` : 'monaco fetch ?';
  return [fetched, ...marks.map(([name, at]) => `${name.replace(/^lab-(editor:)?/, '')} ${Math.round(at)}`)].join(', ');
}

/** The phases of the page's most recent grade (client and worker), as "name duration" pairs in ms. */
async function gradeTimeline(page: Page): Promise<string> {
  const measures = await page.evaluate(() =>
    (performance.getEntriesByType('measure') as PerformanceMeasure[])
      .filter((entry) => entry.name.startsWith('lab-grade:'))
      .map((entry) => ({ name: entry.name.slice('lab-grade:'.length), startTime: entry.startTime, duration: entry.duration, grade: (entry.detail as { grade?: number } | null)?.grade ?? 0 })),
  );
  const last = Math.max(0, ...measures.map((entry) => entry.grade));
  const mine = measures.filter((entry) => entry.grade === last);
  const origin = mine.find((entry) => entry.name === 'page:grade')?.startTime ?? 0;
  return mine
    .map((entry) => `${entry.name} ${Math.round(entry.duration)}${entry.startTime < origin ? ` (ended ${Math.round(entry.startTime + entry.duration - origin)} vs click)` : ''}`)
    .join(', ');
}

/** While the worker spins, the page must still answer: a frame round trip well under a second. */
async function frameLatencyMs(page: Page): Promise<number> {
  return page.evaluate(() => new Promise<number>((done) => {
    const t0 = performance.now();
    requestAnimationFrame(() => done(Math.round(performance.now() - t0)));
  }));
}

async function labChecks(ctx: BrowserSuiteContext, slug: string, withTamperSet: boolean): Promise<void> {
  mkdirSync(WORK, { recursive: true });
  const list = variants(slug, withTamperSet);
  // The CLI runs first, one at a time: in parallel they starve each other (and the timings below).
  const cliRuns = new Map<string, LabResults | Error>();
  for (const variant of list) {
    const file = join(WORK, `${slug}-${variant.name.replace(/\W+/g, '-')}.ts`);
    writeFileSync(file, variant.source);
    cliRuns.set(variant.name, await gradeWithCli(slug, file, variant.suite).catch((error: Error) => error));
  }

  const { page, readyMs } = await openLab(ctx, slug);
  ctx.log(`${slug}: editor ready ${readyMs} ms after navigation start (${await editorTimeline(page)})`);
  let first = true;
  const lastResults = new Map<string, LabResults>();
  for (const variant of list) {
    await ctx.check(`${slug}: ${variant.name} is ${variant.expectPassed ? 'passed' : 'not passed'}, as the CLI grades it`, async () => {
      await setCode(page, variant.source);
      const running = runInPage(page, variant.suite);
      if (variant.name === 'infinite loop') {
        await page.waitForTimeout(800);
        const latency = await frameLatencyMs(page);
        if (latency > 1000) throw new Error(`the page froze while the loop ran (${latency} ms for a frame)`);
      }
      const { results, ms } = await running;
      if (first) ctx.log(`${slug}: first grade after load ${ms} ms (${results.tests.length} tests): ${await gradeTimeline(page)}`);
      first = false;
      if (results.passed !== variant.expectPassed) throw new Error(`passed=${results.passed}: ${results.error ?? ''} ${results.tests.filter((t) => t.status !== 'pass').map((t) => `${t.name}: ${t.message}`).slice(0, 3).join(' | ')}`);
      if (variant.name === 'starter') {
        const failing = results.tests.find((test) => test.status === 'fail');
        if (!failing?.message || /\u001b\[/.test(failing.message)) throw new Error('the starter fails without a readable message');
        await page.screenshot({ path: join(SCREENSHOTS, `labs-${slug}-starter-failing.png`) });
      }
      if (variant.name === 'infinite loop' && !results.tests.some((test) => test.status === 'timeout')) throw new Error('no test was reported as timed out');
      if (variant.name === 'throws odd values') {
        const unreadable = results.tests.filter((test) => test.status !== 'fail' || !test.message || test.message.length > 5000);
        if (unreadable.length > 0) throw new Error(`not reported as a failure with a readable message: ${unreadable.map((test) => `${test.name} (${test.status})`).slice(0, 3).join('; ')}`);
        if (results.summary.passed + results.summary.failed !== results.expectedTotal) throw new Error(`counts do not add up: ${JSON.stringify(results.summary)}`);
      }
      lastResults.set(variant.name, results);
    }, page);
    await ctx.check(`${slug}: ${variant.name}: browser and CLI verdicts agree test for test`, async () => {
      const cli = cliRuns.get(variant.name)!;
      if (cli instanceof Error) throw cli;
      const results = lastResults.get(variant.name);
      if (!results) throw new Error('the browser run did not finish');
      const problems = compareVerdicts(results, cli);
      if (problems.length > 0) throw new Error(`browser and CLI disagree: ${problems.slice(0, 5).join('; ')}`);
    });
  }

  // The tamper set (scripts/lib/labs/tamper.ts; both CLI and page pipeline are checked against it for
  // every lab in labs/tamper.test.ts): in Chromium too, no forgery passes or passes a test the
  // starter fails. The forgeries attack the sandbox, not a lab, so one lab in Chromium is enough
  // (all of them would add minutes to CI).
  if (withTamperSet) await ctx.check(`${slug}: none of the ${TAMPER_TECHNIQUES.length} tamper-set forgeries passes in the page`, async () => {
    const starterResults = lastResults.get('starter');
    if (!starterResults) throw new Error('the starter was not graded in the page');
    const starterPasses = new Set(starterResults.tests.filter((test) => test.status === 'pass').map((test) => test.name));
    const starter = readFileSync(join(ROOT, 'labs', slug, 'starter.ts'), 'utf8');
    const problems: string[] = [];
    for (const technique of TAMPER_TECHNIQUES) {
      await setCode(page, tamperedSource(starter, technique));
      const { results } = await runInPage(page, 'hidden');
      const forged = results.tests.filter((test) => test.status === 'pass' && !starterPasses.has(test.name)).map((test) => test.name);
      if (results.passed) problems.push(`${technique.id} passed`);
      else if (forged.length > 0) problems.push(`${technique.id} passed ${forged.length} test(s) the starter fails, e.g. "${forged[0]}"`);
      const loadError = /^Your code could not be loaded/.test(results.error ?? '');
      if (loadError !== Boolean(technique.loadError)) problems.push(`${technique.id}: ${results.error ?? 'no run-level error'}`);
    }
    if (problems.length > 0) throw new Error(problems.join('; '));
  }, page);

  await ctx.check(`${slug}: a warm grade round trip, and the solution passes`, async () => {
    await setCode(page, list[1]!.source);
    const { results, ms } = await runInPage(page, 'hidden');
    ctx.log(`${slug}: warm grade round trip ${ms} ms (${results.tests.length} tests): ${await gradeTimeline(page)}`);
    if (!results.passed) throw new Error('the solution did not pass on a warm run');
    await page.screenshot({ path: join(SCREENSHOTS, `labs-${slug}-passed.png`) });
  }, page);

  await ctx.check(`${slug}: after a reload the code and the verdict are still there`, async () => {
    await page.waitForTimeout(700); // the auto-save delay
    await page.reload();
    await page.waitForFunction(() => document.body.dataset.editorReady === 'true', undefined, { timeout: 60_000 });
    const value = await page.evaluate(() => (window as unknown as { __labEditor: { getValue(): string } }).__labEditor.getValue());
    if (value !== list[1]!.source) throw new Error('the code was not restored');
    const verdict = await page.evaluate(() => document.body.dataset.labVerdict);
    const summary = await page.textContent('#lab-summary');
    if (verdict !== 'pass' || !summary?.includes('passed')) throw new Error(`verdict after reload: ${verdict} "${summary}"`);
  }, page);
}

async function progressChecks(ctx: BrowserSuiteContext, slug: string): Promise<void> {
  const { page } = await openLab(ctx, slug);
  const code = `// my work in progress\n${readFileSync(join(ROOT, 'labs', slug, 'starter.ts'), 'utf8')}`;
  await ctx.check('progress: export, reset and import restore lab code', async () => {
    await setCode(page, code);
    await page.waitForTimeout(700);
    await page.goto(`${ctx.baseUrl}/progress/`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#progress-export')]);
    const exported = join(WORK, 'progress-export.json');
    await download.saveAs(exported);
    if (JSON.parse(readFileSync(exported, 'utf8')).labs?.[slug]?.code !== code) throw new Error('the export does not hold the lab code');
    await page.click('#progress-reset');
    await page.waitForFunction(() => document.getElementById('progress-message')?.textContent?.includes('reset'));
    await page.setInputFiles('#progress-file', exported);
    await page.click('#progress-import-form button[type="submit"]');
    await page.waitForFunction(() => document.getElementById('progress-message')?.textContent?.startsWith('Imported'));
    await page.setInputFiles('#progress-file', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"version":2,"labs":[]}') });
    await page.click('#progress-import-form button[type="submit"]');
    await page.waitForFunction(() => document.getElementById('progress-message')?.textContent?.startsWith('Nothing was imported'));
    await page.goto(`${ctx.baseUrl}/labs/${slug}/`);
    await page.waitForFunction(() => document.body.dataset.editorReady === 'true', undefined, { timeout: 60_000 });
    const value = await page.evaluate(() => (window as unknown as { __labEditor: { getValue(): string } }).__labEditor.getValue());
    if (value !== code) throw new Error('the imported code is not in the editor');
  }, page);
}

/**
 * Keys typed in the editor stay in the editor: "/" (a comment, a division) must not jump to the
 * search box, brackets and quotes must come out as typed. Typed key by key, as a learner does.
 */
async function typingChecks(ctx: BrowserSuiteContext, slug: string): Promise<void> {
  const { page } = await openLab(ctx, slug);
  await ctx.check(`${slug}: typing in the editor key by key keeps every key there ("/", comments, brackets)`, async () => {
    await setCode(page, '');
    const typed = ['// a/b: keep (these) [brackets] {and} slashes // here', 'const ratio = (6 / 3) * [1, 2][0] / 1; // half/whole', 'let n = 3;', 'while (n --> 0) ratio / n;'];
    await page.keyboard.type(typed[0]!);
    for (const line of typed.slice(1)) {
      await page.keyboard.press('Enter');
      await page.keyboard.type(line);
    }
    const state = await page.evaluate(() => ({
      value: (window as unknown as { __labEditor: { getValue(): string } }).__labEditor.getValue(),
      inEditor: document.activeElement?.closest('.monaco-editor') !== null,
      activeTag: document.activeElement?.tagName ?? '',
      activeId: document.activeElement?.id ?? '',
    }));
    if (!state.inEditor) throw new Error(`focus left the editor while typing (now on <${state.activeTag.toLowerCase()} id="${state.activeId}">)`);
    const expected = typed.join('\n');
    if (state.value !== expected) throw new Error(`the editor holds ${JSON.stringify(state.value)}, typed ${JSON.stringify(expected)}`);
  }, page);
}

async function darkScreenshot(ctx: BrowserSuiteContext, slug: string): Promise<void> {
  const { page } = await openLab(ctx, slug, 'dark');
  await page.screenshot({ path: join(SCREENSHOTS, `labs-${slug}-dark.png`) });
}

// ---- Run in cluster (helper U): the learner's piece in a live cluster beside the reference ----

interface ClusterOutcome {
  kind: 'compared' | 'load-error' | 'hung' | 'failed';
  message?: string;
  result?: { firstDifference?: string; learnerError?: string; summary: string };
}

/** The mutant the lab's scenario.ts names as one whose mistake shows in the cluster, if it has a scenario. */
async function clusterMutantOf(slug: string): Promise<string | undefined> {
  const file = join(ROOT, 'labs', slug, 'scenario.ts');
  if (!existsSync(file)) return undefined;
  const scenario = ((await import(pathToFileURL(file).href)) as { default: { visibleMutant?: string } }).default;
  return scenario.visibleMutant;
}

/** Pastes `source`, starts Run in cluster (button or Alt+Enter) and waits for its outcome. */
async function runInClusterInPage(page: Page, source: string, how: 'button' | 'shortcut', duringRun?: () => Promise<void>): Promise<ClusterOutcome> {
  await setCode(page, source);
  await page.evaluate(() => delete document.body.dataset.clusterState);
  if (how === 'button') await page.click('[data-lab-action="cluster"]');
  else await page.keyboard.press('Alt+Enter'); // focus is in the editor after the paste
  await page.waitForFunction(() => document.body.dataset.clusterState === 'running', undefined, { timeout: 5000 });
  await duringRun?.();
  await page.waitForFunction(() => document.body.dataset.clusterState === 'done', undefined, { timeout: 240_000 });
  return page.evaluate(() => (window as unknown as { __labClusterResult: ClusterOutcome }).__labClusterResult);
}

function diverged(outcome: ClusterOutcome): boolean {
  return outcome.result?.firstDifference !== undefined;
}

async function clusterChecks(ctx: BrowserSuiteContext, slug: string): Promise<void> {
  const mutantFile = await clusterMutantOf(slug);
  if (!mutantFile) return;
  const dir = join(ROOT, 'labs', slug);
  const solution = readFileSync(join(dir, 'solution.ts'), 'utf8');
  const mutant = readFileSync(join(dir, 'mutants', mutantFile), 'utf8');
  const { page } = await openLab(ctx, slug);
  await ctx.check(`${slug}: Run in cluster with the solution matches the reference`, async () => {
    const started = Date.now();
    const outcome = await runInClusterInPage(page, solution, 'button');
    ctx.log(`${slug}: Run in cluster round trip ${Date.now() - started} ms`);
    if (outcome.kind !== 'compared') throw new Error(`${outcome.kind}: ${outcome.message ?? ''}`);
    if (outcome.result?.learnerError) throw new Error(`the run stopped: ${outcome.result.learnerError}`);
    if (diverged(outcome)) throw new Error('the solution differs from the reference');
    if ((await page.locator('#lab-cluster-result .cluster-differs').count()) !== 0) throw new Error('rows are marked as differing');
    await page.locator('#lab-cluster-region').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, `labs-${slug}-cluster-solution.png`) });
  }, page);
  await ctx.check(`${slug}: Run in cluster with the mutant ${mutantFile} shows where it differs (marked in text too)`, async () => {
    const outcome = await runInClusterInPage(page, mutant, 'button');
    if (outcome.kind !== 'compared' || !diverged(outcome)) throw new Error(`no divergence shown: ${JSON.stringify(outcome).slice(0, 300)}`);
    const status = (await page.textContent('#lab-cluster-status')) ?? '';
    if (!/differ/.test(status)) throw new Error(`the status does not say it differs: "${status}"`);
    if (!((await page.locator('#lab-cluster-result').textContent()) ?? '').includes('≠')) throw new Error('no ≠ marker in the results');
    const violations = await runAxe(page);
    if (violations.length > 0) throw new Error(`axe with cluster results open:\n${formatViolations(violations)}`);
  }, page);
  await ctx.check(`${slug}: Run in cluster (Alt+Enter) with an endless loop is reported as timed out, the page stays responsive`, async () => {
    const bodyAt = firstExportedFunction(solution);
    const looping = `${solution.slice(0, bodyAt)}\n  while (true) {}\n${solution.slice(bodyAt)}`;
    const outcome = await runInClusterInPage(page, looping, 'shortcut', async () => {
      await page.waitForTimeout(3000);
      const latency = await frameLatencyMs(page);
      if (latency > 1000) throw new Error(`the page froze while the loop ran (${latency} ms for a frame)`);
    });
    if (outcome.kind !== 'hung') throw new Error(`reported as ${outcome.kind}: ${outcome.message ?? ''}`);
    const problem = page.locator('#lab-cluster-problem');
    if (!(await problem.isVisible()) || !((await problem.textContent()) ?? '').includes('stopped responding')) throw new Error('the timeout is not shown');
  }, page);
  for (const colorScheme of ['dark', 'light'] as const) {
    const phone = colorScheme === 'light';
    await ctx.check(`${slug}: Run in cluster results in ${colorScheme}${phone ? ' at phone width' : ''}: axe clean, no sideways scroll`, async () => {
      const themed = await ctx.newPage({ colorScheme, ...(phone ? { viewport: PHONE_VIEWPORT } : {}) });
      themed.on('dialog', (dialog) => void dialog.accept());
      await themed.goto(`${ctx.baseUrl}/labs/${slug}/`);
      await themed.waitForFunction(() => document.body.dataset.editorReady === 'true', undefined, { timeout: 60_000 });
      await runInClusterInPage(themed, mutant, 'button');
      const violations = await runAxe(themed);
      if (violations.length > 0) throw new Error(`axe:\n${formatViolations(violations)}`);
      const overflow = await themed.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) throw new Error(`the page scrolls sideways by ${overflow} px`);
      await themed.locator('#lab-cluster-result').scrollIntoViewIfNeeded();
      await themed.screenshot({ path: join(SCREENSHOTS, `labs-${slug}-cluster-mutant-${colorScheme}${phone ? '-phone' : ''}.png`) });
    });
  }
}

/** LABS=a,b limits the suite to those labs (a developer checking new ones); CI runs every lab. */
const ONLY_LABS = process.env['LABS']?.split(',').filter(Boolean);

const suite: BrowserSuite = async (ctx) => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const slugs = readdirSync(join(ROOT, 'labs'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && readdirSync(join(ROOT, 'labs', entry.name)).includes('lab.mdx'))
    .map((entry) => entry.name)
    .filter((slug) => !ONLY_LABS || ONLY_LABS.includes(slug))
    .sort();
  for (const slug of slugs) await labChecks(ctx, slug, slug === slugs[0]);
  for (const slug of slugs) await clusterChecks(ctx, slug);
  if (slugs[0]) {
    await typingChecks(ctx, slugs[0]);
    await progressChecks(ctx, slugs[0]);
    await darkScreenshot(ctx, slugs[0]);
  }
};

export default suite;
