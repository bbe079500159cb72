// Hidden grading suite for the replicaset-reconcile lab. It checks behaviour only: which pods are
// counted, how many are created, which are deleted and in what order, and that a small simulated
// world driven by the learner's function converges without deleting the wrong pods.
// Tables ported from pkg/controller/replicaset/replica_set_test.go (TestSyncReplicaSetDoesNothing,
// TestSyncReplicaSetDeletes, TestSyncReplicaSetDormancy's burst cap, TestGetPodsToDelete,
// TestGetPodsRankedByRelatedPodsOnSameNode) and pkg/controller/controller_utils_test.go
// (TestSortingActivePodsWithRanks, TestActivePodFiltering). Unless a test says otherwise the
// ReplicaSet belongs to a Deployment, and its related pods (context.relatedPods) are what the
// controller would list: every pod matching its selector (getIndirectlyRelatedPods).
import { describe, expect, it } from 'vitest';
import type { LabelSelector, Pod, PodPhase, ReplicaSet } from '../../runtime/api/index.ts';
import { BURST_REPLICAS, type ReplicaSetDecision } from '../../runtime/controllers/index.ts';
import { reconcileReplicaSet } from '@lab/submission';

const RS_UID = 'rs-uid-1111';
const DEPLOYMENT = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'deploy-uid-9999', controller: true };
const NOW = '2026-01-02T00:00:00Z';
const THEN = '2025-12-02T00:00:00Z';
const LONG_AGO = '2025-06-01T00:00:00Z';

interface PodOptions {
  node?: string;
  phase?: PodPhase;
  ready?: boolean;
  /** Ready condition's lastTransitionTime ('' leaves it out). */
  readySince?: string;
  restarts?: number;
  created?: string;
  labels?: Record<string, string>;
  owner?: string | null;
  controller?: boolean;
  terminating?: boolean;
}

function makePod(name: string, o: PodOptions = {}): Pod {
  const owner = o.owner === undefined ? RS_UID : o.owner;
  const ready = o.ready ?? (o.phase ?? 'Running') === 'Running';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels: o.labels ?? { app: 'web' },
      ...(o.created === '' ? {} : { creationTimestamp: o.created ?? LONG_AGO }),
      ...(o.terminating ? { deletionTimestamp: NOW } : {}),
      ...(owner === null
        ? {}
        : {
            ownerReferences: [
              { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: owner, controller: o.controller ?? true },
            ],
          }),
    },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...(o.node === '' ? {} : { nodeName: o.node ?? 'node-1' }) },
    status: {
      phase: o.phase ?? 'Running',
      conditions: [
        {
          type: 'Ready',
          status: ready ? 'True' : 'False',
          ...(o.readySince === '' ? {} : { lastTransitionTime: o.readySince ?? LONG_AGO }),
        },
      ],
      containerStatuses: [
        { name: 'app', ready, restartCount: o.restarts ?? 0, image: 'nginx', imageID: 'nginx@sha256:1' },
      ],
    },
  };
}

function makeRS(replicas: number | undefined, selector: LabelSelector = { matchLabels: { app: 'web' } }, extra: Partial<ReplicaSet['metadata']> = {}): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'default', uid: RS_UID, ownerReferences: [DEPLOYMENT], ...extra },
    spec: {
      ...(replicas === undefined ? {} : { replicas }),
      selector,
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
    },
  };
}

/** A ReplicaSet as `kubectl apply` of a bare ReplicaSet leaves it: no controller, so no related pods. */
const unownedRS = (replicas: number) => makeRS(replicas, undefined, { ownerReferences: [] });

function selects(selector: LabelSelector, pod: Pod): boolean {
  const labels = pod.metadata.labels ?? {};
  if (Object.entries(selector.matchLabels ?? {}).some(([k, v]) => labels[k] !== v)) return false;
  return (selector.matchExpressions ?? []).every((r) => {
    const has = Object.hasOwn(labels, r.key);
    const inValues = has && (r.values ?? []).includes(labels[r.key] ?? '');
    return r.operator === 'In' ? inValues : r.operator === 'NotIn' ? !inValues : r.operator === 'Exists' ? has : !has;
  });
}

