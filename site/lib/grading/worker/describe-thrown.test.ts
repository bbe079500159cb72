// Reporting what learner code throws, on both grading hosts: describeThrown (a short description
// of any value) and readableError (the host Error a lab runner hands vitest instead).
import { describe, expect, it } from 'vitest';
import { processError } from 'vitest/internal/browser';
import { describeThrown, MAX_TEXT } from './describe-thrown.ts';
import { readableError } from './runner-guard.ts';

const cyclic: Record<string, unknown> = { name: 'loop' };
cyclic['self'] = cyclic;
const throwingGetters = Object.defineProperties({}, {
  message: { get: () => { throw new Error('message getter'); }, enumerable: true },
  showDiff: { get: () => { throw Object.create(null); }, enumerable: true },
  expected: { get: () => { throw Symbol('expected getter'); }, enumerable: true },
});
const errorWithThrowingMessage = Object.defineProperty(new TypeError('hidden'), 'message', { get: () => { throw new Error('no'); } });
const hostile = new Proxy({}, { get: () => { throw new Error('trap'); }, ownKeys: () => { throw new Error('trap'); }, getPrototypeOf: () => { throw new Error('trap'); } });
const huge = 'x'.repeat(5_000_000);

// [what, the value, its description]
const table: [string, unknown, string | RegExp][] = [
  ['a null-prototype object', Object.create(null), 'an object with a null prototype: {}'],
  ['a null-prototype object with data', Object.assign(Object.create(null), { code: 42 }), 'an object with a null prototype: { code: 42 }'],
  ['a symbol', Symbol('boom'), 'Symbol(boom)'],
  ['a bigint', 10n, '10n'],
  ['undefined', undefined, 'undefined'],
  ['null', null, 'null'],
  ['a string', 'oops', 'a string "oops"'],
  ['an Error', new RangeError('out of range'), 'RangeError: out of range'],
  ['getters that throw', throwingGetters, 'an object: { message: (a getter), showDiff: (a getter), expected: (a getter) }'],
  ['an Error whose message getter throws', errorWithThrowingMessage, /^an object: \{ stack: .*message: \(a getter\) \}$/],
  ['a cyclic object', cyclic, 'an object: { name: "loop", self: an object }'],
  ['a Proxy whose traps throw', hostile, 'an object that could not be read'],
  ['a huge string', huge, /^a string "x{200}… \(4999800 more characters\)"$/],
  ['a function', function namedThing() {}, 'a function named "namedThing"'],
  ['an array', [1, 'two'], 'an array: { "0": 1, "1": "two", length: 2 }'],
];

describe('describeThrown', () => {
  it.each(table)('%s', (_what, value, description) => {
    const text = describeThrown(value);
    if (typeof description === 'string') expect(text).toBe(description);
    else expect(text).toMatch(description);
    expect(text.length).toBeLessThanOrEqual(MAX_TEXT + 40);
  });
});

describe('readableError', () => {
  it.each(table)('turns %s into a host Error with a readable message, without throwing', (_what, value) => {
    const error = readableError(value);
    expect(error).toBeInstanceOf(Error);
    expect(typeof error.message).toBe('string');
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.message.length).toBeLessThanOrEqual(MAX_TEXT + 40);
    // vitest can process and serialize it, as its runner does for a failed test.
    const processed = processError(error) as { message: string };
    expect(processed.message).toBe(error.message);
  });

  it('words what has no message for the learner', () => {
    expect(readableError(Object.create(null)).message).toBe('Your code threw an object with a null prototype: {}');
    expect(readableError(throwingGetters).message).toBe('Your code threw an object: { message: (a getter), showDiff: (a getter), expected: (a getter) }');
    expect(readableError(Symbol('s')).message).toBe('Your code threw Symbol(s)');
    expect(readableError(undefined).message).toBe('Your code threw undefined');
    expect(readableError('plain').message).toBe('plain');
  });

  it('keeps a failed assertion as vitest reports it: message, expected and actual', () => {
    let thrown: unknown;
    try {
      expect({ podsToCreate: 0 }).toEqual({ podsToCreate: 3 });
    } catch (error) {
      thrown = error;
    }
    const direct = processError(thrown) as { message: string; expected: string; actual: string };
    const error = readableError(thrown) as Error & { expected?: string; actual?: string };
    expect(error.name).toBe('AssertionError');
    expect(error.message).toBe(direct.message);
    expect(error.expected).toBe(direct.expected);
    expect(error.actual).toBe(direct.actual);
  });

  it('cuts a huge actual value before diffing it', () => {
    let thrown: unknown;
    try {
      expect(huge).toBe('x');
    } catch (error) {
      thrown = error;
    }
    const started = Date.now();
    const error = readableError(thrown) as Error & { actual?: string };
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error.actual!.length).toBeLessThanOrEqual(MAX_TEXT + 40);
  });
});
