// The eviction subresource against upstream's behaviour (pkg/registry/core/pod/storage/eviction_test.go:
// TestEviction, TestEvictionIgnorePDB, TestEvictionDryRun, TestAddConditionAndDelete's cases as they apply).
import { describe, expect, it } from 'vitest';
import type { KubeObject, Pod, PodDisruptionBudget, Status } from '../../api/index.ts';
import { ADMIN, createHarness, type Harness } from '../testing/harness.ts';
import { budgetsOf, canIgnorePDB, checkAndDecrement, MSG_MULTIPLE_BUDGETS, MSG_VIOLATES_BUDGET } from './eviction.ts';

type Phase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

function runningPod(h: Harness, name: string, opts: { phase?: Phase; ready?: boolean; labels?: Record<string, string> } = {}): Pod {
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: opts.labels ?? { app: 'web' } }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx:1.27' }] } };
  const created = h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body }).body as Pod;
  const phase = opts.phase ?? 'Running';
  const status = { ...created.status, phase, conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z' }] };
  const res = h.admin({ verb: 'update', resource: 'pods', namespace: 'default', name, subresource: 'status', body: { ...created, status } });
  expect(res.code).toBe(200);
  return res.body as Pod;
}

function budget(h: Harness, name: string, status: Partial<NonNullable<PodDisruptionBudget['status']>>, spec: PodDisruptionBudget['spec'] = { minAvailable: 1, selector: { matchLabels: { app: 'web' } } }): void {
  const created = h.admin({ verb: 'create', group: 'policy', resource: 'poddisruptionbudgets', namespace: 'default', body: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec } });
  expect(created.code).toBe(201);
  const obj = created.body as PodDisruptionBudget;
  const full = { observedGeneration: obj.metadata.generation ?? 1, disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, ...status };
  const res = h.admin({ verb: 'update', group: 'policy', resource: 'poddisruptionbudgets', namespace: 'default', name, subresource: 'status', body: { ...obj, status: full } });
  expect(res.code).toBe(200);
}

const evict = (h: Harness, name: string, extra: Record<string, unknown> = {}, query?: Record<string, unknown>) =>
  h.admin({
    verb: 'create', resource: 'pods', namespace: 'default', name, subresource: 'eviction',
    body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' }, ...extra },
    ...(query ? { query } : {}),
  });
const exists = (h: Harness, name: string): boolean => h.admin({ verb: 'get', resource: 'pods', namespace: 'default', name }).code === 200;
const pdbStatus = (h: Harness, name: string) =>
  (h.admin({ verb: 'get', group: 'policy', resource: 'poddisruptionbudgets', namespace: 'default', name }).body as PodDisruptionBudget).status!;

