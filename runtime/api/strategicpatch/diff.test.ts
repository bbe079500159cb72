// Computing strategic merge patches: table tests of the patches kubectl apply sends (adapted from
// the three-way cases of upstream's strategicpatch/patch_test.go), and properties tying the diff
// to the merge: applying the two-way patch of (a, b) to a gives b, and applying the three-way
// patch to a live object that also holds server-set fields gives the new configuration plus those.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { strategicMergePatch } from './apply.ts';
import { createThreeWayMergePatch, createTwoWayMergePatch } from './diff.ts';

type J = Record<string, unknown>;

const container = (name: string, image: string, extra: J = {}): J => ({ name, image, ...extra });

interface ThreeWay {
  name: string;
  original: J;
  modified: J;
  current: J;
  patch: J;
  structType?: string;
}

const THREE_WAY: ThreeWay[] = [
  {
    name: 'nothing changed: the empty patch (kubectl prints "unchanged")',
    original: { spec: { containers: [container('web', 'nginx')] } },
    modified: { spec: { containers: [container('web', 'nginx')] } },
    current: { spec: { containers: [container('web', 'nginx', { imagePullPolicy: 'Always' })] }, status: { phase: 'Running' } },
    patch: {},
  },
  {
    name: 'an image change sends the container by name and the order of the list',
    original: { spec: { containers: [container('web', 'nginx')] } },
    modified: { spec: { containers: [container('web', 'nginx:1.27')] } },
    current: { spec: { containers: [container('web', 'nginx', { imagePullPolicy: 'Always' })] } },
    patch: { spec: { '$setElementOrder/containers': [{ name: 'web' }], containers: [{ name: 'web', image: 'nginx:1.27' }] } },
  },
  {
    name: 'a field dropped from the file is deleted with null; a field only the server set stays',
    original: { metadata: { labels: { app: 'web', tier: 'front' } } },
    modified: { metadata: { labels: { app: 'web' } } },
    current: { metadata: { labels: { app: 'web', tier: 'front', 'pod-template-hash': 'abc' } } },
    patch: { metadata: { labels: { tier: null } } },
  },
  {
    name: 'a container dropped from the file is deleted with $patch: delete',
    original: { spec: { containers: [container('web', 'nginx'), container('sidecar', 'envoy')] } },
    modified: { spec: { containers: [container('web', 'nginx')] } },
    current: { spec: { containers: [container('web', 'nginx'), container('sidecar', 'envoy')] } },
    patch: { spec: { '$setElementOrder/containers': [{ name: 'web' }], containers: [{ name: 'sidecar', $patch: 'delete' }] } },
  },
  {
    name: 'a finalizer dropped from the file goes in $deleteFromPrimitiveList',
    original: { metadata: { finalizers: ['a', 'b'] } },
    modified: { metadata: { finalizers: ['a'] } },
    current: { metadata: { finalizers: ['a', 'b'] } },
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'], '$setElementOrder/finalizers': ['a'] } },
  },
  {
    name: 'a deployment strategy switched to Recreate carries $retainKeys',
    original: { spec: { strategy: { type: 'RollingUpdate' } } },
    modified: { spec: { strategy: { type: 'Recreate' } } },
    current: { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } } },
    patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
    structType: 'Deployment',
  },
];

describe('createThreeWayMergePatch', () => {
  for (const t of THREE_WAY) {
    it(t.name, () => {
      const expected = JSON.parse(JSON.stringify(t.patch)) as J;
      const r = createThreeWayMergePatch(t.original, t.modified, t.current, t.structType ?? 'Pod');
      expect(r).toEqual({ ok: true, patch: expected });
    });
  }

  it('the patch applied to the live object yields the new configuration and keeps server-set fields', () => {
    const t = THREE_WAY[3]!;
    const r = createThreeWayMergePatch(t.original, t.modified, t.current, 'Pod');
    if (!r.ok) throw new Error(r.error);
    expect(strategicMergePatch(t.current, r.patch, 'Pod')).toEqual({ ok: true, value: t.modified });
  });
});

// ------------------------------------------------------------------ properties

