// The disruption controller's arithmetic, after pkg/controller/disruption/disruption_test.go
// (TestNoSelector, TestUnavailable, TestIntegerMaxUnavailable, TestReplicaSet, TestReplicationController
// with a ReplicaSet in the RC's place, TestTwoControllers, TestUpdateDisruptedPods, TestBasicFinderFunctions,
// TestStatusForUnmanagedPod) and the finders' error texts.
import { describe, expect, it } from 'vitest';
import type { Deployment, Pod, PodDisruptionBudget, ReplicaSet } from '../../api/index.ts';
import { rfc3339 } from '../../api/index.ts';
import {
  DELETION_TIMEOUT_MS, STALE_POD_DISRUPTION_TIMEOUT_MS, buildDisruptedPodMap, countHealthyPods, expectedPodCount, failSafeStatus, finders, nextStatus,
  podsForBudget, staleDisruptionCleanupInMs,
  type ControllerListers,
} from './budget.ts';

const NOW_MS = 600_000;
const labels = { foo: 'bar' };

function pdb(spec: PodDisruptionBudget['spec'], status?: PodDisruptionBudget['status']): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1', kind: 'PodDisruptionBudget',
    metadata: { name: 'pdb', namespace: 'default', uid: 'pdb-uid', generation: 1 },
    spec: { selector: { matchLabels: labels }, ...spec },
    ...(status ? { status } : {}),
  };
}

function rs(name: string, replicas: number, owner?: Deployment): ReplicaSet {
  return {
    apiVersion: 'apps/v1', kind: 'ReplicaSet',
    metadata: {
      name, namespace: 'default', uid: `${name}-uid`,
      ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true }] } : {}),
    },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [] } } },
  };
}

function deployment(name: string, replicas: number): Deployment {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'default', uid: `${name}-uid` },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [] } } },
  };
}

interface PodOpts { ready?: boolean; owner?: { kind: string; apiVersion: string; name: string; uid: string }; deleting?: boolean; labels?: Record<string, string> }
function pod(name: string, o: PodOpts = {}): Pod {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name, namespace: 'default', labels: o.labels ?? labels,
      ...(o.owner ? { ownerReferences: [{ ...o.owner, controller: true }] } : {}),
      ...(o.deleting ? { deletionTimestamp: rfc3339(NOW_MS) } : {}),
    },
    spec: { containers: [] },
    status: { phase: 'Running', conditions: o.ready === false ? [] : [{ type: 'Ready', status: 'True' }] },
  } as Pod;
}

const ownedBy = (o: ReplicaSet | Deployment | { kind: string; apiVersion: string; metadata: { name?: string; uid?: string } }): PodOpts['owner'] => ({
  kind: o.kind!, apiVersion: o.apiVersion!, name: o.metadata.name!, uid: o.metadata.uid!,
});

function listers(sets: ReplicaSet[], deployments: Deployment[] = []): ControllerListers {
  return {
    replicaSet: (ns, name) => sets.find((s) => s.metadata.namespace === ns && s.metadata.name === name),
    deployment: (ns, name) => deployments.find((d) => d.metadata.namespace === ns && d.metadata.name === name),
  };
}

/** One sync's numbers: [disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods] as VerifyPdbStatus checks them. */
function sync(budget: PodDisruptionBudget, pods: Pod[], l: ControllerListers = listers([])): [number, number, number, number] {
  const selected = podsForBudget(budget, pods);
  if ('error' in selected) throw new Error(selected.error);
  const e = expectedPodCount(budget, selected, finders(l));
  if ('error' in e) throw new Error(e.error);
  const d = buildDisruptedPodMap(selected, budget, NOW_MS);
  const current = countHealthyPods(selected, d.disruptedPods, NOW_MS);
  const s = nextStatus(budget, { currentHealthy: current, desiredHealthy: e.desiredHealthy, expectedCount: e.expectedCount, disruptedPods: d.disruptedPods }, NOW_MS)!;
  return [s.disruptionsAllowed, s.currentHealthy, s.desiredHealthy, s.expectedPods];
}

describe('which pods a budget selects (policy/v1)', () => {
  const pods = [pod('a'), pod('b', { labels: { other: 'x' } })];
  it.each([
    ['a nil selector selects none', undefined, []],
    ['an empty selector selects every pod of the namespace', {}, ['a', 'b']],
    ['matchLabels selects the matching pods', { matchLabels: labels }, ['a']],
  ])('%s', (_n, selector, expected) => {
    const budget = pdb({ minAvailable: 1 });
    if (selector === undefined) delete budget.spec.selector;
    else budget.spec.selector = selector;
    const r = podsForBudget(budget, pods);
    expect('error' in r ? r : r.map((p) => p.metadata.name)).toEqual(expected);
  });
});

