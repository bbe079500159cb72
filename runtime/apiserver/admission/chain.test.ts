import { describe, expect, it } from 'vitest';
import { newForbidden } from '../../api/index.ts';
import { AdmissionChain, type AdmissionStep } from './chain.ts';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from './types.ts';

const attrs = {} as AdmissionAttributes;
const ctx = {} as AdmissionContext;
const refuse = newForbidden({ group: '', resource: 'pods' }, 'p', 'no');

function plugin(name: string, opts: { admit?: boolean; validate?: boolean; refuse?: boolean }): AdmissionPlugin {
  const run = (_a: AdmissionAttributes, _c: AdmissionContext, done: (e?: typeof refuse) => void): void => done(opts.refuse ? refuse : undefined);
  return { name, ...(opts.admit ? { admit: run } : {}), ...(opts.validate ? { validate: run } : {}) };
}

function run(chain: AdmissionChain, phase: 'mutating' | 'validating'): { steps: readonly AdmissionStep[]; error: unknown } {
  let out: { steps: readonly AdmissionStep[]; error: unknown } | undefined;
  chain.run(phase, attrs, ctx, (steps, error) => { out = { steps, error }; });
  return out!;
}

describe('AdmissionChain', () => {
  it('lists every plugin of the phase when all allow, the same frozen list each run', () => {
    const chain = new AdmissionChain([plugin('A', { admit: true }), plugin('B', { validate: true }), plugin('C', { admit: true, validate: true })]);
    const first = run(chain, 'mutating');
    expect(first.steps).toEqual([{ plugin: 'A', phase: 'mutating', allowed: true }, { plugin: 'C', phase: 'mutating', allowed: true }]);
    expect(first.error).toBeUndefined();
    expect(run(chain, 'mutating').steps).toBe(first.steps);
    expect(Object.isFrozen(first.steps) && Object.isFrozen(first.steps[0])).toBe(true);
    expect(run(chain, 'validating').steps).toEqual([{ plugin: 'B', phase: 'validating', allowed: true }, { plugin: 'C', phase: 'validating', allowed: true }]);
  });

  it('stops at the first refusal: the plugins before it, then the refusal with its message', () => {
    const chain = new AdmissionChain([plugin('A', { validate: true }), plugin('M', { admit: true }), plugin('B', { validate: true, refuse: true }), plugin('C', { validate: true })]);
    const r = run(chain, 'validating');
    expect(r.steps).toEqual([
      { plugin: 'A', phase: 'validating', allowed: true },
      { plugin: 'B', phase: 'validating', allowed: false, message: refuse.message },
    ]);
    expect(r.error).toBe(refuse);
    expect(run(new AdmissionChain([plugin('Z', { admit: true, refuse: true })]), 'mutating').steps).toEqual([{ plugin: 'Z', phase: 'mutating', allowed: false, message: refuse.message }]);
  });
});
