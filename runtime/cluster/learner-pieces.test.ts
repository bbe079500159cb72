import { describe, expect, it } from 'vitest';
import type { Pod, ReplicaSet } from '../api/index.ts';
import type { ReplicaSetReconciler } from '../controllers/index.ts';
import type { NodeInfo, PodInfo, ScorePlugin } from '../scheduler/index.ts';
import { guardReplicaSetReconciler, guardScorePlugin, LearnerCodeError, LearnerFaults } from './learner-pieces.ts';

const rs: ReplicaSet = { metadata: { name: 'web', uid: 'rs-1' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } } } };
const pod: Pod = { metadata: { name: 'web-a', labels: { app: 'web' } }, spec: { containers: [] } };
const podInfo: PodInfo = { name: 'p', namespace: 'default', containers: [{ name: 'c', requests: { milliCPU: 100 } }] };
const nodeInfo: NodeInfo = {
  node: { name: 'n1' },
  allocatable: { milliCPU: 1000, memory: 1000 },
  requested: { milliCPU: 0, memory: 0 },
  nonZeroRequested: { milliCPU: 0, memory: 0 },
  pods: [],
};

describe('guardReplicaSetReconciler', () => {
  it('passes copies in: a learner that mutates its inputs changes nothing outside', () => {
    const faults = new LearnerFaults();
    const sibling: Pod = { metadata: { name: 'web-old', labels: { app: 'web' } }, spec: { containers: [], nodeName: 'n1' } };
    const mutating: ReplicaSetReconciler = (r, pods, context) => {
      r.metadata.name = 'changed';
      (pods[0]!.metadata.labels ??= {})['app'] = 'changed';
      context.relatedPods[0]!.spec.nodeName = 'changed';
      return { podsToCreate: 0, podsToDelete: ['web-a'] };
    };
    const guarded = guardReplicaSetReconciler(mutating, 'myReconcile', faults);
    expect(guarded(rs, [pod], { burstReplicas: 500, relatedPods: [sibling] })).toEqual({ podsToCreate: 0, podsToDelete: ['web-a'] });
    expect(rs.metadata.name).toBe('web');
    expect(pod.metadata.labels).toEqual({ app: 'web' });
    expect(sibling.spec.nodeName).toBe('n1');
    expect(faults.first).toBeUndefined();
  });

  it.each([
    ['a throw', () => { throw new TypeError('boom'); }, 'myReconcile threw while syncing ReplicaSet "web": TypeError: boom'],
    ['a malformed count', () => ({ podsToCreate: 1.5, podsToDelete: [] }), 'myReconcile returned podsToCreate = 1.5 (a whole number >= 0 is expected) for ReplicaSet "web"'],
    ['names that are not strings', () => ({ podsToCreate: 0, podsToDelete: [1] }), 'myReconcile returned podsToDelete = [1] (a list of pod names is expected) for ReplicaSet "web"'],
    ['null', () => null, 'myReconcile returned null instead of { podsToCreate, podsToDelete } for ReplicaSet "web"'],
  ])('turns %s into a LearnerCodeError named after the function, and records the first', (_name, broken, message) => {
    const faults = new LearnerFaults();
    const guarded = guardReplicaSetReconciler(broken as unknown as ReplicaSetReconciler, 'myReconcile', faults);
    expect(() => guarded(rs, [pod], { burstReplicas: 500, relatedPods: [] })).toThrow(new LearnerCodeError(message));
    expect(faults.first?.message).toBe(message);
    expect(() => faults.check()).toThrow(message);
  });
});

describe('guardScorePlugin', () => {
  const plugin = (score: ScorePlugin['score']): ScorePlugin => ({ name: 'Mine', score, scoreExtensions: () => null });

  it('runs under the registry name, with copies and a CycleState of its own', () => {
    const faults = new LearnerFaults();
    const shared = new Map<string, unknown>([['builtin', 1]]);
    const guarded = guardScorePlugin('YourPlugin', 'newMine', () => plugin((state, p, n) => {
      const seen = state.size;
      p.containers.length = 0;
      n.requested.milliCPU = 999;
      return [seen, { code: 'Success', reasons: [] }];
    }), faults);
    expect(guarded.name).toBe('YourPlugin');
    expect(guarded.score(shared, podInfo, nodeInfo)).toEqual([0, { code: 'Success', reasons: [] }]);
    expect(podInfo.containers).toHaveLength(1);
    expect(nodeInfo.requested.milliCPU).toBe(0);
    expect(guarded.scoreExtensions()).toBeNull();
  });

  it.each([
    ['a throw', () => { throw new RangeError('bad'); }, 'newMine(...).score threw for pod "p" on node "n1": RangeError: bad'],
    ['a bare number', () => 7, 'newMine(...).score returned 7 instead of [score, status] for pod "p" on node "n1"'],
    ['a status without reasons', () => [1, { code: 'Success' }], 'newMine(...).score returned the status {"code":"Success"} (a { code, reasons } object is expected) for pod "p" on node "n1"'],
  ])('turns %s from score into a named LearnerCodeError', (_name, broken, message) => {
    const faults = new LearnerFaults();
    const guarded = guardScorePlugin('YourPlugin', 'newMine', () => plugin(broken as unknown as ScorePlugin['score']), faults);
    expect(() => guarded.score(new Map(), podInfo, nodeInfo)).toThrow(message);
    expect(faults.first?.message).toBe(message);
  });

  it('names the constructor when building the plugin fails', () => {
    const faults = new LearnerFaults();
    expect(() => guardScorePlugin('YourPlugin', 'newMine', () => { throw new Error('no'); }, faults)).toThrow('newMine() threw: Error: no');
    expect(() => guardScorePlugin('YourPlugin', 'newMine', () => ({}) as ScorePlugin, new LearnerFaults())).toThrow('newMine() returned a plugin without a score method');
  });
});
