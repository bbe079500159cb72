import { describe, expect, it } from 'vitest';
import { container, makeNode, makePod } from '../testing-builders.ts';
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
