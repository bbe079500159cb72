// Hidden grading suite for the rolling-update lab. Behaviour only: the fenceposts and their rounding,
// how far the new ReplicaSet may grow, which old ReplicaSets shrink and by how much, whole rollouts
// step by step, and a differential property test against the simulation's own Deployment controller
// arithmetic (runtime/controllers rollingUpdateArithmetic).
// Tables ported from pkg/controller/deployment/util/deployment_util_test.go (TestResolveFenceposts,
// TestNewRSNewReplicas, TestMaxUnavailable) and pkg/controller/deployment/rolling_test.go
// (TestDeploymentController_reconcileNewReplicaSet, _reconcileOldReplicaSets,
// _cleanupUnhealthyReplicas, _scaleDownOldReplicaSetsForRollingUpdate), where upstream's nil
// maxSurge / maxUnavailable is written as 0.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Deployment, IntOrString, ReplicaSet } from '../../runtime/api/index.ts';
import { rollingUpdateArithmetic as reference, type ReplicaSetScale } from '../../runtime/controllers/index.ts';
import { maxSurge, maxUnavailable, newRSNewReplicas, reconcileNewReplicaSet, reconcileOldReplicaSets, resolveFenceposts } from '@lab/submission';

// ---------------------------------------------------------------- builders

function deployment(replicas: number, surge: IntOrString, unavailable: IntOrString, type: 'RollingUpdate' | 'Recreate' = 'RollingUpdate'): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', uid: 'd-1' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } },
      strategy: type === 'Recreate' ? { type } : { type, rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } },
    },
  };
}

/** A ReplicaSet with `replicas` Pods of which `available` are available; null: no status yet. */
function replicaSet(name: string, replicas: number, available: number | null, created = '2026-01-01T00:00:00Z'): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default', creationTimestamp: created },
    spec: { replicas, selector: { matchLabels: { app: 'web', 'pod-template-hash': name } } },
    ...(available === null ? {} : { status: { replicas, availableReplicas: available } }),
  };
}

const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-02T00:00:00Z';
const T2 = '2026-01-03T00:00:00Z';
const T3 = '2026-01-04T00:00:00Z';

const describeRS = (rs: ReplicaSet) => `${rs.metadata.name} ${rs.spec.replicas}/${rs.status?.availableReplicas ?? 'no status'}`;

