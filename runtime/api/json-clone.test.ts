// cloneJson must answer exactly what the JSON round trip it replaces answers. A table of the edge
// cases, then a property over arbitrary values (prints its seed; replay with FC_SEED=<seed>).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cloneJson, WALK_DEPTH } from './json-clone.ts';

const envSeed = Number((globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.FC_SEED);
const seed = Number.isFinite(envSeed) ? envSeed : 20261201;

const roundTrip = (v: unknown): unknown => {
  const text = JSON.stringify(v);
  return text === undefined ? undefined : JSON.parse(text);
};

/** Same values, same key order, same types, -0 and 0 told apart: stricter than toEqual. */
function expectIdentical(actual: unknown, expected: unknown): void {
  expect(typeof actual).toBe(typeof expected);
  if (typeof expected !== 'object' || expected === null) return void expect(Object.is(actual, expected)).toBe(true);
  expect(actual).not.toBe(expected);
  expect(Array.isArray(actual)).toBe(Array.isArray(expected));
  expect(Object.getPrototypeOf(actual)).toBe(Object.getPrototypeOf(expected));
  expect(Object.keys(actual as object)).toEqual(Object.keys(expected));
  for (const k of Object.keys(expected)) expectIdentical((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k]);
}

describe('cloneJson', () => {
  const when = new Date(Date.UTC(2026, 11, 1, 4, 44, 6));
  it.each<[string, unknown]>([
    ['a string', 'nginx:1.27'],
    ['a number', 42.5],
    ['-0 (printed as 0)', -0],
    ['NaN (null)', Number.NaN],
    ['Infinity (null)', Number.POSITIVE_INFINITY],
    ['null', null],
    ['true', true],
    ['undefined at the top (undefined)', undefined],
    ['a function at the top (undefined)', () => 1],
    ['undefined, function and symbol values (keys dropped)', { a: 1, b: undefined, c: () => 1, d: Symbol('x'), e: 'kept' }],
    ['the same in an array (null)', [1, undefined, () => 1, Symbol('x'), 'kept']],
    ['a sparse array (holes are null)', [1, , 3]],
    ['a Date (its toJSON text)', { creationTimestamp: when }],
    ['toJSON with the key', { k: { toJSON: (key: string) => `key=${key}` }, list: [{ toJSON: (key: string) => `key=${key}` }] }],
    ['boxed primitives (unboxed)', [Object(1), Object('s'), Object(false)]],
    ['integer-like keys (ordered first, as objects keep them)', { b: 1, 2: 'two', a: 3, 1: 'one' }],
    ['symbol keys (ignored)', { [Symbol('s')]: 1, name: 'web' }],
    ['a Map (no own keys: {})', new Map([['a', 1]])],
    ['nested pod-like data', { metadata: { name: 'web-1', labels: { app: 'web' } }, spec: { containers: [{ name: 'app', resources: { requests: { cpu: '10m' } } }] } }],
  ])('%s', (_name, value) => {
    expectIdentical(cloneJson(value), roundTrip(value));
  });

  it('throws on a cycle, as JSON.stringify does', () => {
    const o: Record<string, unknown> = { name: 'loop' };
    o.self = { back: o };
    expect(() => JSON.stringify(o)).toThrow(TypeError);
    expect(() => cloneJson(o)).toThrow(TypeError);
  });

  it('throws on a BigInt, as JSON.stringify does', () => {
    expect(() => cloneJson({ n: 1n })).toThrow(TypeError);
  });

  it(`copies nesting deeper than its ${WALK_DEPTH} walked levels through text, as deep as JSON goes`, () => {
    const nest = (n: number): unknown => { let v: unknown = { at: new Date(0), n: -0 }; for (let i = 0; i < n; i++) v = [v]; return v; };
    for (const depth of [WALK_DEPTH - 1, WALK_DEPTH, WALK_DEPTH + 1, 3 * WALK_DEPTH]) {
      expect(JSON.stringify(cloneJson(nest(depth)))).toBe(JSON.stringify(nest(depth)));
    }
  });

  it('throws on a cycle deeper than the walk too', () => {
    const o: Record<string, unknown> = {};
    let v: unknown = o;
    for (let i = 0; i < 2 * WALK_DEPTH; i++) v = [v];
    o.back = v;
    expect(() => cloneJson(v)).toThrow(TypeError);
  });

  it('shares nothing with its input', () => {
    const input = { spec: { containers: [{ name: 'app' }] } };
    const copy = cloneJson(input);
    copy.spec.containers[0]!.name = 'changed';
    expect(input.spec.containers[0]!.name).toBe('app');
  });

  it(`equals the JSON round trip for arbitrary values (seed ${seed})`, () => {
    const value = fc.anything({
      maxDepth: 4,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withSparseArray: true,
      withNullPrototype: false, // JSON.parse never makes one, so the copy's prototype is Object's either way
      withObjectString: true,
      withTypedArray: true,
    });
    fc.assert(fc.property(value, (v) => expectIdentical(cloneJson(v), roundTrip(v))), { seed, numRuns: 500, verbose: 1 });
  });
});
