// The DefaultPreemption PostFilter end to end over a snapshot, adapted from upstream's
// default_preemption_test.go (TestPostFilter, TestSelectBestCandidate, TestPodEligibleToPreemptOthers)
// and pkg/scheduler/framework/preemption/preemption_test.go (pickOneNodeForPreemption).
import { describe, expect, it } from 'vitest';
import type { Pod, PodDisruptionBudget } from '../../../api/index.ts';
import type { NodeToStatus } from '../../framework/cycle.ts';
import type { Status } from '../../framework/interface.ts';
import { newPodInfo } from '../../framework/pod-info.ts';
import { unresolvable, unschedulable } from '../../framework/status.ts';
import { makePDB } from '../../testing-builders.ts';
import type { Candidate } from './candidates.ts';
import { MSG_POLICY_NEVER, MSG_TERMINATING_VICTIM, newDefaultPreemption } from './default-preemption.ts';
import { ineligibleToPreempt } from './eligibility.ts';
import { pickOneNodeForPreemption } from './pick-node.ts';
import { HIGH, LARGE, LOW, MEDIUM, MID, NEG, SMALL, VERY_HIGH, VERY_LARGE, epoch, pod, profileFilter, snapshotOf } from './preemption.test-helper.ts';

const allUnschedulable = (nodes: string[]): NodeToStatus => new Map(nodes.map((n) => [n, unschedulable('Insufficient cpu')]));

function postFilter(nodes: string[], preemptor: Pod, pods: Pod[], opts: { statuses?: NodeToStatus; pdbs?: PodDisruptionBudget[]; offset?: number } = {}) {
  const snap = snapshotOf(nodes, pods);
  const p = newPodInfo(preemptor);
  const { state, filter } = profileFilter(p, snap.nodeInfoList);
  const ctx = { allNodes: snap.nodeInfoList, pdbs: opts.pdbs ?? [], intn: () => opts.offset ?? 0, nowMs: 10_000 };
  return newDefaultPreemption().postFilter(state, p, opts.statuses ?? allUnschedulable(nodes), ctx, filter);
}