/** The learner's scale-downs as a plain, sorted list (each ReplicaSet once, in any order). */
function scaleDowns(d: Deployment, oldRSs: ReplicaSet[], newRS: ReplicaSet): ReplicaSetScale[] {
  const raw: unknown = reconcileOldReplicaSets(d, structuredClone(oldRSs), structuredClone(newRS));
  const list = structuredClone(raw) as ReplicaSetScale[];
  if (!Array.isArray(list)) throw new Error(`reconcileOldReplicaSets must return an array of { name, replicas }, got ${JSON.stringify(raw)}`);
  const names = list.map((s) => s.name);
  if (new Set(names).size !== names.length) throw new Error(`reconcileOldReplicaSets listed a ReplicaSet twice: ${JSON.stringify(list)} (give each its final size once)`);
  return list.map((s) => ({ name: s.name, replicas: s.replicas })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const sortScales = (list: ReplicaSetScale[]) => [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
const showScales = (list: ReplicaSetScale[]) => (list.length === 0 ? 'no change' : list.map((s) => `${s.name} -> ${s.replicas}`).join(', '));

// ---------------------------------------------------------------- the fenceposts

describe('resolveFenceposts', () => {
  const table: [IntOrString, IntOrString, number, number, number][] = [
    // TestResolveFenceposts
    ['0%', '0%', 0, 0, 1],
    ['39%', '39%', 10, 4, 3],
    [0, '39%', 10, 0, 3],
    ['39%', 0, 10, 4, 0],
    [0, 0, 10, 0, 1],
    // the chapter's table, 25% and 25%
    ['25%', '25%', 1, 1, 0],
    ['25%', '25%', 3, 1, 0],
    ['25%', '25%', 4, 1, 1],
    ['25%', '25%', 10, 3, 2],
    ['25%', '25%', 0, 0, 1],
    [0, '25%', 3, 0, 1],
    // absolute numbers are taken as they are, even above the replica count
    [2, 3, 10, 2, 3],
    [5, 7, 3, 5, 7],
    // exact arithmetic: 7% and 29% of 100 are 7 and 29, not 8 and 28
    ['7%', '29%', 100, 7, 29],
    ['57%', '58%', 100, 57, 58],
    ['150%', '100%', 10, 15, 10],
    ['1%', '99%', 200, 2, 198],
  ];

  it.each(table)('maxSurge %s, maxUnavailable %s of %i replicas: surge %i, unavailable %i', (surge, unavailable, desired, wantSurge, wantUnavailable) => {
    expect(structuredClone(resolveFenceposts(surge, unavailable, desired))).toEqual({ surge: wantSurge, unavailable: wantUnavailable });
  });
});

describe('maxSurge and maxUnavailable', () => {
  it.each([
    [1, 1, 0],
    [3, 1, 0],
    [4, 1, 1],
    [10, 3, 2],
  ])('25%% and 25%% of %i replicas: at most %i extra Pods, %i unavailable', (replicas, surge, unavailable) => {
    const d = deployment(replicas, '25%', '25%');
    expect(maxSurge(d), 'maxSurge').toBe(surge);
    expect(maxUnavailable(d), 'maxUnavailable').toBe(unavailable);
  });

  it('allows one unavailable Pod when both round to zero', () => {
    const d = deployment(3, 0, '25%');
    expect(maxSurge(d), 'maxSurge').toBe(0);
    expect(maxUnavailable(d), 'maxUnavailable').toBe(1);
  });

  it('never allows more unavailable Pods than there are replicas (TestMaxUnavailable)', () => {
    expect(maxUnavailable(deployment(3, 1, 5))).toBe(3);
    expect(maxUnavailable(deployment(10, 1, '100%'))).toBe(10);
  });

  it('allows no unavailable Pod for a Deployment of 0 replicas', () => {
    expect(maxUnavailable(deployment(0, '25%', '25%'))).toBe(0);
    expect(maxUnavailable(deployment(0, 0, 3))).toBe(0);
  });

  it('gives 0 and 0 for the Recreate strategy', () => {
    const d = deployment(10, '25%', '25%', 'Recreate');
    expect(maxSurge(d), 'maxSurge').toBe(0);
    expect(maxUnavailable(d), 'maxUnavailable').toBe(0);
  });

  it('does not clamp the surge', () => {
    expect(maxSurge(deployment(2, 5, 0))).toBe(5);
  });
});

// ---------------------------------------------------------------- the new ReplicaSet

describe('newRSNewReplicas', () => {
  // TestNewRSNewReplicas: allRSs holds one other ReplicaSet of 5 (the new one is not in the list there)
  it.each([
    ['can not scale up - to newRSReplicas', 'RollingUpdate' as const, 1, 5, 1, 5],
    ['scale up - to depReplicas', 'RollingUpdate' as const, 6, 2, 10, 6],
    ['recreate - to depReplicas', 'Recreate' as const, 3, 1, 1, 3],
  ])('%s', (_name, type, replicas, newReplicas, surge, want) => {
    const d = deployment(replicas, surge, 1, type);
    const newRS = replicaSet('web-new', newReplicas, 0, T1);
    expect(newRSNewReplicas(d, [replicaSet('rs5', 5, 5)], newRS)).toBe(want);
  });

  const table: [string, Deployment, ReplicaSet[], number, number][] = [
    ['the whole surge at once: 10 replicas, 25% -> 3', deployment(10, '25%', '25%'), [replicaSet('web-old', 10, 10)], 0, 3],
    ['what the old ReplicaSet freed: 13 - (8 + 3) = 2 more', deployment(10, '25%', '25%'), [replicaSet('web-old', 8, 8)], 3, 5],
    ['nothing while the Pod count is at the maximum', deployment(10, '25%', '25%'), [replicaSet('web-old', 8, 8)], 5, 5],
    ['nothing above the maximum either', deployment(10, '25%', '25%'), [replicaSet('web-old', 10, 10)], 5, 5],
    ['never more than spec.replicas', deployment(4, 10, 0), [replicaSet('web-old', 1, 1)], 1, 4],
    ['counts every old ReplicaSet', deployment(10, 2, 2), [replicaSet('web-a', 4, 4, T0), replicaSet('web-b', 5, 5, T1)], 0, 3],
    ['with no surge, only the room old ReplicaSets left', deployment(3, 0, 1), [replicaSet('web-old', 2, 2)], 0, 1],
  ];

  it.each(table)('%s', (_name, d, oldRSs, newReplicas, want) => {
    const newRS = replicaSet('web-new', newReplicas, 0, T3);
    expect(newRSNewReplicas(d, [...oldRSs, newRS], newRS), `newRSNewReplicas with ${[...oldRSs, newRS].map(describeRS).join(', ')}`).toBe(want);
  });
});

describe('reconcileNewReplicaSet', () => {
  // TestDeploymentController_reconcileNewReplicaSet (maxUnavailable 0)
  const table: [string, number, IntOrString, number, number, number][] = [
    ['should not scale up without surge', 10, 0, 10, 0, 0],
    ['scales up by the surge', 10, 2, 10, 0, 2],
    ['scales up into the room the old ReplicaSet left', 10, 2, 5, 0, 7],
    ['should not scale up past the surge', 10, 2, 10, 2, 2],
    ['should scale down to spec.replicas', 2, 2, 2, 4, 2],
    ['leaves a full new ReplicaSet alone', 5, 2, 0, 5, 5],
  ];

  it.each(table)('%s', (_name, replicas, surge, oldReplicas, newReplicas, want) => {
    const d = deployment(replicas, surge, 0);
    const oldRS = replicaSet('web-old', oldReplicas, oldReplicas, T0);
    const newRS = replicaSet('web-new', newReplicas, 0, T1);
    expect(reconcileNewReplicaSet(d, [oldRS, newRS], newRS), `new ReplicaSet size with ${describeRS(oldRS)}, ${describeRS(newRS)}`).toBe(want);
  });

  it('scales an oversized new ReplicaSet down to spec.replicas whatever the surge', () => {
    const newRS = replicaSet('web-new', 9, 9, T1);
    expect(reconcileNewReplicaSet(deployment(4, '50%', 0), [newRS], newRS)).toBe(4);
  });
});

// ---------------------------------------------------------------- the old ReplicaSets

describe('reconcileOldReplicaSets', () => {
  // TestDeploymentController_reconcileOldReplicaSets: one old and one new ReplicaSet, maxSurge 0
  const upstream: [string, number, IntOrString, number, number, number, number, number | null][] = [
    ['maxUnavailable resolves to 1: one old Pod goes', 10, 0, 10, 0, 10, 0, 9],
    ['scales down by maxUnavailable', 10, 2, 10, 0, 10, 0, 8],
    ['expect unhealthy replicas from old replica sets been cleaned up', 10, 2, 10, 0, 8, 0, 8],
    ['expect 1 unhealthy replica from old replica sets been cleaned up, and 1 ready pod been scaled down', 10, 2, 10, 0, 9, 0, 8],
    ['the unavailable pods from the newRS would not make us scale down old RSs in a further step', 10, 2, 8, 2, 8, 0, null],
  ];

  it.each(upstream)('%s', (_name, replicas, unavailable, oldReplicas, newReplicas, oldReady, newReady, want) => {
    const d = deployment(replicas, 0, unavailable);
    const oldRS = replicaSet('foo-v2', oldReplicas, oldReady, T0);
    const newRS = replicaSet('foo-v3', newReplicas, newReady, T1);
    const expected = want === null ? [] : [{ name: 'foo-v2', replicas: want }];
    expect(scaleDowns(d, [oldRS], newRS), `scale-downs with ${describeRS(oldRS)} and new ${describeRS(newRS)}`).toEqual(expected);
  });

  // TestDeploymentController_cleanupUnhealthyReplicas: 10 old Pods, 8 ready, 2 unhealthy, with room
  // (maxScaledDown = all Pods - minAvailable - unavailable new Pods) for 1, 3 or 0 of them
  it.each([
    ['cleans up only as many unhealthy Pods as the room allows (room 1)', 1, 0, 0, [{ name: 'web-old', replicas: 9 }]],
    ['cleans up every unhealthy Pod, then scales down the availability above the minimum (room 3)', 3, 0, 0, [{ name: 'web-old', replicas: 7 }]],
    ['cleans up nothing without room, even with unhealthy Pods (room 0)', 2, 2, 0, []],
  ] as [string, number, number, number, ReplicaSetScale[]][])('%s', (_name, unavailable, newReplicas, newReady, want) => {
    const d = deployment(10, 0, unavailable);
    const oldRS = replicaSet('web-old', 10 - newReplicas, 8 - newReplicas, T0);
    const newRS = replicaSet('web-new', newReplicas, newReady, T1);
    expect(scaleDowns(d, [oldRS], newRS), `scale-downs with ${describeRS(oldRS)}, new ${describeRS(newRS)}`).toEqual(want);
  });

  // TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate, through the whole reconcile
  it.each([
    ['scales down by the availability above the minimum (maxUnavailable 0 resolves to 1)', 0, 10, 10, [{ name: 'web-old', replicas: 9 }]],
    ['scales down to the minimum', 2, 10, 10, [{ name: 'web-old', replicas: 8 }]],
    ['the unhealthy Pods are cleaned up and nothing available goes', 2, 8, 10, [{ name: 'web-old', replicas: 8 }]],
    ['nothing to scale down', 2, 10, 0, []],
    ['at most the room: 1 available of 10 cleans up 2 unhealthy Pods', 2, 1, 10, [{ name: 'web-old', replicas: 8 }]],
  ] as [string, number, number, number, ReplicaSetScale[]][])('%s', (_name, unavailable, ready, oldReplicas, want) => {
    const d = deployment(10, 0, unavailable);
    const oldRS = replicaSet('web-old', oldReplicas, Math.min(ready, oldReplicas), T0);
    expect(scaleDowns(d, [oldRS], replicaSet('web-new', 0, null, T1)), `scale-downs with ${describeRS(oldRS)}`).toEqual(want);
  });

  it('scales the oldest ReplicaSet down first', () => {
    const d = deployment(10, 0, 3);
    const olds = [replicaSet('web-b', 5, 5, T1), replicaSet('web-a', 5, 5, T0)];
    expect(scaleDowns(d, olds, replicaSet('web-c', 0, null, T2))).toEqual([{ name: 'web-a', replicas: 2 }]);
  });

  it('breaks a creation-time tie by name', () => {
    const d = deployment(10, 0, 3);
    const olds = [replicaSet('web-z', 5, 5, T0), replicaSet('web-m', 5, 5, T0)];
    expect(scaleDowns(d, olds, replicaSet('web-new', 0, null, T2))).toEqual([{ name: 'web-m', replicas: 2 }]);
  });

  it('moves on to the next ReplicaSet when the oldest runs out', () => {
    const d = deployment(10, 0, 4);
    const olds = [replicaSet('web-a', 1, 1, T0), replicaSet('web-b', 9, 9, T1)];
    expect(scaleDowns(d, olds, replicaSet('web-c', 0, null, T2))).toEqual([
      { name: 'web-a', replicas: 0 },
      { name: 'web-b', replicas: 6 },
    ]);
  });

  it('cleans up unhealthy Pods of a newer ReplicaSet before scaling down an older healthy one', () => {
    // minAvailable 8, all 10 old, room 2: web-b's 2 unhealthy Pods go first, nothing available is left above 8
    const d = deployment(10, 0, 2);
    const olds = [replicaSet('web-a', 5, 5, T0), replicaSet('web-b', 5, 3, T1)];
    expect(scaleDowns(d, olds, replicaSet('web-c', 0, null, T2))).toEqual([{ name: 'web-b', replicas: 3 }]);
  });

  it('gives a ReplicaSet cleaned up and then scaled down its final size once', () => {
    // maxUnavailable 4: minAvailable 6, room 4. Cleanup: web-a 6 -> 5 (one unhealthy). Available 5 + 4 = 9: 3 more go, web-a first
    const d = deployment(10, 0, 4);
    const olds = [replicaSet('web-a', 6, 5, T0), replicaSet('web-b', 4, 4, T1)];
    expect(scaleDowns(d, olds, replicaSet('web-c', 0, null, T2))).toEqual([{ name: 'web-a', replicas: 2 }]);
  });

  it('counts a ReplicaSet without status as having no available Pod', () => {
    const d = deployment(4, 1, 1);
    const olds = [replicaSet('web-a', 2, 2, T0), replicaSet('web-b', 2, null, T1)];
    // room: 4 + 1 - 3 - 1 = 1 -> cleanup web-b 2 -> 1; available 2 + 0 = 2 < 3: nothing more
    expect(scaleDowns(d, olds, replicaSet('web-c', 1, 0, T2))).toEqual([{ name: 'web-b', replicas: 1 }]);
  });

  it('does nothing without old Pods', () => {
    expect(scaleDowns(deployment(3, 1, 0), [replicaSet('web-a', 0, 0, T0)], replicaSet('web-b', 3, 3, T1))).toEqual([]);
    expect(scaleDowns(deployment(3, 1, 0), [], replicaSet('web-b', 3, 3, T1))).toEqual([]);
  });

  it('does not modify its arguments', () => {
    const d = deployment(10, 0, 4);
    const olds = [replicaSet('web-a', 6, 5, T0), replicaSet('web-b', 4, 4, T1)];
    const newRS = replicaSet('web-c', 0, null, T2);
    const before = structuredClone({ d, olds, newRS });
    reconcileOldReplicaSets(d, olds, newRS);
    reconcileNewReplicaSet(d, [...olds, newRS], newRS);
    expect({ d, olds, newRS }).toEqual(before);
  });
});

// ---------------------------------------------------------------- whole rollouts

interface WorldRS {
  name: string;
  created: string;
  replicas: number;
  available: number | null;
}

const toRS = (w: WorldRS) => replicaSet(w.name, w.replicas, w.available, w.created);

/** One sync of rolloutRolling: scale the new ReplicaSet up if it may, otherwise the old ones down. */
type Step = { kind: 'new'; replicas: number } | { kind: 'old'; scales: ReplicaSetScale[] } | { kind: 'none' };

function learnerStep(d: Deployment, olds: WorldRS[], fresh: WorldRS): Step {
  const oldRSs = olds.map(toRS);
  const newRS = toRS(fresh);
  const up = reconcileNewReplicaSet(d, structuredClone([...oldRSs, newRS]), structuredClone(newRS));
  if (up !== fresh.replicas) return { kind: 'new', replicas: up };
  const downs = scaleDowns(d, oldRSs, newRS);
  return downs.length > 0 ? { kind: 'old', scales: downs } : { kind: 'none' };
}

function referenceStep(d: Deployment, olds: WorldRS[], fresh: WorldRS): Step {
  const oldRSs = olds.map(toRS);
  const newRS = toRS(fresh);
  const up = reference.reconcileNewReplicaSet(d, [...oldRSs, newRS], newRS);
  if (up !== fresh.replicas) return { kind: 'new', replicas: up };
  const downs = sortScales(reference.reconcileOldReplicaSets(d, oldRSs, newRS));
  return downs.length > 0 ? { kind: 'old', scales: downs } : { kind: 'none' };
}

const showStep = (s: Step) => (s.kind === 'new' ? `scale the new ReplicaSet to ${s.replicas}` : s.kind === 'old' ? `scale down ${showScales(s.scales)}` : 'no change');

function apply(step: Step, olds: WorldRS[], fresh: WorldRS): void {
  if (step.kind === 'new') fresh.replicas = step.replicas;
  if (step.kind === 'old') for (const s of step.scales) olds.find((o) => o.name === s.name)!.replicas = s.replicas;
  // a ReplicaSet that shrinks deletes its unavailable Pods first
  for (const rs of [...olds, fresh]) if (rs.available !== null) rs.available = Math.min(rs.available, rs.replicas);
}

describe('a rollout, step by step', () => {
  it('3 replicas, 25% and 25%: one Pod at a time (the chapter\'s table)', () => {
    const d = deployment(3, '25%', '25%');
    const old: WorldRS = { name: 'web-cc68bb665', created: T0, replicas: 3, available: 3 };
    const fresh: WorldRS = { name: 'web-5cd57cb5bd', created: T1, replicas: 0, available: 0 };
    const seen: string[] = [];
    for (let i = 0; i < 10; i++) {
      const step = learnerStep(d, [old], fresh);
      if (step.kind === 'none') break;
      apply(step, [old], fresh);
      fresh.available = fresh.replicas; // the new Pods become ready before the next sync
      seen.push(`${old.replicas}/${fresh.replicas}`);
    }
    expect(seen, 'old/new sizes after each step').toEqual(['3/1', '2/1', '2/2', '1/2', '1/3', '0/3']);
  });

  it('10 replicas, 25% and 25%: new to 3, old to 8, new to 5, then wait', () => {
    const d = deployment(10, '25%', '25%');
    const old: WorldRS = { name: 'web-old', created: T0, replicas: 10, available: 10 };
    const fresh: WorldRS = { name: 'web-new', created: T1, replicas: 0, available: 0 };
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const step = learnerStep(d, [old], fresh);
      seen.push(showStep(step));
      apply(step, [old], fresh);
    }
    expect(seen).toEqual(['scale the new ReplicaSet to 3', 'scale down web-old -> 8', 'scale the new ReplicaSet to 5', 'no change']);
  });

  it('a new image that never becomes ready stops after the surge Pod (maxUnavailable 0)', () => {
    const d = deployment(3, '25%', 0);
    const old: WorldRS = { name: 'web-old', created: T0, replicas: 3, available: 3 };
    const fresh: WorldRS = { name: 'web-new', created: T1, replicas: 0, available: null };
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const step = learnerStep(d, [old], fresh);
      seen.push(showStep(step));
      apply(step, [old], fresh);
    }
    expect(seen).toEqual(['scale the new ReplicaSet to 1', 'no change', 'no change']);
  });

  it('a rollback removes the broken Pods first (upstream\'s "case 1")', () => {
    // 10 replicas, maxSurge 3, maxUnavailable 2: the crashlooping v2 has 5 Pods, none available; v1 has 8, 7 available
    const d = deployment(10, 3, 2);
    const v2: WorldRS = { name: 'web-v2', created: T1, replicas: 5, available: 0 };
    const v1: WorldRS = { name: 'web-v1', created: T0, replicas: 8, available: 7 };
    // rolled back: v1 is the new ReplicaSet again, v2 the old one
    expect(showStep(learnerStep(d, [v2], v1))).toBe('scale down web-v2 -> 1');
  });
});

// ---------------------------------------------------------------- differential property tests

/** Fails a property with a message in the learner's terms (no stack trace: the counterexample is the story). */
function mismatch(message: string): never {
  const error = new Error(message);
  error.stack = `mismatch: ${message}`;
  throw error;
}

const intOrPercent = (maxInt: number, maxPercent: number): fc.Arbitrary<IntOrString> =>
  fc.oneof(fc.integer({ min: 0, max: maxInt }), fc.integer({ min: 0, max: maxPercent }).map((p) => `${p}%`));
const surgeArb = intOrPercent(250, 200);
const unavailableArb = intOrPercent(250, 100);
const CREATED = [T0, T1, T2, T3];
/** Old ReplicaSet names, in an order that is not their alphabetical one (ties on creation time sort by name). */
const OLD_NAMES = ['web-q', 'web-c', 'web-x', 'web-f'];

const deploymentArb = fc.record({
  replicas: fc.integer({ min: 0, max: 200 }),
  surge: surgeArb,
  unavailable: unavailableArb,
  recreate: fc.boolean(),
});

/** A ReplicaSet spec: size, available Pods (or no status), creation time from a few (ties happen). */
const rsArb = fc
  .record({ replicas: fc.integer({ min: 0, max: 250 }), availableShare: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined, freq: 6 }), created: fc.integer({ min: 0, max: 3 }) })
  .map(({ replicas, availableShare, created }) => ({ replicas, available: availableShare === undefined ? null : Math.floor(replicas * availableShare), created: CREATED[created]! }));

