import { describe, expect, it } from 'vitest';
import { rfc3339, type Condition, type PodDisruptionBudget } from './index.ts';
import { budgetGuards, setStatusCondition, updateDisruptionAllowedCondition } from './pdb.ts';

const pdb = (allowed: number, conditions?: Condition[]): PodDisruptionBudget => ({
  metadata: { name: 'web', namespace: 'default', generation: 2 },
  spec: {},
  status: { observedGeneration: 2, disruptionsAllowed: allowed, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, ...(conditions ? { conditions } : {}) },
});

describe('updateDisruptionAllowedCondition (component-helpers poddisruptionbudget)', () => {
  it.each([
    [1, 'True', 'SufficientPods'],
    [0, 'False', 'InsufficientPods'],
  ])('disruptionsAllowed %i gives %s/%s at the observed generation', (allowed, status, reason) => {
    const p = pdb(allowed);
    updateDisruptionAllowedCondition(p, 5_000);
    expect(p.status!.conditions).toEqual([
      { type: 'DisruptionAllowed', status, reason, message: '', observedGeneration: 2, lastTransitionTime: rfc3339(5_000) },
    ]);
  });

  it('keeps lastTransitionTime while the status stays, moves it when the status flips', () => {
    const p = pdb(1);
    updateDisruptionAllowedCondition(p, 1_000);
    updateDisruptionAllowedCondition(p, 2_000);
    expect(p.status!.conditions![0]!.lastTransitionTime).toBe(rfc3339(1_000));
    p.status!.disruptionsAllowed = 0;
    updateDisruptionAllowedCondition(p, 3_000);
    expect(p.status!.conditions![0]).toMatchObject({ status: 'False', reason: 'InsufficientPods', lastTransitionTime: rfc3339(3_000) });
  });
});

describe('setStatusCondition (apimachinery meta)', () => {
  it('leaves other conditions alone and does not mutate its input', () => {
    const before = [{ type: 'Other', status: 'True' as const, reason: 'X', message: 'm', lastTransitionTime: rfc3339(0) }];
    const after = setStatusCondition(before, { type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '' }, 10);
    expect(before).toHaveLength(1);
    expect(after.map((c) => c.type)).toEqual(['Other', 'DisruptionAllowed']);
  });
});

describe('budgetGuards (eviction and preemption: nil, empty and invalid selectors guard nothing)', () => {
  const guards = (selector: PodDisruptionBudget['spec']['selector']) =>
    budgetGuards({ metadata: { name: 'b' }, spec: selector === undefined ? {} : { selector } })({ app: 'web' });
  it.each([
    ['a matching selector', { matchLabels: { app: 'web' } }, true],
    ['another app', { matchLabels: { app: 'db' } }, false],
    ['a nil selector', undefined, false],
    ['an empty selector', {}, false],
    ['an invalid selector', { matchExpressions: [{ key: 'app', operator: 'Near' as never }] }, false],
  ])('%s', (_what, selector, want) => expect(guards(selector)).toBe(want));
});