/**
 * What the controller passes as context.relatedPods (getIndirectlyRelatedPods): with a controller,
 * the pods matching the selector of this ReplicaSet (and of its siblings, none here); without, none.
 */
function relatedPodsOf(rs: ReplicaSet, pods: Pod[]): Pod[] {
  const hasController = (rs.metadata.ownerReferences ?? []).some((r) => r.controller === true);
  return hasController ? pods.filter((p) => selects(rs.spec.selector, p)) : [];
}

/** Calls the learner's function and returns a plain copy of its answer (no functions, no getters). */
function decide(rs: ReplicaSet, pods: Pod[], burstReplicas = BURST_REPLICAS, relatedPods = relatedPodsOf(rs, pods)): ReplicaSetDecision {
  const raw: unknown = reconcileReplicaSet(rs, pods, { burstReplicas, relatedPods });
  const value = structuredClone(raw) as ReplicaSetDecision;
  expect(Object.keys(value).sort(), 'the decision has exactly podsToCreate and podsToDelete').toEqual([
    'podsToCreate',
    'podsToDelete',
  ]);
  expect(Number.isInteger(value.podsToCreate), 'podsToCreate is an integer').toBe(true);
  expect(Array.isArray(value.podsToDelete), 'podsToDelete is an array of pod names').toBe(true);
  return value;
}

const names = (n: number, prefix = 'pod') => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

