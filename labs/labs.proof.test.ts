// Proof that the suites can fail, and a test of the grading CLI itself: for every lab, grade
// (through scripts/grade.ts in a child process, as a learner would) the solution, the starter,
// every mutant and the examples. The solution must pass (which also proves tests.json is up to
// date: a pass requires exactly its names to have run), everything else must fail.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { labSlugs, LABS_DIR, ROOT } from '../scripts/lib/labs/catalog.ts';
import type { LabResults } from '../scripts/lib/labs/results.ts';

function gradeCli(args: string[]): Promise<{ code: number; results: LabResults; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'scripts/grade.ts'), ...args, '--json'],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: number }).code ?? 1) : 0;
        let results: LabResults;
        try {
          results = JSON.parse(stdout) as LabResults;
        } catch {
          throw new Error(`grade printed no JSON (exit ${code}):\n${stderr}\n${stdout.slice(0, 2000)}`);
        }
        resolve({ code, results, stderr });
      },
    );
  });
}

const summary = (r: LabResults) =>
  `${r.summary.passed} passed, ${r.summary.failed} failed${r.error ? `; ${r.error}` : ''}; failing: ${r.tests
    .filter((t) => t.status !== 'pass')
    .slice(0, 3)
    .map((t) => `${t.name}: ${t.message}`)
    .join(' | ')}`;

describe.each(labSlugs())('lab %s', (slug) => {
  const dir = join(LABS_DIR, slug);
  const mutants = existsSync(join(dir, 'mutants')) ? readdirSync(join(dir, 'mutants')).filter((f) => f.endsWith('.ts')) : [];

  it.concurrent('the solution passes the hidden suite, with exactly the tests in tests.json', async () => {
    const { code, results } = await gradeCli([slug, '--file', join(dir, 'solution.ts')]);
    expect(results.passed, summary(results)).toBe(true);
    expect(results.summary.total).toBe(results.expectedTotal);
    expect(code).toBe(0);
  });

  it.concurrent('the solution passes the examples', async () => {
    const { code, results } = await gradeCli([slug, '--file', join(dir, 'solution.ts'), '--examples']);
    expect(results.passed, summary(results)).toBe(true);
    expect(code).toBe(0);
  });

  it.concurrent('the starter fails the hidden suite', async () => {
    const { code, results } = await gradeCli([slug, '--file', join(dir, 'starter.ts')]);
    expect(results.passed).toBe(false);
    expect(results.summary.failed).toBeGreaterThan(0);
    expect(code).toBe(1);
  });

  it.concurrent.each(mutants)('mutant %s fails the hidden suite', async (mutant) => {
    const { code, results } = await gradeCli([slug, '--file', join(dir, 'mutants', mutant)]);
    expect(results.passed, `${mutant} passed: the suite cannot tell it from the solution`).toBe(false);
    expect(results.summary.failed).toBeGreaterThan(0);
    expect(results.error).toBeUndefined();
    expect(code).toBe(1);
  });
});

describe('the grading watchdog', () => {
  it('stops a submission that loops forever in one test, reports that test, and grades the rest', async () => {
    const { mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const solution = readFileSync(join(LABS_DIR, 'replicaset-reconcile', 'solution.ts'), 'utf8');
    const hanging = solution.replace(
      'const desired = rs.spec.replicas ?? 1;',
      'const desired = rs.spec.replicas ?? 1;\n  if (desired === 1200) while (desired > 0) { /* never ends */ }',
    );
    expect(hanging).not.toBe(solution);
    const file = join(mkdtempSync(join(tmpdir(), 'lab-hang-')), 'hang.ts');
    writeFileSync(file, hanging);
    const { code, results } = await gradeCli(['replicaset-reconcile', '--file', file]);
    const timedOut = results.tests.filter((t) => t.status === 'timeout').map((t) => t.name);
    expect(timedOut).toEqual(['burstReplicas caps one sync > creates at most burstReplicas (500) pods in one sync']);
    expect(results.summary.passed).toBe(results.expectedTotal - 1);
    expect(code).toBe(1);
  });
});