const CLEAR_NOMINATION = { nominatedNodeName: '', victims: [] };
describe('PostFilter (upstream TestPostFilter)', () => {
  const onePod = (name: string, node: string, priority = LOW): Pod => pod(name, { node, priority, res: VERY_LARGE });

  it('pod with higher priority can be made schedulable', () => {
    expect(postFilter(['node1'], pod('p', { priority: HIGH, res: SMALL }), [onePod('p1', 'node1')])).toEqual([
      { nominatedNodeName: 'node1', victims: [{ namespace: 'default', name: 'p1' }] },
      { code: 'Success', reasons: [] },
    ]);
  });

  it('pod with tied priority is still unschedulable', () => {
    // NewPostFilterResultWithNominatedNode(""): the pod's nomination, if any, is cleared
    expect(postFilter(['node1'], pod('p', { priority: LOW, res: SMALL }), [onePod('p1', 'node1')])).toEqual([
      CLEAR_NOMINATION, { code: 'Unschedulable', reasons: ['preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.'] },
    ]);
  });

  it('preemption should respect filteredNodesStatuses, and a node without a status is not helped', () => {
    const statuses = new Map([['node1', unresolvable('node(s) had untolerated taint')]]);
    const msg = 'preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.';
    expect(postFilter(['node1', 'node2'], pod('p', { priority: HIGH, res: SMALL }), [onePod('p1', 'node1'), onePod('p2', 'node2')], { statuses }))
      .toEqual([CLEAR_NOMINATION, { code: 'Unschedulable', reasons: [msg] }]);
  });

  it('pod can be made schedulable on one node', () => {
    const [result] = postFilter(['node1', 'node2'], pod('p', { priority: MID, res: SMALL }), [onePod('p1', 'node1', HIGH), onePod('p2', 'node2', LOW)]);
    expect(result?.nominatedNodeName).toBe('node2');
  });

  it('pod can be made schedulable on minHighestPriority node, PDBs or not', () => {
    const violating = { violating: 'yes' };
    const pods = [
      pod('p1', { node: 'node1', priority: HIGH, res: VERY_LARGE, labels: { violating: 'no' } }),
      pod('p3', { node: 'node2', priority: MID, res: VERY_LARGE, labels: violating }),
    ];
    const pdbs = [makePDB('violating-pdb', { matchLabels: violating, disruptionsAllowed: 0 }), makePDB('non-violating-pdb', { matchLabels: { violating: 'no' }, disruptionsAllowed: 2 ** 31 - 1 })];
    const [result] = postFilter(['node1', 'node2'], pod('p', { priority: VERY_HIGH, res: SMALL }), pods, { pdbs });
    // node1 has no PDB violation but a higher-priority victim: PDB violations count first
    expect(result?.nominatedNodeName).toBe('node1');
    const [withoutPDBs] = postFilter(['node1', 'node2'], pod('p', { priority: VERY_HIGH, res: SMALL }), pods);
    expect(withoutPDBs?.nominatedNodeName).toBe('node2');
  });

  it('no candidate nodes found, no enough resource after removing low priority pods', () => {
    const big = pod('p', { priority: HIGH, res: { cpu: '1', memory: '1' } });
    expect(postFilter(['node1', 'node2'], big, [onePod('p1', 'node1'), onePod('p2', 'node2')])[1]).toEqual({
      code: 'Unschedulable', reasons: ['preemption: 0/2 nodes are available: 2 Insufficient cpu.'],
    });
  });

  it('no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU resource', () => {
    const big = pod('p', { priority: HIGH, res: { cpu: '1', memory: '1' } });
    const pods = [onePod('p1', 'node1', HIGH), onePod('p2', 'node2'), onePod('p3', 'node3', HIGH)];
    expect(postFilter(['node1', 'node2', 'node3'], big, pods)[1].reasons).toEqual([
      'preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod.',
    ]);
  });

  it('an Error from the filters with no candidate is an Error status', () => {
    const snap = snapshotOf(['node1'], [onePod('p1', 'node1')]);
    const p = newPodInfo(pod('p', { priority: HIGH, res: SMALL }));
    const failing = (): Status => ({ code: 'Error', reasons: ['boom'] });
    const out = newDefaultPreemption().postFilter(new Map(), p, allUnschedulable(['node1']), { allNodes: snap.nodeInfoList }, failing);
    expect(out).toEqual([null, { code: 'Error', reasons: ['preemption: boom'] }]);
  });
});