const stateArb = fc.record({
  d: deploymentArb,
  olds: fc.array(rsArb, { maxLength: 4 }),
  fresh: rsArb,
});

type StateSpec = typeof stateArb extends fc.Arbitrary<infer T> ? T : never;

function buildState(spec: StateSpec, rolling = false): { d: Deployment; olds: WorldRS[]; fresh: WorldRS } {
  const d = deployment(spec.d.replicas, spec.d.surge, spec.d.unavailable, spec.d.recreate && !rolling ? 'Recreate' : 'RollingUpdate');
  const olds = spec.olds.map((o, i): WorldRS => ({ name: OLD_NAMES[i]!, created: o.created, replicas: o.replicas, available: o.available }));
  // the new ReplicaSet is the newest
  const fresh: WorldRS = { name: 'web-new', created: '2026-02-01T00:00:00Z', replicas: spec.fresh.replicas, available: spec.fresh.available };
  return { d, olds, fresh };
}

const describeState = (d: Deployment, olds: WorldRS[], fresh: WorldRS) => {
  const r = d.spec.strategy?.rollingUpdate;
  const strategy = d.spec.strategy?.type === 'Recreate' ? 'Recreate' : `maxSurge ${JSON.stringify(r?.maxSurge)}, maxUnavailable ${JSON.stringify(r?.maxUnavailable)}`;
  const rs = (w: WorldRS) => `${w.name} (created ${w.created.slice(0, 10)}) ${w.replicas} Pods, ${w.available ?? 'no status'} available`;
  return `Deployment of ${d.spec.replicas} replicas, ${strategy}; new ${rs(fresh)}; old: ${olds.length ? olds.map(rs).join('; ') : 'none'}`;
};

