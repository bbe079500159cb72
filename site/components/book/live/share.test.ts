import { describe, expect, it } from 'vitest';
import { shareUrl, sharedInputs } from './share.ts';

describe('share links', () => {
  const inputs = [
    { atMs: 4_200, command: 'kubectl apply -f web.yaml' },
    { atMs: 9_000, fault: { kind: 'stopNode' as const, target: 'worker-1' } },
    { atMs: 9_000, fault: { kind: 'isolate' as const, targets: ['etcd-cp-3'] } },
    { atMs: 12_500, command: 'kubectl get pods -o wide # ünïcode' },
  ];

  it('round-trips a live cluster\'s inputs through the page address', () => {
    const url = shareUrl('http://localhost:4321/chapters/01-journey/#the-journey', 'live-2', inputs);
    expect(url).toMatch(/^http:\/\/localhost:4321\/chapters\/01-journey\/#live=live-2\.[\w-]+$/);
    expect(sharedInputs(new URL(url).hash, 'live-2')).toEqual(inputs);
    expect(sharedInputs(new URL(url).hash, 'live-1')).toBeUndefined();
  });

  it.each([
    ['#live=live-1.!!!'],
    ['#live=live-1.' + btoa('{"not":"a list"}')],
    ['#live=live-1.' + btoa('[{"atMs":-1,"command":"x"}]')],
    ['#live=live-1.' + btoa('[{"atMs":5,"fault":{"kind":"rm -rf","target":"x"}}]')],
    ['#live=live-1.' + btoa('[{"atMs":5,"command":"a"},{"atMs":4,"command":"b"}]')],
    ['#section-heading'],
  ])('ignores a damaged or foreign fragment: %s', (hash) => {
    expect(sharedInputs(hash, 'live-1')).toBeUndefined();
  });
});

import { clusterFromQuery } from './share.ts';

describe('clusterFromQuery', () => {
  it.each([
    ['', { ok: true, cluster: {} }],
    ['?topology=ha&workers=10&seed=7&etcd=5', { ok: true, cluster: { topology: 'ha', workers: 10, seed: 7, etcdMembers: 5 } }],
    ['?topology=cloud', { ok: false, error: 'topology "cloud" is not single-node, ha or managed' }],
    ['?workers=500', { ok: false, error: 'workers must be a whole number from 0 to 20 (got "500")' }],
    ['?workers=2.5', { ok: false, error: 'workers must be a whole number from 0 to 20 (got "2.5")' }],
    ['?etcd=4', { ok: false, error: 'etcd must be 1, 3 or 5 (got 4)' }],
  ])('%s', (search, want) => {
    expect(clusterFromQuery(search)).toEqual(want);
  });
});
