// The tamper suite: for every lab (every labs/<slug>/ with a lab.mdx, so a new lab is covered the
// day it lands), forgery techniques of scripts/lib/labs/tamper.ts (all of them on the first labs, a
// rotating quarter on the others: techniquesFor) are appended to the lab's starter and graded on
// both hosts: the grading CLI (vitest in a child process, the learner's code
// in an SES Compartment) and the page's grading pipeline run in Node (scripts/lib/labs/page-host.ts,
// the grading worker's modules). Each forgery must not pass, must pass no test the plain starter
// fails, and both hosts must agree test for test. Chromium grades the same set in the labs browser
// suite (scripts/browser/labs.suite.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { labSlugs, loadLab, readManifest, ROOT } from '../scripts/lib/labs/catalog.ts';
import { finalizeResults, type LabResults, type TestResult } from '../scripts/lib/labs/results.ts';
import { grade } from '../scripts/lib/labs/run-grade.ts';
import { oddThrowsSource, TAMPER_TECHNIQUES, tamperedSource } from '../scripts/lib/labs/tamper.ts';

const WORK = mkdtempSync(join(tmpdir(), 'lab-tamper-'));

function gradeOnCli(slug: string, file: string): Promise<LabResults> {
  const lab = loadLab(slug);
  return grade({ lab, file, fileLabel: relative(ROOT, file), suite: 'hidden', expectedNames: readManifest(lab).hidden });
}

/** The page's pipeline in Node (page-host.ts), finalized by the page's verdict rule. */
function gradeInPageHost(slug: string, file: string): Promise<LabResults> {
  const lab = loadLab(slug);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'scripts/lib/labs/page-host.ts'), slug, 'hidden', file, String(lab.meta.timeLimitMs)],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 180_000 },
      (error, stdout, stderr) => {
        const line = stdout.split('\n').findLast((l) => l.startsWith('{'));
        if (!line) return reject(new Error(`the page host printed no result (${error?.message ?? 'no error'}):\n${stderr.slice(-2000)}`));
        const { tests, error: runError } = JSON.parse(line) as { tests: TestResult[]; error?: string };
        resolve(finalizeResults(slug, `page:${slug}`, readManifest(lab).hidden, tests, runError));
      },
    );
  });
}

const passedNames = (results: LabResults) => new Set(results.tests.filter((t) => t.status === 'pass').map((t) => t.name));
const statuses = (results: LabResults) => Object.fromEntries(results.tests.map((t) => [t.name, t.status]));

/**
 * The forgeries attack the sandbox and the graders, which are the same for every lab: each lab gets
 * its starter and the odd throws graded on both hosts, the first FULL_LABS labs get every technique,
 * and every other lab a rotating quarter of them, so each technique runs against several labs of
 * different kinds and each lab meets several techniques (every technique on every lab cost CI over
 * ten minutes of its sixty).
 */
const FULL_LABS = 2;
const techniquesFor = (labIndex: number) =>
  labIndex < FULL_LABS ? TAMPER_TECHNIQUES : TAMPER_TECHNIQUES.filter((_, i) => (i + labIndex) % 4 === 0);

describe.each(labSlugs().map((slug, index) => [slug, index] as const))('lab %s: no forged submission passes, on either host', (slug, labIndex) => {
  const starter = readFileSync(join(ROOT, 'labs', slug, 'starter.ts'), 'utf8');
  let starterPasses: { cli: Set<string>; page: Set<string> };

  beforeAll(async () => {
    const file = join(WORK, `${slug}-starter.ts`);
    writeFileSync(file, starter);
    const [cli, page] = await Promise.all([gradeOnCli(slug, file), gradeInPageHost(slug, file)]);
    expect(cli.passed).toBe(false);
    expect(statuses(page)).toEqual(statuses(cli));
    starterPasses = { cli: passedNames(cli), page: passedNames(page) };
  }, 600_000);

  it.concurrent.each(techniquesFor(labIndex).map((t) => [t.id, t] as const))('%s', async (_id, technique) => {
    const file = join(WORK, `${slug}-${technique.id}.ts`);
    writeFileSync(file, tamperedSource(starter, technique));
    const [cli, page] = await Promise.all([gradeOnCli(slug, file), gradeInPageHost(slug, file)]);
    for (const [host, results, baseline] of [['CLI', cli, starterPasses.cli], ['page', page, starterPasses.page]] as const) {
      expect(results.passed, `${technique.description}: passed on the ${host}`).toBe(false);
      const forged = [...passedNames(results)].filter((name) => !baseline.has(name));
      expect(forged, `${technique.description}: tests the starter fails passed on the ${host}`).toEqual([]);
      if (technique.loadError) expect(results.error, `${host}: a refused import is a load error`).toMatch(/^Your code could not be loaded: .*imports "vitest" at run time/);
      else expect(results.error, `${host}: the forgery loads and runs`).toBeUndefined();
    }
    expect(statuses(page), 'the two hosts agree test for test').toEqual(statuses(cli));
    expect(page.error).toBe(cli.error);
  }, 600_000);

  it('exports that throw odd values fail every test, with the same readable message on both hosts', async () => {
    const file = join(WORK, `${slug}-odd-throws.ts`);
    writeFileSync(file, oddThrowsSource(starter));
    const [cli, page] = await Promise.all([gradeOnCli(slug, file), gradeInPageHost(slug, file)]);
    for (const results of [cli, page]) {
      expect(results.error).toBeUndefined();
      expect(results.summary.passed + results.summary.failed).toBe(results.expectedTotal);
      for (const test of results.tests) {
        expect(test.status === 'fail' || test.status === 'timeout', test.name).toBe(true);
        expect(test.message?.length, test.name).toBeGreaterThan(0);
        expect(test.message!.length, test.name).toBeLessThan(5000);
      }
    }
    // Stack frames of the suite's own files differ by host (a property-test library quotes them);
    // everything else in a message, the learner's frames included, is the same.
    const messages = (results: LabResults) => Object.fromEntries(results.tests.map((t) => [t.name, t.message?.replace(/^ *at .*\((?:file:\/\/)?\/.*$|^ *at (?:file:\/\/)?\/.*$/gm, 'at (host frame)')]));
    expect(messages(page)).toEqual(messages(cli));
  }, 600_000);
});
