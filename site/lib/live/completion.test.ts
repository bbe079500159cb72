import { describe, expect, it } from 'vitest';
import { complete } from './completion.ts';

const ctx = { nodes: ['cp-1', 'worker-1', 'worker-2'], pods: ['web-7f9d59dc7f-6lz76', 'web-7f9d59dc7f-s9w2g', 'etcd-cp-1'] };

describe('complete', () => {
  it.each([
    ['kub', 'kubectl ', []],
    ['kubectl ge', 'kubectl get ', []],
    ['kubectl get po', 'kubectl get pod', ['poddisruptionbudgets', 'pods']],
    ['kubectl get pods w', 'kubectl get pods web-7f9d59dc7f-', ['web-7f9d59dc7f-6lz76', 'web-7f9d59dc7f-s9w2g']],
    ['kubectl get pods web-7f9d59dc7f-6', 'kubectl get pods web-7f9d59dc7f-6lz76 ', []],
    ['kubectl cordon wo', 'kubectl cordon worker-', ['worker-1', 'worker-2']],
    ['kubectl describe node/c', 'kubectl describe node/cp-1 ', []],
    ['kubectl rollout st', 'kubectl rollout status ', []],
    ['kubectl get pods -o w', 'kubectl get pods -o wide ', []],
    ['kubectl get pods --wat', 'kubectl get pods --watch ', []],
    ['etcdctl mem', 'etcdctl member ', []],
    ['etcdctl member l', 'etcdctl member list ', []],
    ['etcdctl endpoint ', 'etcdctl endpoint ', ['health', 'status']],
    ['kubectl frobnicate x', 'kubectl frobnicate x', []],
  ])('%s', (line, want, candidates) => {
    const got = complete(line, ctx);
    expect(got.line).toBe(want);
    expect(got.candidates).toEqual(candidates);
  });
});
