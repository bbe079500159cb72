import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node } from '../../api/index.ts';
import { Snapshot } from '../framework/snapshot.ts';
import { container, makeNode, makePod } from '../testing-builders.ts';
import { newPodInfo as newInfo } from '../framework/pod-info.ts';
import { SchedulerCache } from './cache.ts';

const bound = (labels: Record<string, string>, cpu = '500m') =>
  makePod('web', { nodeName: 'n1', labels, containers: [container({ cpu })] });

function cacheWithNode(): SchedulerCache {
  const cache = new SchedulerCache();
  cache.addOrUpdateNode(makeNode('n1'));
  cache.updateSnapshot();
  return cache;
}

describe('SchedulerCache: informer updates of a bound pod (cache.go updatePod)', () => {
  it('the snapshot reads the latest labels of a bound pod (pod affinity and spread count them)', () => {
    const cache = cacheWithNode();
    cache.addOrUpdateBoundPod(bound({ app: 'old' }));
    cache.addOrUpdateBoundPod(bound({ app: 'new' }));
    const pods = cache.updateSnapshot().get('n1')!.pods;
    expect(pods.map((p) => p.labels)).toEqual([{ app: 'new' }]);
  });

  it("the snapshot holds the informer's latest object, not a stale copy", () => {
    const cache = cacheWithNode();
    cache.addOrUpdateBoundPod(bound({ app: 'a' }));
    const latest = bound({ app: 'a' });
    latest.status = { phase: 'Running' };
    cache.addOrUpdateBoundPod(latest);
    expect(cache.updateSnapshot().get('n1')!.pods[0]!.pod).toBe(latest);
  });

  it('an update does not count the pod twice', () => {
    const cache = cacheWithNode();
    cache.addOrUpdateBoundPod(bound({ app: 'a' }));
    cache.addOrUpdateBoundPod(bound({ app: 'b' }));
    cache.addOrUpdateBoundPod(bound({ app: 'c' }));
    const info = cache.updateSnapshot().get('n1')!;
    expect(info.pods).toHaveLength(1);
    expect(info.requested.milliCPU).toBe(500);
  });

  it('the bound pod from the informer replaces the assumed one', () => {
    const cache = cacheWithNode();
    const pending = makePod('web', { containers: [container({ cpu: '500m' })] });
    cache.assume(pending, 'n1');
    expect(cache.isAssumed(pending)).toBe(true);
    const fromInformer = bound({});
    cache.addOrUpdateBoundPod(fromInformer);
    expect(cache.isAssumed(fromInformer)).toBe(false);
    const info = cache.updateSnapshot().get('n1')!;
    expect(info.pods.map((p) => p.pod)).toEqual([fromInformer]);
    expect(info.requested.milliCPU).toBe(500);
  });
});

describe('SchedulerCache: node changes patch the snapshot in place (cache.go AddNode, UpdateNode, RemoveNode)', () => {
  const IMAGES = { 'nginx:1.27': 70_000_000, 'redis:7': 40_000_000, 'busybox:1.36': 2_000_000 };
  const NAMES = ['n1', 'n2', 'n3', 'n4'];
  const nodeArb = fc.record({
    name: fc.constantFrom(...NAMES),
    cpu: fc.constantFrom('2', '4', '8'),
    images: fc.subarray(Object.keys(IMAGES)),
    label: fc.constantFrom('a', 'b'),
    unschedulable: fc.boolean(),
  });
  const toNode = (n: { name: string; cpu: string; images: string[]; label: string; unschedulable: boolean }): Node => {
    const node = makeNode(n.name, { cpu: n.cpu, labels: { tier: n.label } });
    return {
      ...node,
      spec: { ...node.spec, unschedulable: n.unschedulable },
      status: { ...node.status, images: n.images.map((i) => ({ names: [i], sizeBytes: IMAGES[i as keyof typeof IMAGES] })) },
    };
  };
  /** What the scheduler reads of a snapshot, in the order it walks it. */
  const view = (snap: Snapshot) =>
    snap.nodeInfoList.map((i) => ({
      node: i.node?.object, allocatable: i.allocatable, requested: i.requested, nonZeroRequested: i.nonZeroRequested,
      pods: i.pods.map((p) => p.pod), images: [...i.imageStates].map(([name, s]) => [name, s.size, s.numNodes]),
    }));

  it('after any sequence of node adds, updates and removals and pod placements, the snapshot equals a rebuilt one', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(
          nodeArb.map((n) => ({ kind: 'node' as const, node: toNode(n) })),
          fc.record({ kind: fc.constant('pod' as const), i: fc.nat(5), node: fc.constantFrom(...NAMES), cpu: fc.constantFrom('100m', '1') }),
          fc.record({ kind: fc.constant('remove' as const), node: fc.constantFrom(...NAMES) }),
        ), { minLength: 5, maxLength: 40 }),
        (ops) => {
          const cache = new SchedulerCache();
          const nodes = new Map<string, Node>();
          const pods = new Map<string, ReturnType<typeof makePod>>();
          for (const op of ops) {
            if (op.kind === 'node') {
              nodes.set(op.node.metadata.name!, op.node);
              cache.addOrUpdateNode(op.node);
            } else if (op.kind === 'remove') {
              nodes.delete(op.node);
              cache.removeNode(op.node);
            } else {
              const pod = makePod(`p${op.i}`, { nodeName: op.node, containers: [container({ cpu: op.cpu })] });
              pods.delete(`p${op.i}`); // a changed pod is removed and added again: it moves last
              pods.set(`p${op.i}`, pod);
              cache.addOrUpdateBoundPod(pod);
            }
            cache.updateSnapshot();
          }
          const names = [...nodes.keys()].sort();
          const rebuilt = Snapshot.build(names.map((n) => nodes.get(n)!));
          // pods in the cache's order (the order of their last placement), as the cache rebuilds
          for (const p of pods.values()) rebuilt.assume(newInfo(p), p.spec.nodeName!);
          expect(view(cache.updateSnapshot())).toEqual(view(rebuilt));
        },
      ),
    );
  });
});