describe('expected and desired counts', () => {
  const set10 = rs('rs', 10);
  it.each<[string, PodDisruptionBudget, Pod[], ControllerListers, [number, number, number, number]]>([
    // TestNoSelector: an integer minAvailable counts the pods that exist
    ['integer minAvailable 3 with one ready pod', pdb({ minAvailable: 3, selector: {} }), [pod('p')], listers([]), [0, 1, 3, 1]],
    // TestUnavailable-like: 4 ready pods against minAvailable 3
    ['integer minAvailable 3 with 4 ready pods', pdb({ minAvailable: 3 }), ['a', 'b', 'c', 'd'].map((n) => pod(n)), listers([]), [1, 4, 3, 4]],
    ['an unready pod is not healthy', pdb({ minAvailable: 1 }), [pod('a'), pod('b', { ready: false })], listers([]), [0, 1, 1, 2]],
    ['a pod being deleted is not healthy', pdb({ minAvailable: 1 }), [pod('a'), pod('b', { deleting: true })], listers([]), [0, 1, 1, 2]],
    // TestReplicaSet: 20% of a 10-replica ReplicaSet, one pod so far
    ['percentage minAvailable scales against a ReplicaSet', pdb({ minAvailable: '20%' }), [pod('p', { owner: ownedBy(set10) })], listers([set10]), [0, 1, 2, 10]],
    // TestReplicationController (with a ReplicaSet): 34% of 3 rounds up to 2
    ['34% of 3 rounds up to 2', pdb({ minAvailable: '34%' }), [0, 1, 2].map((i) => pod(`p${i}`, { owner: ownedBy(rs('rs', 3)) })), listers([rs('rs', 3)]), [1, 3, 2, 3]],
    // ... and a rogue pod with no controller only adds a healthy pod (TestStatusForUnmanagedPod: no error)
    [
      'an unmanaged pod counts as healthy but not as expected',
      pdb({ minAvailable: '34%' }), [...[0, 1, 2].map((i) => pod(`p${i}`, { owner: ownedBy(rs('rs', 3)) })), pod('rogue')], listers([rs('rs', 3)]), [2, 4, 2, 3],
    ],
    ['integer maxUnavailable 1 of a 3-replica ReplicaSet', pdb({ maxUnavailable: 1 }), [0, 1, 2].map((i) => pod(`p${i}`, { owner: ownedBy(rs('rs', 3)) })), listers([rs('rs', 3)]), [1, 3, 2, 3]],
    ['maxUnavailable 50% of 5 rounds up to 3 (desired 2)', pdb({ maxUnavailable: '50%' }), [0, 1, 2, 3, 4].map((i) => pod(`p${i}`, { owner: ownedBy(rs('rs', 5)) })), listers([rs('rs', 5)]), [3, 5, 2, 5]],
    ['maxUnavailable larger than the scale desires 0', pdb({ maxUnavailable: 5 }), [pod('p', { owner: ownedBy(rs('rs', 2)) })], listers([rs('rs', 2)]), [1, 1, 0, 2]],
    ['neither field: nothing expected, nothing allowed', pdb({}), [pod('a'), pod('b')], listers([]), [0, 2, 0, 0]],
    ['no pods: nothing allowed (TestStatusForUnmanagedPod)', pdb({ minAvailable: '28%' }), [], listers([]), [0, 0, 0, 0]],
  ])('%s', (_n, budget, pods, l, expected) => {
    expect(sync(budget, pods, l)).toEqual(expected);
  });

  it('a Deployment\'s ReplicaSets count once, at the Deployment\'s replicas', () => {
    const d = deployment('web', 4);
    const old = rs('web-old', 1, d);
    const cur = rs('web-new', 3, d);
    const pods = [pod('o1', { owner: ownedBy(old) }), ...[1, 2, 3].map((i) => pod(`n${i}`, { owner: ownedBy(cur) }))];
    expect(sync(pdb({ minAvailable: '50%' }), pods, listers([old, cur], [d]))).toEqual([2, 4, 2, 4]);
  });

  it('TestTwoControllers: 28% of two collections of 11 is 7', () => {
    const d = deployment('d', 11);
    const dSet = rs('d-rs', 11, d);
    const own = rs('own', 11);
    const pods = [
      ...Array.from({ length: 11 }, (_, i) => pod(`quux${i}`, { owner: ownedBy(own), ready: i >= 6 })),
      ...Array.from({ length: 11 }, (_, i) => pod(`quuux${i}`, { owner: ownedBy(dSet), ready: i >= 7 })),
    ];
    expect(sync(pdb({ minAvailable: '28%' }), pods, listers([own, dSet], [d]))).toEqual([2, 9, 7, 22]);
  });

  it('a ReplicaSet whose Deployment is gone still counts through its scale', () => {
    const d = deployment('gone', 9);
    const set = rs('gone-rs', 2, d);
    expect(sync(pdb({ minAvailable: '50%' }), [pod('a', { owner: ownedBy(set) })], listers([set]))).toEqual([0, 1, 1, 2]);
  });

  it.each([
    [
      'a pod whose ReplicaSet is not in the cache',
      pod('lost', { owner: { kind: 'ReplicaSet', apiVersion: 'apps/v1', name: 'missing', uid: 'x' } }),
      { error: 'found no controllers for pod "lost"', noControllers: true },
    ],
    [
      'a DaemonSet pod',
      pod('ds-x', { owner: { kind: 'DaemonSet', apiVersion: 'apps/v1', name: 'ds', uid: 'ds-uid' } }),
      { error: 'daemonsets.apps does not implement the scale subresource' },
    ],
    [
      'a mirror pod (controlled by its Node)',
      pod('etcd-cp', { owner: { kind: 'Node', apiVersion: 'v1', name: 'cp', uid: 'node-uid' } }),
      { error: 'nodes does not implement the scale subresource' },
    ],
    [
      'a kind the API does not serve',
      pod('cr', { owner: { kind: 'Widget', apiVersion: 'example.com/v1', name: 'w', uid: 'w-uid' } }),
      { error: 'found no controllers for pod "cr"', noControllers: true },
    ],
    [
      'a ReplicaSet in another API group (TestBasicFinderFunctions: invalid group)',
      pod('inv', { owner: { kind: 'ReplicaSet', apiVersion: 'invalid/v1', name: 'rs', uid: 'rs-uid' } }),
      { error: 'found no controllers for pod "inv"', noControllers: true },
    ],
  ])('a percentage fails for %s', (_n, p, expected) => {
    expect(expectedPodCount(pdb({ minAvailable: '50%' }), [p], finders(listers([rs('rs', 3)])))).toEqual(expected);
  });

  it('an integer minAvailable never looks for controllers', () => {
    const p = pod('ds-x', { owner: { kind: 'DaemonSet', apiVersion: 'apps/v1', name: 'ds', uid: 'ds-uid' } });
    expect(expectedPodCount(pdb({ minAvailable: 1 }), [p], finders(listers([])))).toEqual({ expectedCount: 1, desiredHealthy: 1, unmanagedPods: [] });
  });
});