describe('counting the pods a ReplicaSet owns', () => {
  it('does nothing at the desired count', () => {
    const pods = names(2).map((n) => makePod(n));
    expect(decide(makeRS(2), pods)).toEqual({ podsToCreate: 0, podsToDelete: [] });
  });

  it('creates the missing pods', () => {
    const pods = names(2).map((n) => makePod(n));
    expect(decide(makeRS(5), pods)).toEqual({ podsToCreate: 3, podsToDelete: [] });
  });

  it('creates every pod from zero', () => {
    expect(decide(makeRS(3), [])).toEqual({ podsToCreate: 3, podsToDelete: [] });
  });

  it('treats a missing spec.replicas as 1, the API default', () => {
    expect(decide(makeRS(undefined), [])).toEqual({ podsToCreate: 1, podsToDelete: [] });
  });

  it('deletes every pod when scaled to zero', () => {
    const pods = names(3).map((n) => makePod(n));
    const d = decide(makeRS(0), pods);
    expect(d.podsToCreate).toBe(0);
    expect([...d.podsToDelete].sort()).toEqual(['pod-0', 'pod-1', 'pod-2']);
  });

  it('does not count terminating pods and replaces them at once', () => {
    const pods = [makePod('a'), makePod('b', { terminating: true }), makePod('c', { terminating: true })];
    expect(decide(makeRS(2), pods)).toEqual({ podsToCreate: 1, podsToDelete: [] });
  });

  it('never deletes a pod that is already terminating', () => {
    const pods = [makePod('a'), makePod('b'), makePod('c', { terminating: true, phase: 'Pending', node: '' })];
    expect(decide(makeRS(1), pods).podsToDelete).toHaveLength(1);
    expect(decide(makeRS(1), pods).podsToDelete).not.toContain('c');
  });

  it('does not count Succeeded or Failed pods (FilterActivePods)', () => {
    const pods = [makePod('a'), makePod('done', { phase: 'Succeeded' }), makePod('crashed', { phase: 'Failed' })];
    expect(decide(makeRS(2), pods)).toEqual({ podsToCreate: 1, podsToDelete: [] });
  });

  it('counts Pending and Unknown pods as active', () => {
    const pods = [makePod('a', { phase: 'Pending', node: '' }), makePod('b', { phase: 'Unknown' })];
    expect(decide(makeRS(2), pods)).toEqual({ podsToCreate: 0, podsToDelete: [] });
  });

  it('counts only pods whose controller ownerReference has its uid', () => {
    const pods = [
      makePod('mine'),
      makePod('other-rs', { owner: 'rs-uid-2222' }),
      makePod('orphan', { owner: null }),
      makePod('not-controller', { controller: false }),
    ];
    expect(decide(makeRS(2), pods)).toEqual({ podsToCreate: 1, podsToDelete: [] });
  });

  it('never deletes pods it does not control, even when over the desired count', () => {
    const pods = [makePod('mine-0'), makePod('mine-1'), makePod('other', { owner: 'rs-uid-2222', node: '' })];
    const d = decide(makeRS(1), pods);
    expect(d.podsToDelete).toHaveLength(1);
    expect(d.podsToDelete[0]).toMatch(/^mine-/);
  });

  it('ignores its own pods whose labels no longer match the selector', () => {
    const pods = [makePod('a'), makePod('relabelled', { labels: { app: 'debug' } })];
    expect(decide(makeRS(2), pods)).toEqual({ podsToCreate: 1, podsToDelete: [] });
  });

  it('matches every matchLabels entry', () => {
    const selector = { matchLabels: { app: 'web', tier: 'front' } };
    const pods = [makePod('both', { labels: { app: 'web', tier: 'front', x: 'y' } }), makePod('one', { labels: { app: 'web' } })];
    expect(decide(makeRS(2, selector), pods)).toEqual({ podsToCreate: 1, podsToDelete: [] });
  });

  it('matches matchExpressions with In, NotIn, Exists and DoesNotExist', () => {
    const selector: LabelSelector = {
      matchExpressions: [
        { key: 'app', operator: 'In', values: ['web', 'api'] },
        { key: 'track', operator: 'NotIn', values: ['canary'] },
        { key: 'tier', operator: 'Exists' },
        { key: 'debug', operator: 'DoesNotExist' },
      ],
    };
    const pods = [
      makePod('ok-web', { labels: { app: 'web', tier: 'a' } }),
      makePod('ok-api-stable', { labels: { app: 'api', tier: 'a', track: 'stable' } }),
      makePod('wrong-app', { labels: { app: 'db', tier: 'a' } }),
      makePod('canary', { labels: { app: 'web', tier: 'a', track: 'canary' } }),
      makePod('no-tier', { labels: { app: 'web' } }),
      makePod('debugging', { labels: { app: 'web', tier: 'a', debug: '' } }),
    ];
    expect(decide(makeRS(3, selector), pods)).toEqual({ podsToCreate: 1, podsToDelete: [] });
  });

  it('ANDs matchLabels with matchExpressions', () => {
    const selector: LabelSelector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }] };
    const pods = [makePod('both', { labels: { app: 'web', tier: 'a' } }), makePod('labels-only', { labels: { app: 'web', tier: 'b' } })];
    expect(decide(makeRS(1, selector), pods)).toEqual({ podsToCreate: 0, podsToDelete: [] });
  });

  it('does nothing while the ReplicaSet itself is being deleted', () => {
    const rs = makeRS(5, undefined, { deletionTimestamp: NOW });
    expect(decide(rs, [makePod('a')])).toEqual({ podsToCreate: 0, podsToDelete: [] });
    expect(decide(makeRS(0, undefined, { deletionTimestamp: NOW }), [makePod('a')])).toEqual({ podsToCreate: 0, podsToDelete: [] });
  });

  it('does not modify the ReplicaSet, the pods or the related pods', () => {
    const rs = makeRS(1);
    const pods = [makePod('b', { created: NOW }), makePod('a', { node: '' }), makePod('c', { phase: 'Pending' })];
    const relatedPods = [...pods, makePod('sibling', { owner: 'rs-uid-2222' })];
    const before = structuredClone({ rs, pods, relatedPods });
    decide(rs, pods, BURST_REPLICAS, relatedPods);
    expect({ rs, pods, relatedPods }).toEqual(before);
  });
});

describe('burstReplicas caps one sync', () => {
  it('creates at most burstReplicas (500) pods in one sync', () => {
    expect(decide(makeRS(1200), [])).toEqual({ podsToCreate: 500, podsToDelete: [] });
  });

  it('uses the burstReplicas it is given', () => {
    expect(decide(makeRS(10), [makePod('a')], 4)).toEqual({ podsToCreate: 4, podsToDelete: [] });
  });

  it('deletes at most burstReplicas pods in one sync', () => {
    const pods = names(10).map((n) => makePod(n));
    const d = decide(makeRS(0), pods, 4);
    expect(d.podsToCreate).toBe(0);
    expect(d.podsToDelete).toHaveLength(4);
    expect(new Set(d.podsToDelete).size).toBe(4);
  });

  it('deletes exactly the excess when it is below the cap', () => {
    const pods = names(7).map((n) => makePod(n));
    expect(decide(makeRS(5), pods, 4).podsToDelete).toHaveLength(2);
  });
});