describe('SelectCandidate (upstream TestSelectBestCandidate)', () => {
  const at = (name: string, node: string, priority: number, res: { cpu: string; memory: string }, t = 0): Pod =>
    pod(name, { node, priority, res, startTime: epoch(t) });
  const rows: [string, string[], Pod, Pod[], string[]][] = [
    ['a pod that fits on both nodes when lower priority pods are preempted', ['node1', 'node2'], pod('p', { priority: HIGH, res: LARGE }),
      [at('p1', 'node1', MID, LARGE), at('p2', 'node2', MID, LARGE)], ['node1', 'node2']],
    ['node with min highest priority pod is picked', ['node1', 'node2', 'node3'], pod('p', { priority: HIGH, res: VERY_LARGE }), [
      at('p1.1', 'node1', MID, MEDIUM), at('p1.2', 'node1', MID, LARGE), at('p2.1', 'node2', MID, MEDIUM),
      at('p2.2', 'node2', LOW, MEDIUM), at('p3.1', 'node3', LOW, MEDIUM), at('p3.2', 'node3', LOW, MEDIUM)], ['node3']],
    ['when highest priorities are the same, minimum sum of priorities is picked', ['node1', 'node2', 'node3'], pod('p', { priority: HIGH, res: VERY_LARGE }), [
      at('p1.1', 'node1', MID, MEDIUM), at('p1.2', 'node1', MID, LARGE), at('p2.1', 'node2', MID, LARGE),
      at('p2.2', 'node2', LOW, MEDIUM), at('p3.1', 'node3', MID, MEDIUM), at('p3.2', 'node3', MID, MEDIUM)], ['node2']],
    ['when highest priority and sum are the same, minimum number of pods is picked', ['node1', 'node2', 'node3'], pod('p', { priority: HIGH, res: VERY_LARGE }), [
      at('p1.1', 'node1', MID, SMALL), at('p1.2', 'node1', NEG, SMALL), at('p1.3', 'node1', MID, SMALL), at('p1.4', 'node1', NEG, SMALL),
      at('p2.1', 'node2', MID, LARGE), at('p2.2', 'node2', NEG, MEDIUM),
      at('p3.1', 'node3', MID, MEDIUM), at('p3.2', 'node3', NEG, SMALL), at('p3.3', 'node3', LOW, SMALL)], ['node2']],
    ['sum of adjusted priorities is considered', ['node1', 'node2', 'node3'], pod('p', { priority: HIGH, res: VERY_LARGE }), [
      at('p1.1', 'node1', MID, SMALL), at('p1.2', 'node1', NEG, SMALL), at('p1.3', 'node1', NEG, SMALL),
      at('p2.1', 'node2', MID, LARGE), at('p2.2', 'node2', NEG, MEDIUM),
      at('p3.1', 'node3', MID, MEDIUM), at('p3.2', 'node3', NEG, SMALL), at('p3.3', 'node3', LOW, SMALL)], ['node2']],
    ['non-overlapping lowest high priority, sum priorities, and number of pods', ['node1', 'node2', 'node3', 'node4'], pod('p', { priority: VERY_HIGH, res: VERY_LARGE }), [
      at('p1.1', 'node1', MID, SMALL), at('p1.2', 'node1', LOW, SMALL), at('p1.3', 'node1', LOW, SMALL),
      at('p2.1', 'node2', HIGH, LARGE),
      at('p3.1', 'node3', MID, MEDIUM), at('p3.2', 'node3', LOW, SMALL), at('p3.3', 'node3', LOW, SMALL), at('p3.4', 'node3', LOW, MEDIUM),
      at('p4.1', 'node4', MID, MEDIUM), at('p4.2', 'node4', MID, SMALL), at('p4.3', 'node4', MID, SMALL), at('p4.4', 'node4', NEG, SMALL)], ['node1']],
    ['same priority, same number of victims, different start time for each node\'s pod', ['node1', 'node2', 'node3'], pod('p', { priority: HIGH, res: VERY_LARGE }), [
      at('p1.1', 'node1', MID, MEDIUM, 2), at('p1.2', 'node1', MID, MEDIUM, 2), at('p2.1', 'node2', MID, MEDIUM, 3),
      at('p2.2', 'node2', MID, MEDIUM, 3), at('p3.1', 'node3', MID, MEDIUM, 1), at('p3.2', 'node3', MID, MEDIUM, 1)], ['node2']],
    ['same priority, same number of victims, different start time for all pods', ['node1', 'node2', 'node3'], pod('p', { priority: HIGH, res: VERY_LARGE }), [
      at('p1.1', 'node1', MID, MEDIUM, 4), at('p1.2', 'node1', MID, MEDIUM, 2), at('p2.1', 'node2', MID, MEDIUM, 5),
      at('p2.2', 'node2', MID, MEDIUM, 1), at('p3.1', 'node3', MID, MEDIUM, 3), at('p3.2', 'node3', MID, MEDIUM, 6)], ['node3']],
    ['different priority, same number of victims, different start time for all pods', ['node1', 'node2', 'node3'], pod('p', { priority: HIGH, res: VERY_LARGE }), [
      at('p1.1', 'node1', LOW, MEDIUM, 4), at('p1.2', 'node1', MID, MEDIUM, 2), at('p2.1', 'node2', MID, MEDIUM, 6),
      at('p2.2', 'node2', LOW, MEDIUM, 1), at('p3.1', 'node3', LOW, MEDIUM, 3), at('p3.2', 'node3', MID, MEDIUM, 5)], ['node2']],
  ];

  it.each(rows)('%s', (_name, nodes, preemptor, pods, expected) => {
    for (const offset of [0, 1, 2]) {
      const [result, status] = postFilter(nodes, preemptor, pods, { offset: offset % nodes.length });
      expect(status.code).toBe('Success');
      expect(expected).toContain(result?.nominatedNodeName);
    }
  });
});