describe('disrupted pods (TestUpdateDisruptedPods)', () => {
  const at = (ms: number): string => rfc3339(ms);
  const budget = pdb({ minAvailable: 1 }, {
    disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0,
    disruptedPods: { p1: at(NOW_MS), p2: at(NOW_MS - 5 * 60_000), p3: at(NOW_MS), notthere: at(NOW_MS) },
  });
  const pods = [pod('p1', { deleting: true }), pod('p2'), pod('p3')];

  it('keeps only recent entries of pods still there and not being deleted', () => {
    const d = buildDisruptedPodMap(pods, budget, NOW_MS);
    expect(d.disruptedPods).toEqual({ p3: at(NOW_MS) });
    expect(d.notDeleted.map((p) => p.metadata.name)).toEqual(['p2']);
    expect(d.recheckAtMs).toBe(NOW_MS + DELETION_TIMEOUT_MS);
    expect(sync(budget, pods)).toEqual([0, 1, 1, 3]);
    expect(nextStatus(budget, { currentHealthy: 1, desiredHealthy: 1, expectedCount: 3, disruptedPods: d.disruptedPods }, NOW_MS)?.disruptedPods).toEqual({ p3: at(NOW_MS) });
  });

  it('an entry counts the pod as unhealthy until it expires', () => {
    const recent = pdb({ minAvailable: 1 }, { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, disruptedPods: { p3: at(NOW_MS - 60_000) } });
    const d = buildDisruptedPodMap([pod('p3')], recent, NOW_MS);
    expect(countHealthyPods([pod('p3')], d.disruptedPods, NOW_MS)).toBe(0);
    expect(d.recheckAtMs).toBe(NOW_MS + 60_000);
    const later = NOW_MS + 60_001;
    expect(buildDisruptedPodMap([pod('p3')], recent, later).disruptedPods).toEqual({});
    expect(countHealthyPods([pod('p3')], {}, later)).toBe(1);
  });
});

