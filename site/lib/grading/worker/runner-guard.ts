// What a test throws is turned into a plain Error of the host before vitest sees it, on both
// grading hosts (the page's worker and the CLI), by the lab runners' `trace` hook, which wraps
// every test body and hook.
//
// Without this, vitest's own error processing read the thrown value's getters directly: a getter
// that throws escaped the runner, which stopped the file and left every later test "did not run"
// with no error; a null-prototype object reached the report with no message; a huge string was
// diffed character by character. Here each property of the thrown value is read once, in a guard;
// strings are capped before any diff; vitest formats the copy (its own words, so messages match the
// CLI's as before); and a copy that still cannot be formatted is described instead. A learner's
// runtime error also gets the line and column of the learner's own source where it was thrown.
import { processError } from 'vitest/internal/browser';
import { describeThrown, safeRead, truncateText } from './describe-thrown.ts';
import { learnerLocation } from './sandbox.ts';

/** Hook names vitest's runner passes to `trace` around user code (tests, hooks, cleanups). */
const USER_CODE = new Set(['test.callback', 'test.beforeEach', 'test.afterEach', 'test.cleanup', 'test.onFailed', 'test.onFinished', 'suite.beforeAll', 'suite.afterAll', 'suite.cleanup']);

/** Strings longer than this are cut before vitest diffs them (a diff of two huge strings never ends). */
const MAX_DIFFED = 20_000;

type Trace = <T>(name: string, attributes: Record<string, unknown> | (() => T), callback?: () => T) => T;

/** Wraps a runner's trace so what user code throws reaches vitest as a readable host Error. */
export function guardedTrace(base: Trace, diffOptions: () => unknown): Trace {
  return <T>(name: string, attributes: Record<string, unknown> | (() => T), callback?: () => T): T => {
    if (!USER_CODE.has(name)) return base(name, attributes, callback);
    try {
      const result = base(name, attributes, callback);
      if (result instanceof Promise) {
        return result.then(undefined, (thrown: unknown) => {
          throw readableError(thrown, diffOptions());
        }) as T;
      }
      return result;
    } catch (thrown) {
      throw readableError(thrown, diffOptions());
    }
  };
}

/**
 * An Error with this name and message. Set by defineProperty: after lockdown the inherited `name`
 * and `message` of Error.prototype are read-only, so assigning them throws (the override mistake).
 */
function hostError(name: string, message: string): Error {
  const error = new Error(message);
  Object.defineProperty(error, 'name', { value: name, writable: true, configurable: true });
  Object.defineProperty(error, 'stack', { value: `${name}: ${message}`, writable: true, configurable: true });
  return error;
}

/** An Error built by the host from what user code threw; never throws itself. */
export function readableError(thrown: unknown, diffOptions?: unknown): Error {
  const copy = snapshot(thrown);
  let processed: Record<string, unknown> | undefined;
  try {
    processed = processError(copy, diffOptions as never) as Record<string, unknown>;
  } catch {
    // The copy still holds the learner's objects as expected/actual: format without them.
    try {
      processed = processError(hostError(copy.name, copy.message)) as Record<string, unknown>;
    } catch {
      processed = undefined;
    }
  }
  const message = typeof processed?.['message'] === 'string' ? processed['message'] : copy.message;
  const error = hostError(copy.name, truncateText(message + (copy.location ? `\n    at line ${copy.location.line}, column ${copy.location.column} of your code` : '')));
  const expected = processed?.['expected'];
  const actual = processed?.['actual'];
  if (typeof expected === 'string' && typeof actual === 'string') {
    Object.assign(error, { expected: truncateText(expected), actual: truncateText(actual), showDiff: true });
  }
  return error;
}

interface Snapshot {
  name: string;
  message: string;
  location?: { line: number; column: number };
  expected?: unknown;
  actual?: unknown;
  showDiff?: boolean;
}

/**
 * The parts of a thrown value a report needs, each read once in a guard: name and message as
 * strings (a described value when there is no string message), expected and actual for a failed
 * comparison (long strings cut), and where in the learner's code it was thrown.
 */
function snapshot(thrown: unknown): Error & Snapshot {
  if (thrown === null || (typeof thrown !== 'object' && typeof thrown !== 'function')) {
    // vitest reports a thrown string as its text; other primitives are named ("Your code threw Symbol(x)").
    return hostError('Error', typeof thrown === 'string' ? truncateText(thrown) : `Your code threw ${describeThrown(thrown)}`) as Error & Snapshot;
  }
  const text = (key: string): string | undefined => {
    const read = safeRead(thrown, key);
    return read.ok && typeof read.value === 'string' ? read.value : undefined;
  };
  const message = text('message');
  const name = text('name');
  const copy = (
    message === undefined
      ? hostError('Error', `Your code threw ${describeThrown(thrown)}`)
      : hostError(name && /^[\w$ ]{1,60}$/.test(name) ? name : 'Error', truncateText(message))
  ) as Error & Snapshot;
  const stack = text('stack');
  const location = stack === undefined ? undefined : learnerLocation(stack);
  if (location && copy.name !== 'AssertionError') copy.location = location;
  // The fields vitest's processError reads to diff a failed comparison, each read once.
  const cut = (value: unknown) => (typeof value === 'string' ? truncateText(value, MAX_DIFFED) : value);
  const showDiff = safeRead(thrown, 'showDiff');
  const expected = safeRead(thrown, 'expected');
  const actual = safeRead(thrown, 'actual');
  if (showDiff.ok && typeof showDiff.value === 'boolean') copy.showDiff = showDiff.value;
  if (expected.ok && expected.value !== undefined) copy.expected = cut(expected.value);
  if (actual.ok && actual.value !== undefined) copy.actual = cut(actual.value);
  return copy;
}