describe('pickOneNodeForPreemption', () => {
  const victims = (...priorities: number[]) => priorities.map((priority, i) => newPodInfo(pod(`v${i}`, { priority })));
  const cand = (name: string, pods: ReturnType<typeof victims>, numPDBViolations = 0): Candidate => ({ name, victims: { pods, numPDBViolations } });

  it('a node with no victims wins at once; none is ""', () => {
    expect(pickOneNodeForPreemption([cand('a', victims(LOW)), cand('b', [], 3)], 0)).toBe('b');
    expect(pickOneNodeForPreemption([], 0)).toBe('');
  });

  it('fewest PDB violations beats every other criterion', () => {
    expect(pickOneNodeForPreemption([cand('a', victims(NEG), 1), cand('b', victims(HIGH, HIGH, HIGH), 0)], 0)).toBe('b');
  });

  it('priorities are shifted by MaxInt32+1 before summing: two negative victims cost more than one', () => {
    expect(pickOneNodeForPreemption([cand('two', victims(NEG, NEG)), cand('one', victims(NEG))], 0)).toBe('one');
  });

  it('a full tie picks the first candidate', () => {
    expect(pickOneNodeForPreemption([cand('x', victims(MID)), cand('y', victims(MID))], 0)).toBe('x');
  });
});

describe('PodEligibleToPreemptOthers (upstream TestPodEligibleToPreemptOthers)', () => {
  const terminating = (name: string, priority: number, byPreemption: boolean): Pod => {
    const p = pod(name, { node: 'node1', priority });
    p.metadata.deletionTimestamp = epoch(1);
    if (byPreemption) p.status = { conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler' }] };
    return p;
  };
  const nominated = (priority: number, policy?: 'Never'): Pod => {
    const p = pod('p', { priority });
    if (policy) p.spec.preemptionPolicy = policy;
    p.status = { nominatedNodeName: 'node1' };
    return p;
  };
  const check = (preemptor: Pod, pods: Pod[], status: Status = unschedulable('Insufficient cpu')): string => {
    const snap = snapshotOf(['node1'], pods);
    return ineligibleToPreempt(newPodInfo(preemptor), new Map([['node1', status]]), snap.nodeInfoList);
  };

  it.each([
    ['Pod with nominated node', nominated(HIGH), [terminating('p1', LOW, true)], undefined, MSG_TERMINATING_VICTIM],
    ['Pod with nominated node, but without nominated node status', nominated(HIGH), [terminating('p1', LOW, true)], 'absent', ''],
    ['Pod with nominated node, but the terminating pod has a higher priority', nominated(LOW), [terminating('p1', HIGH, true)], undefined, ''],
    ['Pod with nominated node and the nominated node is UnschedulableAndUnresolvable', nominated(HIGH), [terminating('p1', LOW, true)], 'unresolvable', ''],
    ['victim terminating for another reason than preemption', nominated(HIGH), [terminating('p1', LOW, false)], undefined, ''],
    ['Pod with PreemptionPolicy=Never', nominated(HIGH, 'Never'), [], undefined, MSG_POLICY_NEVER],
  ] as const)('%s', (_n, preemptor, pods, statusKind, want) => {
    if (statusKind === 'absent') {
      const snap = snapshotOf(['node1'], [...pods]);
      expect(ineligibleToPreempt(newPodInfo(preemptor), new Map(), snap.nodeInfoList)).toBe(want);
      return;
    }
    const status = statusKind === 'unresolvable' ? unresolvable('node(s) had untolerated taint') : undefined;
    expect(check(preemptor, [...pods], status)).toBe(want);
  });
});