const SEEDS = [4242, 17, 90210];
const RUNS = { numRuns: 300, includeErrorInReport: true };

describe('matches the Deployment controller on generated states', () => {
  it.each(SEEDS)('resolveFenceposts over replicas 0..200, integers and percentages (seed %i)', (seed) => {
    fc.assert(
      fc.property(surgeArb, unavailableArb, fc.integer({ min: 0, max: 200 }), (surge, unavailable, desired) => {
        const want = reference.resolveFenceposts(surge, unavailable, desired);
        const got = structuredClone(resolveFenceposts(surge, unavailable, desired));
        if (got?.surge !== want.surge || got?.unavailable !== want.unavailable) {
          mismatch(`resolveFenceposts(${JSON.stringify(surge)}, ${JSON.stringify(unavailable)}, ${desired}): expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
        }
      }),
      { seed, ...RUNS },
    );
  });

  it.each(SEEDS)('maxSurge, maxUnavailable and newRSNewReplicas (seed %i)', (seed) => {
    fc.assert(
      fc.property(stateArb, (spec) => {
        const { d, olds, fresh } = buildState(spec);
        const all = [...olds, fresh].map(toRS);
        const where = describeState(d, olds, fresh);
        const pairs: [string, unknown, unknown][] = [
          ['maxSurge', reference.maxSurge(d), maxSurge(d)],
          ['maxUnavailable', reference.maxUnavailable(d), maxUnavailable(d)],
          ['newRSNewReplicas', reference.newRSNewReplicas(d, all, toRS(fresh)), newRSNewReplicas(d, structuredClone(all), toRS(fresh))],
        ];
        for (const [name, want, got] of pairs) if (got !== want) mismatch(`${name} for ${where}: expected ${want}, got ${got}`);
      }),
      { seed, ...RUNS },
    );
  });

  it.each(SEEDS)('reconcileNewReplicaSet and reconcileOldReplicaSets (seed %i)', (seed) => {
    fc.assert(
      fc.property(stateArb, (spec) => {
        const { d, olds, fresh } = buildState(spec, true);
        const oldRSs = olds.map(toRS);
        const newRS = toRS(fresh);
        const where = describeState(d, olds, fresh);
        const wantUp = reference.reconcileNewReplicaSet(d, [...oldRSs, newRS], newRS);
        const gotUp = reconcileNewReplicaSet(d, structuredClone([...oldRSs, newRS]), structuredClone(newRS));
        if (gotUp !== wantUp) mismatch(`reconcileNewReplicaSet for ${where}: expected ${wantUp}, got ${gotUp}`);
        const wantDown = showScales(sortScales(reference.reconcileOldReplicaSets(d, oldRSs, newRS)));
        const gotDown = showScales(scaleDowns(d, oldRSs, newRS));
        if (gotDown !== wantDown) mismatch(`reconcileOldReplicaSets for ${where}: expected ${wantDown}, got ${gotDown}`);
      }),
      { seed, ...RUNS },
    );
  });

  // A whole rollout: the learner's step and the controller's step must agree at every sync while
  // Pods become available, fail and get replaced at random (a seeded world, replayed from the case).
  it.each(SEEDS)('whole rollouts, sync after sync (seed %i)', (seed) => {
    fc.assert(
      fc.property(stateArb, fc.integer({ min: 1, max: 2 ** 31 - 1 }), (spec, worldSeed) => {
        const { d, olds, fresh } = buildState({ ...spec, fresh: { ...spec.fresh, replicas: 0, available: 0 } }, true);
        const random = mulberry32(worldSeed);
        for (let sync = 1; sync <= 25; sync++) {
          const where = describeState(d, olds, fresh);
          const want = referenceStep(d, olds, fresh);
          const got = learnerStep(d, olds, fresh);
          if (showStep(got) !== showStep(want)) mismatch(`sync ${sync}, ${where}: expected "${showStep(want)}", got "${showStep(got)}"`);
          apply(want, olds, fresh);
          // the world: some new Pods become available, now and then an available Pod fails
          for (const rs of [fresh, ...olds]) {
            const avail = rs.available ?? 0;
            const gain = rs === fresh || random() < 0.3 ? Math.floor(random() * (rs.replicas - avail + 1)) : 0;
            const loss = avail + gain > 0 && random() < 0.15 ? 1 : 0;
            rs.available = avail + gain - loss;
          }
        }
      }),
      { seed, ...RUNS, numRuns: 120 },
    );
  });
});

/** mulberry32: a small seeded PRNG for the world of a generated rollout. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