// Each pair: with only these two pods (plus a twin of a pod to give it a second pod on its node,
// as the upstream table's rank 2 does) and one pod too many, the "lesser" must go first.
// mirrors TestSortingActivePodsWithRanks' inequality table (LogarithmicScaleDown off).
describe('which pod goes first when scaling down', () => {
  const unscheduled = (n: string) => makePod(n, { node: '', phase: 'Pending', ready: false, readySince: '', created: '' });
  const scheduledPending = (n: string, node: string) => makePod(n, { node, phase: 'Pending', ready: false, readySince: '', created: '' });
  const unknownPhase = (n: string, node: string) => makePod(n, { node, phase: 'Unknown', ready: false, readySince: '', created: '' });
  const notReady = (n: string, node: string) => makePod(n, { node, phase: 'Running', ready: false, readySince: '', created: '' });
  const readyNoTime = (n: string, node: string) => makePod(n, { node, ready: true, readySince: '', created: '' });
  const readyNow = (n: string, node: string) => makePod(n, { node, ready: true, readySince: NOW, created: NOW });
  const readyThen = (n: string, node: string) => makePod(n, { node, ready: true, readySince: THEN, created: THEN });
  const readyNowHighRestarts = (n: string, node: string) => makePod(n, { node, ready: true, readySince: NOW, created: NOW, restarts: 9001 });
  const readyNowCreatedThen = (n: string, node: string) => makePod(n, { node, ready: true, readySince: NOW, created: THEN });

  type Make = (name: string, node: string) => Pod;
  // [case name, lesser (deleted first), its rank, greater, its rank]
  const table: [string, Make, number, Make, number][] = [
    ['unscheduled before scheduled, even when the scheduled one is doubled up', (n) => unscheduled(n), 1, scheduledPending, 2],
    ['unscheduled before scheduled', (n) => unscheduled(n), 2, scheduledPending, 1],
    ['Pending before Unknown', scheduledPending, 1, unknownPhase, 2],
    ['Unknown before Running', unknownPhase, 1, notReady, 2],
    ['not ready before ready', notReady, 1, readyNoTime, 1],
    ['ready with no transition time before ready since a time', readyNoTime, 1, readyNow, 1],
    ['doubled up before alone, whatever the ready time', readyNow, 2, readyNoTime, 1],
    ['ready more recently before ready longer', readyNow, 1, readyThen, 1],
    ['doubled up before alone, even if ready more recently', readyNow, 2, readyThen, 1],
    ['more restarts before fewer restarts', readyNowHighRestarts, 1, readyNow, 1],
    ['doubled up before alone, even with fewer restarts', readyNow, 2, readyNowHighRestarts, 1],
    ['created more recently before created earlier', readyNow, 1, readyNowCreatedThen, 1],
    ['doubled up before alone, even if created earlier', readyNowCreatedThen, 2, readyNow, 1],
  ];

  it.each(table)('%s', (_name, lesser, lesserRank, greater, greaterRank) => {
    const pods = [lesser('lesser', 'node-a'), greater('greater', 'node-b')];
    if (lesserRank === 2) pods.push(lesser('lesser-twin', 'node-a'));
    if (greaterRank === 2) pods.push(greater('greater-twin', 'node-b'));
    const d = decide(makeRS(pods.length - 1), pods);
    expect(d.podsToCreate).toBe(0);
    expect(d.podsToDelete).toHaveLength(1);
    expect(['lesser', 'lesser-twin']).toContain(d.podsToDelete[0]);
  });

  it('returns the deletions most deletable first', () => {
    const pods = [
      readyThen('ready-then', 'node-c'),
      notReady('not-ready', 'node-d'),
      readyNow('ready-now', 'node-e'),
      unscheduled('unscheduled'),
      scheduledPending('pending', 'node-f'),
      unknownPhase('unknown', 'node-g'),
    ];
    const d = decide(makeRS(1), pods);
    expect(d.podsToDelete).toEqual(['unscheduled', 'pending', 'unknown', 'not-ready', 'ready-now']);
  });

  // mirrors TestGetPodsToDelete "various pod phases and conditions, diff = len(pods)" and the
  // rank cases: pods doubled up on a node go before pods alone on theirs.
  it('prefers the node running the most of its pods', () => {
    const pods = [
      readyThen('n1-a', 'node-1'),
      readyThen('n1-b', 'node-1'),
      readyThen('n1-c', 'node-1'),
      readyThen('n2-a', 'node-2'),
      readyThen('n2-b', 'node-2'),
      readyThen('n3-a', 'node-3'),
    ];
    const d = decide(makeRS(5), pods);
    expect(d.podsToDelete).toHaveLength(1);
    expect(d.podsToDelete[0]).toMatch(/^n1-/);
    const two = decide(makeRS(3), pods).podsToDelete;
    expect(two).toHaveLength(3);
    expect(two.filter((n) => n.startsWith('n1-'))).toHaveLength(3);
  });

  // mirrors TestGetPodsRankedByRelatedPodsOnSameNode: the rank counts the related pods, not only its own
  it('ranks a node by the active related pods on it, another ReplicaSet\'s of the same Deployment included', () => {
    const oldRevision = { app: 'web', 'pod-template-hash': 'old' };
    const pods = [
      readyThen('alone', 'node-1'),
      readyThen('pair-a', 'node-2'),
      readyThen('pair-b', 'node-2'),
      makePod('old-1', { node: 'node-1', owner: 'rs-uid-2222', labels: oldRevision }),
      makePod('old-2', { node: 'node-1', owner: 'rs-uid-2222', labels: oldRevision }),
      makePod('gone', { node: 'node-2', terminating: true }),
      makePod('finished', { node: 'node-2', phase: 'Succeeded' }),
    ];
    // both ReplicaSets belong to the Deployment: the controller lists the pods of both selectors
    const d = decide(makeRS(2), pods, BURST_REPLICAS, pods);
    expect(
      d.podsToDelete,
      'node-1 runs 3 active related pods (alone, and old-1 and old-2 of the older ReplicaSet), node-2 runs 2 (gone is terminating, finished has Succeeded): alone goes first',
    ).toEqual(['alone']);
  });

  it('ranks no pod as doubled up when there are no related pods (a ReplicaSet without a controller)', () => {
    const pods = [readyThen('n1-a', 'node-1'), readyThen('n1-b', 'node-1'), readyNow('n2-a', 'node-2')];
    const d = decide(unownedRS(2), pods);
    expect(
      d.podsToDelete,
      'context.relatedPods is empty, so every pod has rank 0; then the pod ready most recently goes first: n2-a (node-1 running two pods does not matter)',
    ).toEqual(['n2-a']);
  });

  it('takes the counts from context.relatedPods, even for nodes none of its own pods share', () => {
    const pods = [readyThen('a', 'node-1'), readyThen('b', 'node-2')];
    const relatedPods = [...pods, makePod('other', { node: 'node-2', owner: 'rs-uid-2222' })];
    expect(decide(makeRS(1), pods, BURST_REPLICAS, relatedPods).podsToDelete, 'node-2 runs b and a related pod: b goes first').toEqual(['b']);
    expect(decide(makeRS(1), pods, BURST_REPLICAS, []).podsToDelete, 'with no related pods the ranks are equal: either may go').toHaveLength(1);
  });

  it('uses the highest restart count of any container', () => {
    const flaky = makePod('flaky', { node: 'node-1', readySince: NOW, created: NOW });
    const steady = makePod('steady', { node: 'node-2', readySince: NOW, created: NOW, restarts: 3 });
    flaky.status!.containerStatuses = [
      { name: 'app', ready: true, restartCount: 1, image: 'nginx', imageID: 'x' },
      { name: 'sidecar', ready: true, restartCount: 5, image: 'envoy', imageID: 'y' },
    ];
    expect(decide(makeRS(1), [steady, flaky]).podsToDelete).toEqual(['flaky']);
  });
});

