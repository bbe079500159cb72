// Properties of the chosen victims over random clusters (fast-check; the seed is printed on failure
// and can be replayed with { seed, path }): the victims are pods of lower priority on the nominated
// node, the preemptor fits there once they are gone, and none of them could have stayed (putting
// any one back makes the preemptor not fit again; resource and port filters only grow stricter as
// pods are added, so reprieve's order cannot hide a pod that would fit).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cloneNodeInfo, addPod, removePod } from '../../framework/node-info.ts';
import { newPodInfo } from '../../framework/pod-info.ts';
import { isSuccess } from '../../framework/status.ts';
import { makePDB } from '../../testing-builders.ts';
import { newDefaultPreemption } from './default-preemption.ts';
import { pod, profileFilter, snapshotOf } from './preemption.test-helper.ts';

const podArb = fc.record({
  node: fc.integer({ min: 0, max: 3 }),
  priority: fc.integer({ min: -5, max: 5 }).map((p) => p * 100),
  cpuMilli: fc.integer({ min: 1, max: 5 }).map((c) => c * 50),
  app: fc.constantFrom('a', 'b', 'c'),
  startS: fc.integer({ min: 0, max: 5 }),
});

const clusterArb = fc.record({
  pods: fc.array(podArb, { minLength: 10, maxLength: 24 }),
  preemptor: fc.record({ priority: fc.integer({ min: -5, max: 6 }).map((p) => p * 100), cpuMilli: fc.integer({ min: 3, max: 10 }).map((c) => c * 50) }),
  budgets: fc.array(fc.record({ app: fc.constantFrom('a', 'b', 'c'), allowed: fc.integer({ min: 0, max: 2 }) }), { maxLength: 3 }),
  offset: fc.nat(),
});

describe('DefaultPreemption victims (property)', () => {
  it('are lower-priority pods of the nominated node, make room, and none could stay', () => {
    const seed = 20260201;
    let preempted = 0;
    fc.assert(
      fc.property(clusterArb, (c) => {
        const nodes = ['n0', 'n1', 'n2', 'n3'];
        const existing = c.pods.map((p, i) =>
          pod(`p${i}`, { node: nodes[p.node]!, priority: p.priority, res: { cpu: `${p.cpuMilli}m`, memory: '1' }, labels: { app: p.app }, startTime: `2025-01-01T00:00:0${p.startS}Z` }));
        const snap = snapshotOf(nodes, existing);
        const preemptor = newPodInfo(pod('incoming', { priority: c.preemptor.priority, res: { cpu: `${c.preemptor.cpuMilli}m`, memory: '1' } }));
        const { state, filter } = profileFilter(preemptor, snap.nodeInfoList);
        const statuses = new Map(snap.nodeInfoList.filter((n) => !isSuccess(filter(state, preemptor, n))).map((n) => [n.node!.name, filter(state, preemptor, n)]));
        if (statuses.size < nodes.length) return; // it fits somewhere: the PostFilter would not run
        const pdbs = c.budgets.map((b, i) => makePDB(`b${i}`, { matchLabels: { app: b.app }, disruptionsAllowed: b.allowed }));
        const ctx = { allNodes: snap.nodeInfoList, pdbs, intn: (n: number) => c.offset % n, nowMs: 0 };
        const [result, status] = newDefaultPreemption().postFilter(state, preemptor, statuses, ctx, filter);
        if (!result || result.nominatedNodeName === '') {
          // no node helps: unschedulable, and the result (if any) only clears a nomination
          expect(status.code).toBe('Unschedulable');
          expect(result?.victims ?? []).toEqual([]);
          return;
        }
        preempted++;
        const node = snap.nodeInfoList.find((n) => n.node!.name === result.nominatedNodeName)!;
        const victims = result.victims.map((v) => node.pods.find((p) => p.namespace === v.namespace && p.name === v.name));
        expect(victims.every((v) => v !== undefined && v.priority < preemptor.priority)).toBe(true);
        expect(victims.length).toBeGreaterThan(0);
        const after = cloneNodeInfo(node);
        for (const v of result.victims) removePod(after, v.namespace, v.name);
        expect(isSuccess(filter(state, preemptor, after))).toBe(true);
        for (const v of victims) {
          const withBack = cloneNodeInfo(after);
          addPod(withBack, v!);
          expect(isSuccess(filter(state, preemptor, withBack))).toBe(false);
        }
      }),
      { seed, numRuns: 300, verbose: true },
    );
    // the generator must exercise the interesting branch, not only "nothing fits"
    expect(preempted).toBeGreaterThan(30);
  });
});
