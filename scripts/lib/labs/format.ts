// Human output of a grading run: one line per test (✓/✗/⏱/-), the failure message with a readable
// expected/actual pair, and the summary line "N passed, M failed". Colour only on a TTY.
import type { LabResults, TestResult } from './results.ts';

const ANSI = /\u001b\[[0-9;]*m/g;

export function formatResults(r: LabResults, color: boolean): string {
  const paint = (code: number, s: string) => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const lines: string[] = [`${r.lab}: ${r.file}`, ''];
  for (const t of r.tests) lines.push(...formatTest(t, paint));
  if (r.error) lines.push('', paint(31, `Problem: ${r.error}`));
  const { passed, failed } = r.summary;
  const skipped = r.tests.filter((t) => t.status === 'skip').length;
  lines.push('', `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''} (${r.expectedTotal} expected)`);
  lines.push(r.passed ? paint(32, 'PASSED') : paint(31, 'NOT PASSED yet'));
  const out = lines.join('\n');
  return color ? out : out.replace(ANSI, '');
}

function formatTest(t: TestResult, paint: (code: number, s: string) => string): string[] {
  const mark = { pass: paint(32, '✓'), fail: paint(31, '✗'), timeout: paint(33, '⏱'), skip: paint(90, '-') }[t.status];
  const lines = [`${mark} ${t.name}${t.status === 'timeout' ? ' (timed out)' : ''}`];
  if (t.status === 'pass') return lines;
  if (t.message) lines.push(...t.message.split('\n').map((l) => `    ${l}`));
  if (t.expected !== undefined || t.actual !== undefined) {
    lines.push(`    expected: ${indent(t.expected ?? '(nothing)')}`);
    lines.push(`    actual:   ${indent(t.actual ?? '(nothing)')}`);
  }
  return lines;
}

function indent(s: string): string {
  return s.split('\n').join('\n              ');
}