// ---------------------------------------------------------------- closed loop

/** mulberry32: a small seeded PRNG, so every failure replays from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Deletion preference as a sortable key (smaller = delete first); the oracle for the loop. */
function deletionKey(pod: Pod, onNode: number): (number | string)[] {
  const node = pod.spec.nodeName ?? '';
  const phase = { Pending: 0, Unknown: 1, Running: 2 }[pod.status?.phase as string] ?? 0;
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True');
  const readySince = ready ? (ready.lastTransitionTime ?? '') : '';
  const restarts = Math.max(0, ...(pod.status?.containerStatuses ?? []).map((s) => s.restartCount));
  const created = pod.metadata.creationTimestamp ?? '';
  // Invert times: empty first, then newest first.
  const inv = (t: string) => (t === '' ? '' : [...t].map((c) => String.fromCharCode(200 - c.charCodeAt(0))).join(''));
  return [node === '' ? 0 : 1, phase, ready ? 1 : 0, -onNode, ready ? inv(readySince) : '', -restarts, inv(created)];
}

function compareKeys(a: (number | string)[], b: (number | string)[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

const isActive = (p: Pod) => !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed';

interface World {
  pods: Pod[];
  /** Whether the ReplicaSet has a controller (a Deployment), and so related pods. */
  owned: boolean;
  replicas: number;
  nodes: string[];
  time: number;
  nextId: number;
}

function stamp(t: number): string {
  return new Date(Date.UTC(2026, 0, 1) + t * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** One round of things the cluster does on its own: scheduling, readiness, node failures, finishing deletions. */
function worldEvents(w: World, random: () => number, disrupt: boolean): void {
  w.time += 7;
  w.pods = w.pods.filter((p) => !(p.metadata.deletionTimestamp && random() < 0.6));
  const owned = w.pods.filter((p) => p.metadata.ownerReferences?.[0]?.uid === RS_UID);
  for (const p of owned) {
    if (p.metadata.deletionTimestamp) continue;
    if (!p.spec.nodeName && random() < 0.7) p.spec.nodeName = w.nodes[Math.floor(random() * w.nodes.length)]!;
    else if (p.spec.nodeName && p.status!.phase === 'Pending' && random() < 0.6) p.status!.phase = 'Running';
    else if (p.status!.phase === 'Running' && p.status!.conditions![0]!.status === 'False' && random() < 0.6) {
      p.status!.conditions![0] = { type: 'Ready', status: 'True', lastTransitionTime: stamp(w.time) };
    }
    if (disrupt && p.status!.phase === 'Running' && random() < 0.03) p.status!.containerStatuses![0]!.restartCount++;
  }
  if (!disrupt) return;
  if (random() < 0.15) {
    const dead = w.nodes[Math.floor(random() * w.nodes.length)]!;
    for (const p of owned) {
      if (p.spec.nodeName !== dead) continue;
      p.status!.phase = 'Unknown';
      p.status!.conditions![0] = { type: 'Ready', status: 'False', lastTransitionTime: stamp(w.time) };
      if (random() < 0.5) p.metadata.deletionTimestamp = stamp(w.time);
    }
  }
  if (random() < 0.1) {
    const victim = owned[Math.floor(random() * owned.length)];
    if (victim) victim.status!.phase = random() < 0.5 ? 'Failed' : 'Succeeded';
  }
  if (random() < 0.2) w.replicas = Math.floor(random() * 9);
}

/** The world's related pods: with a controller, every pod labelled app=web (its own, a sibling's, an orphan); without, none. */
function relatedOf(w: World): Pod[] {
  return w.owned ? w.pods.filter((p) => p.metadata.labels?.['app'] === 'web') : [];
}

function checkDecision(w: World, d: ReplicaSetDecision, burst: number, seed: number, round: number): void {
  const where = `seed ${seed}, round ${round}`;
  const mine = w.pods.filter((p) => isActive(p) && p.metadata.ownerReferences?.[0]?.uid === RS_UID);
  const diff = mine.length - w.replicas;
  const wantCreate = diff < 0 ? Math.min(-diff, burst) : 0;
  const wantDelete = diff > 0 ? Math.min(diff, burst) : 0;
  expect(d.podsToCreate, `${where}: pods to create (${mine.length} active, ${w.replicas} wanted)`).toBe(wantCreate);
  expect(d.podsToDelete.length, `${where}: number of pods to delete`).toBe(wantDelete);
  expect(new Set(d.podsToDelete).size, `${where}: a pod listed twice`).toBe(d.podsToDelete.length);
  const byName = new Map(mine.map((p) => [p.metadata.name!, p]));
  for (const name of d.podsToDelete) {
    expect(byName.has(name), `${where}: deleted "${name}", which is not an active pod of this ReplicaSet`).toBe(true);
  }
  const perNode = new Map<string, number>();
  for (const p of relatedOf(w).filter(isActive)) perNode.set(p.spec.nodeName ?? '', (perNode.get(p.spec.nodeName ?? '') ?? 0) + 1);
  const key = (p: Pod) => deletionKey(p, perNode.get(p.spec.nodeName ?? '') ?? 0);
  const deleted = d.podsToDelete.map((n) => byName.get(n)!);
  const kept = mine.filter((p) => !d.podsToDelete.includes(p.metadata.name!));
  for (const k of kept) {
    for (const del of deleted) {
      const wrong = compareKeys(key(k), key(del)) < 0;
      expect(wrong, `${where}: deleted "${del.metadata.name}" but kept "${k.metadata.name}", which should go first`).toBe(false);
    }
  }
  for (let i = 1; i < deleted.length; i++) {
    const outOfOrder = compareKeys(key(deleted[i]!), key(deleted[i - 1]!)) < 0;
    expect(outOfOrder, `${where}: "${deleted[i]!.metadata.name}" should come before "${deleted[i - 1]!.metadata.name}"`).toBe(false);
  }
}

function apply(w: World, d: ReplicaSetDecision): void {
  for (const name of d.podsToDelete) {
    const p = w.pods.find((q) => q.metadata.name === name)!;
    p.metadata.deletionTimestamp = stamp(w.time);
  }
  for (let i = 0; i < d.podsToCreate; i++) {
    w.pods.push(makePod(`web-${w.nextId++}`, { node: '', phase: 'Pending', ready: false, readySince: '', created: stamp(w.time) }));
  }
}

describe('closed loop: the decision drives a small simulated world', () => {
  // Not the full cluster: a world of 4 nodes where pods get scheduled, become ready, restart, fail,
  // lose their node and terminate, and the replica count changes. Half the seeds give the
  // ReplicaSet a Deployment (related pods: every app=web pod, another ReplicaSet's included), half none.
  const SEEDS = Array.from({ length: 40 }, (_, i) => 1000 + i * 7919);

  it.each(SEEDS)('converges without deleting the wrong pods (seed %i)', (seed) => {
    const random = rng(seed);
    const burst = 1 + Math.floor(random() * 4);
    const w: World = { pods: [], owned: seed % 2 === 0, replicas: 1 + Math.floor(random() * 6), nodes: ['n1', 'n2', 'n3', 'n4'], time: 0, nextId: 0 };
    w.pods.push(
      makePod('stranger', { owner: 'rs-uid-2222', node: 'n1' }),
      makePod('stranger-2', { owner: 'rs-uid-2222', node: 'n3' }),
      makePod('orphan', { owner: null, node: 'n2' }),
    );
    for (let round = 0; round < 60; round++) {
      const rs = w.owned ? makeRS(w.replicas) : unownedRS(w.replicas);
      const d = decide(rs, structuredClone(w.pods), burst, structuredClone(relatedOf(w)));
      checkDecision(w, d, burst, seed, round);
      apply(w, d);
      worldEvents(w, random, round < 40);
    }
    const mine = w.pods.filter((p) => isActive(p) && p.metadata.ownerReferences?.[0]?.uid === RS_UID);
    expect(mine.length, `seed ${seed}: active pods after the disruptions stopped`).toBe(w.replicas);
    expect(w.pods.some((p) => p.metadata.name === 'stranger' && !p.metadata.deletionTimestamp), `seed ${seed}: another ReplicaSet's pod was deleted`).toBe(true);
  });
});