describe('status', () => {
  const counts = { currentHealthy: 3, desiredHealthy: 2, expectedCount: 3, disruptedPods: {} };

  it('writes the counts, the observed generation and DisruptionAllowed True/SufficientPods', () => {
    expect(nextStatus(pdb({ minAvailable: 2 }), counts, NOW_MS)).toEqual({
      disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, observedGeneration: 1,
      conditions: [{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '', observedGeneration: 1, lastTransitionTime: rfc3339(NOW_MS) }],
    });
  });

  it('writes nothing when the stored status is already right', () => {
    const first = nextStatus(pdb({ minAvailable: 2 }), counts, NOW_MS)!;
    expect(nextStatus(pdb({ minAvailable: 2 }, first), counts, NOW_MS + 1000)).toBeUndefined();
  });

  it('a new generation is written even with the same counts', () => {
    const first = nextStatus(pdb({ minAvailable: 2 }), counts, NOW_MS)!;
    const bumped = pdb({ minAvailable: 2 }, first);
    bumped.metadata.generation = 2;
    expect(nextStatus(bumped, counts, NOW_MS)?.observedGeneration).toBe(2);
  });

  it('flips the condition to False/InsufficientPods, moving lastTransitionTime', () => {
    const first = nextStatus(pdb({ minAvailable: 2 }), counts, NOW_MS)!;
    const next = nextStatus(pdb({ minAvailable: 2 }, first), { ...counts, currentHealthy: 2 }, NOW_MS + 5000)!;
    expect(next.disruptionsAllowed).toBe(0);
    expect(next.conditions).toEqual([
      { type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', observedGeneration: 1, lastTransitionTime: rfc3339(NOW_MS + 5000) },
    ]);
  });

  it('failSafe allows nothing, keeps the counts and says why', () => {
    const first = nextStatus(pdb({ minAvailable: '50%' }), counts, NOW_MS)!;
    const s = failSafeStatus(pdb({ minAvailable: '50%' }, first), 'daemonsets.apps does not implement the scale subresource', NOW_MS + 1000);
    expect(s).toMatchObject({ disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, observedGeneration: 1 });
    expect(s.conditions).toEqual([
      { type: 'DisruptionAllowed', status: 'False', reason: 'SyncFailed', message: 'daemonsets.apps does not implement the scale subresource', observedGeneration: 1, lastTransitionTime: rfc3339(NOW_MS + 1000) },
    ]);
  });
});

describe('stale DisruptionTarget conditions (TestStalePodDisruption)', () => {
  const marked = (o: { status?: 'True' | 'False'; reason?: string; agoMs?: number; deleting?: boolean; phase?: string }): Pod => {
    const p = pod('victim', { deleting: o.deleting ?? false });
    p.status = {
      phase: (o.phase ?? 'Running') as 'Running',
      conditions: [{ type: 'DisruptionTarget', status: o.status ?? 'True', reason: o.reason ?? 'PreemptionByScheduler', lastTransitionTime: rfc3339(NOW_MS - (o.agoMs ?? 0)) }],
    };
    return p;
  };
  it.each<[string, Pod, number | undefined]>([
    ['a fresh condition waits the full timeout', marked({}), STALE_POD_DISRUPTION_TIMEOUT_MS],
    ['a condition set 90s ago waits 30s more', marked({ agoMs: 90_000 }), 30_000],
    ['a condition older than the timeout is stale now', marked({ agoMs: 5 * 60_000 }), 0],
    ['a pod being deleted is not stale', marked({ deleting: true }), undefined],
    ['a False condition is not stale', marked({ status: 'False' }), undefined],
    ["the kubelet's own condition is never stale", marked({ reason: 'TerminationByKubelet', agoMs: 5 * 60_000 }), undefined],
    ['a terminal pod is left alone', marked({ phase: 'Failed', agoMs: 5 * 60_000 }), undefined],
    ['a pod without the condition', pod('plain'), undefined],
  ])('%s', (_n, p, expected) => {
    expect(staleDisruptionCleanupInMs(p, NOW_MS)).toBe(expected);
  });
});
