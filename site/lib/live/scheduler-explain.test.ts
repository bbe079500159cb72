import { describe, expect, it } from 'vitest';
import { camelParts, filterVerdict, nodesWithReason, parseFitMessage, scoreTable } from './scheduler-explain.ts';

const TAINT = 'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }';

describe('parseFitMessage', () => {
  it('breaks the message down per reason with its node count, and preemption\'s too', () => {
    expect(parseFitMessage(`0/5 nodes are available: 2 Insufficient cpu, 3 ${TAINT}. preemption: 0/5 nodes are available: 2 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.`)).toEqual({
      total: 5,
      reasons: [{ count: 2, reason: 'Insufficient cpu' }, { count: 3, reason: TAINT }],
      preemption: {
        total: 5,
        reasons: [{ count: 2, reason: 'No preemption victims found for incoming pod' }, { count: 3, reason: 'Preemption is not helpful for scheduling' }],
      },
    });
  });

  it('keeps the message\'s order (Go sorts the parts as strings: "10 x" before "2 y") and dots inside reasons', () => {
    const b = parseFitMessage('0/12 nodes are available: 10 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 2 Insufficient memory.');
    expect(b).toEqual({ total: 12, reasons: [{ count: 10, reason: 'node(s) had untolerated taint {node.kubernetes.io/not-ready: }' }, { count: 2, reason: 'Insufficient memory' }] });
  });

  it('takes a PreFilter message (no counts: it rejects the pod on every node) and a preemption message of another form', () => {
    expect(parseFitMessage('0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: not eligible due to preemptionPolicy=Never.')).toEqual({
      total: 3,
      reasons: [{ count: undefined, reason: 'pod has unbound immediate PersistentVolumeClaims' }],
      preemption: 'not eligible due to preemptionPolicy=Never',
    });
  });

  it('is undefined for anything else', () => {
    expect(parseFitMessage('running PreFilter plugin "X": boom')).toBeUndefined();
    expect(parseFitMessage('')).toBeUndefined();
  });
});

const filter = {
  'cp-1': { NodeName: 'passed', NodeUnschedulable: 'passed', TaintToleration: TAINT },
  'worker-1': { NodeName: 'passed', NodeResourcesFit: 'Insufficient cpu, Insufficient memory', NodeUnschedulable: 'passed', TaintToleration: 'passed' },
  'worker-2': { NodeName: 'passed', NodeResourcesFit: 'passed', NodeUnschedulable: 'passed', TaintToleration: 'passed' },
};

describe('filter verdicts', () => {
  it('says which plugin rejected a node and why, or that it passed every filter, or was not filtered', () => {
    expect(filterVerdict({ filter }, 'cp-1')).toEqual({ kind: 'rejected', plugin: 'TaintToleration', reason: TAINT, passed: ['NodeName', 'NodeUnschedulable'] });
    expect(filterVerdict({ filter }, 'worker-2')).toEqual({ kind: 'passed', plugins: ['NodeName', 'NodeResourcesFit', 'NodeUnschedulable', 'TaintToleration'] });
    expect(filterVerdict({ filter }, 'worker-9')).toEqual({ kind: 'skipped' });
  });

  it('finds the nodes behind each reason of the message, one plugin\'s several reasons included', () => {
    expect(nodesWithReason({ filter }, 'Insufficient memory')).toEqual(['worker-1']);
    expect(nodesWithReason({ filter }, TAINT)).toEqual(['cp-1']);
  });
});

describe('scoreTable', () => {
  it('puts the highest total first, marks the selected node and its ties', () => {
    const t = scoreTable({
      selectedNode: 'worker-2',
      score: { 'worker-1': { NodeResourcesFit: 21, TaintToleration: 0 }, 'worker-2': { NodeResourcesFit: 24, TaintToleration: 0 }, 'worker-3': { NodeResourcesFit: 24, TaintToleration: 0 } },
      finalScore: { 'worker-1': { NodeResourcesFit: 21, TaintToleration: 300 }, 'worker-2': { NodeResourcesFit: 24, TaintToleration: 300 }, 'worker-3': { NodeResourcesFit: 24, TaintToleration: 300 } },
    });
    expect(t.plugins).toEqual(['NodeResourcesFit', 'TaintToleration']);
    expect(t.rows.map((r) => `${r.node} ${r.total}${r.selected ? ' selected' : ''}`)).toEqual(['worker-2 324 selected', 'worker-3 324', 'worker-1 321']);
    expect(t.rows[0]!.cells[1]).toEqual({ raw: 0, weighted: 300 });
    expect(t.tiedWith).toEqual(['worker-3']);
  });

  it('is empty for a pod no node passed', () => {
    expect(scoreTable({ selectedNode: '', score: {}, finalScore: {} })).toEqual({ plugins: [], rows: [], tiedWith: [] });
  });
});

describe('camelParts', () => {
  it('splits a plugin name where it may wrap', () => {
    expect(camelParts('NodeResourcesBalancedAllocation')).toEqual(['Node', 'Resources', 'Balanced', 'Allocation']);
    expect(camelParts('ImageLocality')).toEqual(['Image', 'Locality']);
  });
});
