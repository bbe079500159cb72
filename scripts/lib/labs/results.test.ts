import { describe, expect, it } from 'vitest';
import { finalizeResults, type TestResult } from './results.ts';

const pass = (name: string): TestResult => ({ name, status: 'pass', durationMs: 1 });
const fail = (name: string): TestResult => ({ name, status: 'fail', message: 'no', durationMs: 1 });

describe('finalizeResults', () => {
  it('passes only when exactly the expected tests ran and all passed', () => {
    const results = finalizeResults('lab', 'f', ['a', 'b'], [pass('a'), pass('b')]);
    expect(results.passed).toBe(true);
    expect(results.summary).toEqual({ passed: 2, failed: 0, total: 2 });
  });

  it('counts add up: every listed test is passed, failed or did-not-run, and a silent gap is a problem', () => {
    const results = finalizeResults('lab', 'f', ['a', 'b', 'c'], [pass('a'), fail('b')]);
    expect(results.passed).toBe(false);
    expect(results.summary).toEqual({ passed: 1, failed: 1, total: 3 });
    expect(results.tests.map((t) => t.status)).toEqual(['pass', 'fail', 'skip']);
    expect(results.error).toBe('1 of the 3 tests reported no result (first: c)');
  });

  it('keeps the run-level error when it explains the gap', () => {
    const results = finalizeResults('lab', 'f', ['a', 'b'], [], 'Your code could not be loaded: SyntaxError: x');
    expect(results.error).toBe('Your code could not be loaded: SyntaxError: x');
    expect(results.summary).toEqual({ passed: 0, failed: 0, total: 2 });
  });

  it('fails a run where a test not in tests.json ran', () => {
    const results = finalizeResults('lab', 'f', ['a'], [pass('a'), pass('z')]);
    expect(results.passed).toBe(false);
    expect(results.error).toMatch(/tests not in tests.json ran: z/);
  });
});
