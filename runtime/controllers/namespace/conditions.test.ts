import { describe, expect, it } from 'vitest';
import type { Pod } from '../../api/index.ts';
import { failureConditions, updateConditions, type ContentTotals, type NamespaceCondition } from './conditions.ts';
import { estimateForPods } from './controller.ts';

const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:00:09Z';
const totals = (over: Partial<ContentTotals> = {}): ContentTotals => ({ remainingByResource: new Map(), remainingByFinalizer: new Map(), deleteErrors: [], ...over });

describe('failureConditions (status_condition_utils.go)', () => {
  const cases: { name: string; totals: ContentTotals; want: Pick<NamespaceCondition, 'type' | 'reason' | 'message'>[] }[] = [
    { name: 'nothing left', totals: totals(), want: [] },
    {
      name: 'resources and finalizers remain, sorted, with upstream wording (resource.group)',
      totals: totals({ remainingByResource: new Map([['pods.', 2], ['deployments.apps', 1]]), remainingByFinalizer: new Map([['example.com/x', 1]]) }),
      want: [
        { type: 'NamespaceContentRemaining', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: deployments.apps has 1 resource instances, pods. has 2 resource instances' },
        { type: 'NamespaceFinalizersRemaining', reason: 'SomeFinalizerRemain', message: 'Some finalizers are remaining: example.com/x in 1 resource instances' },
      ],
    },
    {
      name: 'delete errors are sorted and counted',
      totals: totals({ deleteErrors: ['z failed', 'a failed'] }),
      want: [{ type: 'NamespaceDeletionContentFailure', reason: 'ContentDeletionFailed', message: 'Failed to delete all resource types, 2 remaining: a failed, z failed' }],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(failureConditions(c.totals, T0).map(({ type, reason, message }) => ({ type, reason, message }))).toEqual(c.want);
    });
  }
});

describe('updateConditions', () => {
  it('adds all five types, the ok ones False with upstream reasons', () => {
    const { conditions, changed } = updateConditions([], [], T0);
    expect(changed).toBe(true);
    expect(conditions.map((c) => `${c.type}=${c.status}:${c.reason}`)).toEqual([
      'NamespaceDeletionDiscoveryFailure=False:ResourcesDiscovered',
      'NamespaceDeletionGroupVersionParsingFailure=False:ParsedGroupVersions',
      'NamespaceDeletionContentFailure=False:ContentDeleted',
      'NamespaceContentRemaining=False:ContentRemoved',
      'NamespaceFinalizersRemaining=False:ContentRemoved',
    ]);
  });
  it('is unchanged when nothing differs, and keeps transition times unless the status flips', () => {
    const first = updateConditions([], [], T0).conditions;
    expect(updateConditions(first, [], T1).changed).toBe(false);
    const failing = failureConditions(totals({ remainingByResource: new Map([['pods.', 1]]) }), T1);
    const { conditions, changed } = updateConditions(first, failing, T1);
    expect(changed).toBe(true);
    const remaining = conditions.find((c) => c.type === 'NamespaceContentRemaining');
    expect(remaining).toMatchObject({ status: 'True', lastTransitionTime: T1, reason: 'SomeResourcesRemain' });
    expect(conditions.find((c) => c.type === 'NamespaceDeletionDiscoveryFailure')?.lastTransitionTime).toBe(T0);
    expect(first.find((c) => c.type === 'NamespaceContentRemaining')?.status).toBe('False'); // input untouched
  });
});

describe('estimateForPods', () => {
  const pod = (grace: number, phase?: string): Pod => ({ metadata: {}, spec: { containers: [], terminationGracePeriodSeconds: grace }, ...(phase ? { status: { phase } } : {}) } as Pod);
  const cases: [string, Pod[], number][] = [
    ['no pods', [], 0],
    ['longest grace wins', [pod(30), pod(60, 'Running'), pod(5)], 60],
    ['finished pods do not count', [pod(90, 'Succeeded'), pod(120, 'Failed'), pod(10, 'Pending')], 10],
  ];
  for (const [name, pods, want] of cases) it(name, () => expect(estimateForPods(pods)).toBe(want));
});