describe('POST pods/<name>/eviction', () => {
  it('deletes a pod no budget selects, answering 201 Success', () => {
    const h = createHarness();
    runningPod(h, 'web-1');
    const res = evict(h, 'web-1');
    expect([res.code, (res.body as Status).status]).toEqual([201, 'Success']);
    // bound to a node: graceful deletion, the kubelet finishes it
    const pod = h.admin({ verb: 'get', resource: 'pods', namespace: 'default', name: 'web-1' }).body as Pod;
    expect(pod.metadata.deletionTimestamp).toBeDefined();
  });

  it('spends one disruption: disruptionsAllowed - 1, the pod in disruptedPods, the condition flips at 0', () => {
    const h = createHarness();
    runningPod(h, 'web-1');
    budget(h, 'web', { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 });
    expect(evict(h, 'web-1').code).toBe(201);
    const s = pdbStatus(h, 'web');
    expect(s.disruptionsAllowed).toBe(0);
    expect(Object.keys(s.disruptedPods ?? {})).toEqual(['web-1']);
    expect(s.conditions?.find((c) => c.type === 'DisruptionAllowed')).toMatchObject({ status: 'False', reason: 'InsufficientPods' });
  });

  it('refuses with 429 and the budget cause when no disruption is allowed', () => {
    const h = createHarness();
    runningPod(h, 'web-1');
    budget(h, 'web', { disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2, expectedPods: 2 });
    const res = evict(h, 'web-1');
    expect(res.code).toBe(429);
    const st = res.body as Status;
    expect(st.reason).toBe('TooManyRequests');
    expect(st.message).toBe(MSG_VIOLATES_BUDGET);
    expect(st.details?.causes).toEqual([{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 2 healthy pods and has 2 currently' }]);
    expect(exists(h, 'web-1')).toBe(true);
  });

  it('refuses with 429 "still being processed" while the controller has not seen the spec', () => {
    const h = createHarness();
    runningPod(h, 'web-1');
    budget(h, 'web', { observedGeneration: 0, disruptionsAllowed: 5 });
    const res = evict(h, 'web-1');
    expect(res.code).toBe(429);
    expect((res.body as Status).details).toEqual({ retryAfterSeconds: 10, causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web is still being processed by the server.' }] });
  });

  it('answers 500 when two budgets select the pod', () => {
    const h = createHarness();
    runningPod(h, 'web-1');
    budget(h, 'a', { disruptionsAllowed: 1 });
    budget(h, 'b', { disruptionsAllowed: 1 });
    const res = evict(h, 'web-1');
    expect([res.code, (res.body as Status).message]).toEqual([500, MSG_MULTIPLE_BUDGETS]);
    expect(exists(h, 'web-1')).toBe(true);
  });

  it.each<[string, Phase]>([['Pending', 'Pending'], ['Succeeded', 'Succeeded'], ['Failed', 'Failed']])('a %s pod ignores its budget', (_label, phase) => {
    const h = createHarness();
    runningPod(h, 'web-1', { phase });
    budget(h, 'web', { disruptionsAllowed: 0 });
    expect(evict(h, 'web-1').code).toBe(201);
    expect(pdbStatus(h, 'web').disruptionsAllowed).toBe(0);
  });

  it('an unready pod goes for free while the budget is met, and is refused while it is not', () => {
    const h = createHarness();
    runningPod(h, 'sick', { ready: false });
    budget(h, 'web', { disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2 });
    expect(evict(h, 'sick').code).toBe(201);
    expect(pdbStatus(h, 'web').disruptedPods).toBeUndefined();

    const h2 = createHarness();
    runningPod(h2, 'sick', { ready: false });
    budget(h2, 'web', { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 2 });
    expect(evict(h2, 'sick').code).toBe(429);
  });

  it('unhealthyPodEvictionPolicy AlwaysAllow lets an unready pod go even below the budget', () => {
    const h = createHarness();
    runningPod(h, 'sick', { ready: false });
    budget(h, 'web', { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 2 }, { minAvailable: 2, selector: { matchLabels: { app: 'web' } }, unhealthyPodEvictionPolicy: 'AlwaysAllow' });
    expect(evict(h, 'sick').code).toBe(201);
  });

  it('a dry run changes neither the budget nor the pod', () => {
    const h = createHarness();
    runningPod(h, 'web-1');
    budget(h, 'web', { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2 });
    expect(evict(h, 'web-1', {}, { dryRun: 'All' }).code).toBe(201);
    expect(evict(h, 'web-1', { deleteOptions: { dryRun: ['All'] } }).code).toBe(201);
    expect(pdbStatus(h, 'web').disruptionsAllowed).toBe(1);
    const pod = h.admin({ verb: 'get', resource: 'pods', namespace: 'default', name: 'web-1' }).body as Pod;
    expect(pod.metadata.deletionTimestamp).toBeUndefined();
  });

  it('checks the body: kind, and the name in the URL', () => {
    const h = createHarness();
    runningPod(h, 'web-1');
    const mismatch = evict(h, 'web-1', { metadata: { name: 'other' } });
    expect([mismatch.code, (mismatch.body as Status).message]).toEqual([400, 'name in URL does not match name in Eviction object']);
    const missing = evict(h, 'nope');
    expect([missing.code, (missing.body as Status).message]).toEqual([404, 'pods "nope" not found']);
  });

  it('honours the delete preconditions it carries', () => {
    const h = createHarness();
    runningPod(h, 'web-1');
    const res = evict(h, 'web-1', { deleteOptions: { preconditions: { uid: 'not-the-uid' } } });
    expect(res.code).toBe(409);
    expect((res.body as Status).message).toContain('Precondition failed: UID in precondition: not-the-uid, UID in object meta: ');
  });
});

describe('DELETE preconditions (storage.Preconditions.Check)', () => {
  it('a stale uid or resourceVersion is a Conflict; matching ones delete', () => {
    const h = createHarness();
    const pod = h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } }).body as KubeObject;
    const stale = h.admin({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'p', body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { resourceVersion: '1' } } });
    expect(stale.code).toBe(409);
    expect((stale.body as Status).message).toBe(
      `Operation cannot be fulfilled on pods "p": StorageError: invalid object, Code: 4, Key: /registry/pods/default/p, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${pod.metadata.resourceVersion}`,
    );
    const ok = h.admin({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'p', body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: pod.metadata.uid } } });
    expect(ok.code).toBe(200);
  });
});

