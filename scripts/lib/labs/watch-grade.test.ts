// `npm run grade -- <slug> --watch`: a grade at start, a grade on every save, the verdict the
// one-shot grader gives, and a loop that never ends reported as a timeout without stopping the watch.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadLab, readManifest } from './catalog.ts';
import type { LabResults } from './results.ts';
import { watchGrade } from './watch-grade.ts';

const SLUG = 'kubelet-restarts';
const lab = loadLab(SLUG);
const dir = mkdtempSync(join(tmpdir(), 'watch-grade-'));
const file = join(dir, `${SLUG}.ts`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('grade --watch', () => {
  it('grades at start and again on every save, and survives a loop that never ends', async () => {
    copyFileSync(join(lab.dir, 'starter.ts'), file);
    const reports: LabResults[] = [];
    let wake: () => void = () => {};
    const nextReport = (count: number) => new Promise<void>((resolve) => {
      wake = () => reports.length >= count && resolve();
      wake();
    });
    const watcher = watchGrade({
      lab, file, fileLabel: `${SLUG}.ts`, suite: 'hidden', expectedNames: readManifest(lab).hidden,
      report(results) {
        reports.push(results);
        wake();
      },
    });
    try {
      await nextReport(1);
      expect(reports[0]!.passed, 'the starter').toBe(false);

      copyFileSync(join(lab.dir, 'solution.ts'), file);
      await nextReport(2);
      expect(reports[1]!.passed, 'the solution, after a save').toBe(true);
      expect(reports[1]!.summary.passed).toBe(readManifest(lab).hidden.length);

      // every exported function now loops: the first test times out, the watch goes on
      const solution = readFileSync(join(lab.dir, 'solution.ts'), 'utf8');
      writeFileSync(file, solution.replace(/(export function \w+\([^)]*\)[^{]*\{)/g, '$1\n  for (;;) {}'));
      await nextReport(3);
      expect(reports[2]!.passed).toBe(false);
      expect(reports[2]!.tests.filter((t) => t.status === 'timeout')).toHaveLength(1);
      expect(reports[2]!.error).toMatch(/did not finish within \d+ ms/);

      copyFileSync(join(lab.dir, 'solution.ts'), file);
      await nextReport(4);
      expect(reports[3]!.passed, 'the solution again, after the loop').toBe(true);
    } finally {
      watcher.close();
    }
  }, 240_000);
});
