// Lists the full test names of a lab suite for tests.json (Node only). The names come from a real
// grading run of the reference solution (which must pass every test), because `vitest list`
// neither expands `it.each` titles nor keeps quotes unescaped in vitest 5.1.
import { join, relative } from 'node:path';
import { ROOT, type Lab } from './catalog.ts';
import type { SuiteKind, TestManifest } from './manifest.ts';
import { grade } from './run-grade.ts';

export async function listTests(lab: Lab, suite: SuiteKind): Promise<string[]> {
  const file = join(lab.dir, 'solution.ts');
  const results = await grade({ lab, file, fileLabel: relative(ROOT, file), suite, expectedNames: [] });
  const broken = results.tests.filter((t) => t.status !== 'pass');
  if (broken.length > 0 || results.tests.length === 0) {
    const why = broken.map((t) => `${t.name}: ${t.status} ${t.message ?? ''}`).join('\n') || results.error || 'no tests ran';
    throw new Error(`labs/${lab.slug}/solution.ts must pass its ${suite} suite before the manifest is written:\n${why}`);
  }
  return results.tests.map((t) => t.name);
}

export async function buildManifest(lab: Lab): Promise<TestManifest> {
  return { hidden: await listTests(lab, 'hidden'), examples: await listTests(lab, 'examples') };
}