describe('the pieces', () => {
  const pod = (phase: Phase, deleting = false): Pod => ({ metadata: { name: 'p', namespace: 'default', ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) }, spec: { containers: [] }, status: { phase } }) as Pod;
  it.each<[Phase, boolean, boolean]>([
    ['Pending', false, true], ['Running', false, false], ['Succeeded', false, true], ['Failed', false, true], ['Running', true, true],
  ])('canIgnorePDB(%s, deleting %s) = %s', (phase, deleting, want) => expect(canIgnorePDB(pod(phase, deleting))).toBe(want));

  it('budgetsOf: same namespace, a selector that picks the pod; nil and empty selectors pick nothing', () => {
    const p = { metadata: { name: 'p', namespace: 'default', labels: { app: 'web' } }, spec: { containers: [] } } as unknown as Pod;
    const b = (name: string, namespace: string, selector?: PodDisruptionBudget['spec']['selector']): PodDisruptionBudget =>
      ({ metadata: { name, namespace }, spec: selector === undefined ? {} : { selector } });
    const all = [b('match', 'default', { matchLabels: { app: 'web' } }), b('other-ns', 'kube-system', { matchLabels: { app: 'web' } }), b('nil', 'default'), b('empty', 'default', {}), b('miss', 'default', { matchLabels: { app: 'db' } })];
    expect(budgetsOf(p, all).map((x) => x.metadata.name)).toEqual(['match']);
  });

  it('checkAndDecrement refuses a negative budget and an overfull disruptedPods map', () => {
    const base: PodDisruptionBudget = { metadata: { name: 'web', generation: 1 }, spec: {}, status: { observedGeneration: 1, disruptionsAllowed: -1, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 } };
    expect(checkAndDecrement(structuredClone(base), 'p', 0)?.message).toBe('poddisruptionbudget.policy "web" is forbidden: pdb disruptions allowed is negative');
    const full = structuredClone(base);
    full.status!.disruptionsAllowed = 1;
    full.status!.disruptedPods = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`p${i}`, '2026-01-01T00:00:00Z']));
    expect(checkAndDecrement(full, 'p', 0)?.code).toBe(403);
  });
});

describe('a pod delete that loses a race (EvictionsRetry)', () => {
  it('is tried again 500-550 ms later, until the pod holds still', () => {
    const h = createHarness();
    runningPod(h, 'web-1', { phase: 'Pending' });
    // something writes the pod every millisecond: each try's guarded delete finds it changed
    let n = 0;
    const send = (req: Parameters<Harness['call']>[0], cb: (r: { code: number; body: unknown }) => void): void =>
      h.server.request({ credentials: ADMIN, ...req }, cb);
    const churn = h.kernel.every(1, () => send({ verb: 'get', resource: 'pods', namespace: 'default', name: 'web-1' }, (r) => {
      const pod = r.body as Pod;
      send({ verb: 'update', resource: 'pods', namespace: 'default', name: 'web-1', body: { ...pod, metadata: { ...pod.metadata, annotations: { n: String(n++) } } } }, () => {});
    }));
    h.kernel.setTimer(1_200, () => churn.cancel());
    const start = h.kernel.now();
    let answer: { code: number; atMs: number } | undefined;
    send({ verb: 'create', resource: 'pods', namespace: 'default', name: 'web-1', subresource: 'eviction', body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web-1', namespace: 'default' } } },
      (r) => (answer = { code: r.code, atMs: h.kernel.now() - start }));
    h.kernel.runFor(5_000);
    expect(answer?.code).toBe(201);
    // the tries at 0 and after one and two waits lost; the first after the churn stopped (1.2 s)
    // came after three waits of 500-550 ms
    expect(answer!.atMs).toBeGreaterThanOrEqual(1_500);
    expect(answer!.atMs).toBeLessThanOrEqual(1_700);
    const pod = h.admin({ verb: 'get', resource: 'pods', namespace: 'default', name: 'web-1' }).body as Pod;
    expect(pod.metadata.deletionTimestamp).toBeDefined();
  });
});
