// filterPodsWithPDBViolation: namespaces, nil/empty/invalid selectors, disruptedPods, shared budgets.
// mirrors the PDB cases of upstream's default_preemption_test.go and the rules in
// default_preemption.go (filterPodsWithPDBViolation).
import { describe, expect, it } from 'vitest';
import type { PodDisruptionBudget } from '../../../api/index.ts';
import { newPodInfo } from '../../framework/pod-info.ts';
import { makePDB } from '../../testing-builders.ts';
import { filterPodsWithPDBViolation } from './pdb.ts';
import { LOW, pod } from './preemption.test-helper.ts';

const foo = { app: 'foo' };
const pods = (...specs: [string, Record<string, string> | undefined, string?][]) =>
  specs.map(([name, labels, namespace]) => newPodInfo(pod(name, { priority: LOW, ...(labels ? { labels } : {}), ...(namespace ? { namespace } : {}) })));
const split = (ps: ReturnType<typeof pods>, pdbs: PodDisruptionBudget[]) =>
  filterPodsWithPDBViolation(ps, pdbs).map((group) => group.map((p) => p.name));

describe('filterPodsWithPDBViolation', () => {
  it.each([
    ['a budget with room for one: the second matching pod violates', [makePDB('b', { matchLabels: foo, disruptionsAllowed: 1 })], [['b'], ['a', 'c']]],
    ['no room at all: every matching pod violates, others do not', [makePDB('b', { matchLabels: foo, disruptionsAllowed: 0 })], [['a', 'b'], ['c']]],
    ['a budget of another namespace does not count', [makePDB('b', { namespace: 'other', matchLabels: foo })], [[], ['a', 'b', 'c']]],
    ['a nil selector matches nothing', [makePDB('b', { matchLabels: null })], [[], ['a', 'b', 'c']]],
    ['an empty selector matches nothing here', [makePDB('b', { matchLabels: {} })], [[], ['a', 'b', 'c']]],
    ['a pod already in disruptedPods is not counted again', [makePDB('b', { matchLabels: foo, disruptionsAllowed: 1, disruptedPods: { a: '2025-01-01T00:00:00Z' } })], [[], ['a', 'b', 'c']]],
    ['two budgets: one without room is enough to violate', [makePDB('wide', { matchLabels: foo, disruptionsAllowed: 5 }), makePDB('tight', { matchLabels: foo, disruptionsAllowed: 0 })], [['a', 'b'], ['c']]],
  ])('%s', (_name, pdbs, want) => {
    expect(split(pods(['a', foo], ['b', foo], ['c', { app: 'bar' }]), pdbs)).toEqual(want);
  });

  it('a pod without labels never matches; an invalid selector matches nothing', () => {
    const invalid = makePDB('bad', { disruptionsAllowed: 0 });
    invalid.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Bogus' as 'In', values: ['foo'] }] };
    expect(split(pods(['a', undefined], ['b', foo]), [makePDB('all', { matchLabels: foo }), invalid])).toEqual([['b'], ['a']]);
  });
});
