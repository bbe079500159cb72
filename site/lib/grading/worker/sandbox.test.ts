// The sandbox both grading hosts evaluate learner code in (sandbox.ts): what the code can reach,
// and that every endowment takes functions only.
import { describe, expect, it } from 'vitest';
import { loadLearnerModule } from './sandbox.ts';

const lines: string[] = [];
const load = (source: string) => loadLearnerModule(source, { log: (line) => lines.push(line) }).exports as Record<string, (...args: unknown[]) => unknown>;

describe('the learner sandbox', () => {
  it('hands timers a string of code? a TypeError in the learner realm, and nothing is evaluated', () => {
    const { f } = load(`
      export function f(): string[] {
        const seen: string[] = [];
        for (const schedule of [setTimeout, setInterval, queueMicrotask] as ((...a: unknown[]) => unknown)[]) {
          try { schedule('(globalThis as any).__escaped = 1', 0); seen.push('accepted'); }
          catch (error) { seen.push(error instanceof TypeError ? 'TypeError' : 'other'); }
        }
        return seen;
      }`);
    expect(f!()).toEqual(['TypeError', 'TypeError', 'TypeError']);
    expect((globalThis as Record<string, unknown>)['__escaped']).toBeUndefined();
  });

  it('calls timer callbacks with no this, returns numbers as handles, and clears them', async () => {
    const { f } = load(`
      export function f(): Promise<unknown[]> {
        return new Promise((resolve) => {
          const cancelled = setTimeout(() => resolve(['cancelled ran']), 0);
          clearTimeout(cancelled);
          const handle = setTimeout(function (this: unknown, extra: string) { resolve([typeof handle, this, extra]); }, 0, 'arg');
        });
      }`);
    await expect(f!()).resolves.toEqual(['number', undefined, 'arg']);
  });

  it('logs what a timer callback throws instead of leaving it uncaught', async () => {
    const { f } = load(`export function f(): Promise<void> { setTimeout(() => { throw Object.create(null); }, 0); return new Promise((r) => setTimeout(r, 5)); }`);
    lines.length = 0;
    await f!();
    expect(lines).toEqual(['uncaught in a setTimeout callback: an object with a null prototype: {}']);
  });

  it('sees no host global: process, postMessage, self, require, vitest expect, chai', () => {
    const { f } = load(`
      export function f(): unknown[] {
        const g = globalThis as Record<PropertyKey, unknown>;
        return [typeof g.process, typeof g.postMessage, typeof g.self, typeof g.require, g[Symbol.for('expect-global')], g[Symbol.for('chai')], g[Symbol.for('$$jest-matchers-object')], typeof g.__vitest_worker__];
      }`);
    expect(f!()).toEqual(['undefined', 'undefined', 'undefined', 'undefined', undefined, undefined, undefined, 'undefined']);
  });

  it('cannot change frozen built-ins or the Date it is given', () => {
    const { f } = load(`
      export function f(): string[] {
        const tries: [string, () => void][] = [
          ['Object.is', () => { (Object as any).is = () => true; }],
          ['Array.prototype.map', () => { (Array.prototype as any).map = () => []; }],
          ['Date.now', () => { (Date as any).now = () => 0; }],
          ['Function.prototype.call', () => { (Function.prototype as any).call = () => 0; }],
        ];
        return tries.map(([name, attempt]) => { try { attempt(); return name + ' changed'; } catch { return name + ' frozen'; } });
      }`);
    expect(f!()).toEqual(['Object.is frozen', 'Array.prototype.map frozen', 'Date.now frozen', 'Function.prototype.call frozen']);
    expect(Date.now()).toBeGreaterThan(0);
  });

  it('refuses a runtime import the lab does not declare, and serves one it does', () => {
    expect(() => load(`import { expect } from 'vitest';\nexport const f = () => expect;`)).toThrow(/imports "vitest" at run time/);
    const exports = loadLearnerModule(`import { twice } from 'helper';\nexport const f = () => twice(2);`, { log: () => undefined, imports: { helper: { twice: (n: number) => n * 2 } } }).exports;
    expect((exports['f'] as () => number)()).toBe(4);
  });

  it('reads each export once, into a frozen copy', () => {
    const exports = loadLearnerModule(`let n = 0;\nObject.defineProperty(exports, 'f', { enumerable: true, get: () => { n += 1; return () => n; } });`, { log: () => undefined, exportNames: ['f'] }).exports;
    expect(Object.isFrozen(exports)).toBe(true);
    expect((exports['f'] as () => number)()).toBe(1);
    expect((exports['f'] as () => number)()).toBe(1);
  });

  it('reports a throw at top level readably, whatever was thrown', () => {
    expect(() => load('throw Object.create(null);')).toThrow('Your code could not be loaded: an object with a null prototype: {}');
    expect(() => load("throw Symbol('boom');")).toThrow('Your code could not be loaded: Symbol(boom)');
    expect(() => load("throw { get message(): string { throw new Error('no'); } };")).toThrow('Your code could not be loaded: an object: { message: (a getter) }');
  });
});