const NAMES = ['a', 'b', 'c', 'd'];
const uniqueBy = <T>(items: T[], key: (t: T) => unknown): T[] => {
  const seen = new Set<unknown>();
  return items.filter((i) => (seen.has(key(i)) ? false : (seen.add(key(i)), true)));
};

const envVar = fc.record({ name: fc.constantFrom(...NAMES), value: fc.constantFrom('1', '2') });
const port = fc.record({ containerPort: fc.constantFrom(80, 443, 8080), protocol: fc.constantFrom('TCP', 'UDP') });
const containerArb = fc.record(
  {
    name: fc.constantFrom(...NAMES),
    image: fc.constantFrom('nginx', 'nginx:1.27', 'busybox'),
    args: fc.array(fc.constantFrom('x', 'y'), { maxLength: 2 }),
    env: fc.array(envVar, { maxLength: 3 }).map((l) => uniqueBy(l, (e) => e.name)),
    ports: fc.array(port, { maxLength: 2 }).map((l) => uniqueBy(l, (p) => p.containerPort)),
  },
  { requiredKeys: ['name', 'image'] },
);
const volume = fc.oneof(
  fc.record({ name: fc.constantFrom(...NAMES), emptyDir: fc.constant({}) }),
  fc.record({ name: fc.constantFrom(...NAMES), hostPath: fc.record({ path: fc.constantFrom('/a', '/b') }) }),
);
const podArb: fc.Arbitrary<J> = fc.record(
  {
    metadata: fc.record(
      {
        labels: fc.dictionary(fc.constantFrom('app', 'tier', 'env'), fc.constantFrom('x', 'y')),
        finalizers: fc.uniqueArray(fc.constantFrom('f1', 'f2', 'f3')),
      },
      { requiredKeys: [] },
    ).map((m) => ({ name: 'p', ...m })),
    spec: fc.record(
      {
        containers: fc.array(containerArb, { minLength: 1, maxLength: 3 }).map((l) => uniqueBy(l, (c) => c.name)),
        volumes: fc.array(volume, { maxLength: 2 }).map((l) => uniqueBy(l, (v) => v.name)),
        tolerations: fc.array(fc.record({ key: fc.constantFrom('k1', 'k2'), operator: fc.constant('Exists') }), { maxLength: 2 }),
        nodeName: fc.constantFrom('n1', 'n2'),
      },
      { requiredKeys: ['containers'] },
    ),
  },
  { requiredKeys: ['metadata', 'spec'] },
) as fc.Arbitrary<J>;

const PARAMS = { numRuns: 300, seed: Number(process.env.FC_SEED ?? 4242) };

describe('strategic merge patch properties', () => {
  it('apply(a, twoWay(a, b)) equals b', () => {
    console.log(`fast-check seed ${PARAMS.seed} (replay with FC_SEED=${PARAMS.seed})`);
    fc.assert(
      fc.property(podArb, podArb, (a, b) => {
        const diff = createTwoWayMergePatch(a, b, 'Pod');
        expect(diff.ok).toBe(true);
        if (!diff.ok) return;
        expect(strategicMergePatch(a, diff.patch, 'Pod')).toEqual({ ok: true, value: b });
      }),
      PARAMS,
    );
  });

  it('apply(live, threeWay(last, new, live)) equals new plus what only the server set', () => {
    fc.assert(
      fc.property(podArb, podArb, fc.constantFrom('Pending', 'Running'), (last, next, phase) => {
        const serverSet = { status: { phase }, metadata: { uid: 'u-1', resourceVersion: '7' } };
        const live = { ...last, ...serverSet, metadata: { ...(last.metadata as J), ...serverSet.metadata } };
        const expected = { ...next, ...serverSet, metadata: { ...(next.metadata as J), ...serverSet.metadata } };
        const diff = createThreeWayMergePatch(last, next, live, 'Pod');
        expect(diff.ok).toBe(true);
        if (!diff.ok) return;
        expect(strategicMergePatch(live, diff.patch, 'Pod')).toEqual({ ok: true, value: expected });
      }),
      PARAMS,
    );
  });
});
