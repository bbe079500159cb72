import { describe, expect, it } from 'vitest';
import type { Proposal } from './protocol.ts';
import { EtcdStateMachine, memberSnapshotOf, rememberProposal, summarizeEntryData } from './state-machine.ts';

const put = (id: string, key: string, value: string): string => JSON.stringify({ id, cmd: { op: 'put', req: { key, value } } } satisfies Proposal);

function filled(writes: number): EtcdStateMachine {
  const sm = new EtcdStateMachine(1);
  for (let i = 0; i < writes; i++) sm.apply(put(`c|${i}`, `/registry/pods/default/p${i % 7}`, `v${i}`), i + 1);
  return sm;
}

describe('EtcdStateMachine snapshots', () => {
  it('restores the same store, history and request-ID window', () => {
    const sm = filled(40);
    const copy = new EtcdStateMachine(1);
    copy.restore(sm.snapshot());
    expect(copy.store.hashKV().ok && copy.store.hashKV()).toEqual(sm.store.hashKV());
    expect(copy.store.revision).toBe(41);
    expect(copy.store.consistentIndex).toBe(40);
    // a request ID applied before the snapshot is still recognized as a duplicate after it
    const again = copy.apply(put('c|39', '/registry/pods/default/p4', 'v39'), 41);
    expect(again?.fresh).toBe(false);
    expect(copy.store.revision).toBe(41);
  });

  it('is an image: writes after it, on either side, change neither the snapshot nor the other store', () => {
    const sm = filled(20);
    const snap = sm.snapshot();
    const hashAtSnapshot = sm.store.hashKV();
    sm.apply(put('late|1', '/registry/pods/default/p1', 'after'), 21);
    sm.store.compact(sm.store.revision);
    const restored = new EtcdStateMachine(1);
    restored.restore(snap);
    expect(restored.store.hashKV()).toEqual(hashAtSnapshot);
    restored.apply(put('late|2', '/registry/pods/default/p2', 'other'), 21);
    const again = new EtcdStateMachine(1);
    again.restore(snap);
    expect(again.store.hashKV()).toEqual(hashAtSnapshot);
  });

  it('is a structured object, not one string (a 30,000-pod store does not fit in a JS string)', () => {
    const snap = filled(5).snapshot();
    expect(typeof snap).toBe('object');
    expect(snap.store.keys.map(([k]) => k)).toEqual([0, 1, 2, 3, 4].map((i) => `/registry/pods/default/p${i}`));
  });

  it('boots a restored member from a store image with an empty request-ID window', () => {
    const source = filled(10);
    const sm = new EtcdStateMachine(1);
    sm.restore(memberSnapshotOf(source.store.toSnapshot()));
    expect(sm.store.hashKV()).toEqual(source.store.hashKV());
    expect(sm.apply(put('c|3', '/registry/pods/default/p3', 'v3'), 11)?.fresh).toBe(true);
  });

  it('refuses data that is not a member snapshot', () => {
    const sm = new EtcdStateMachine(1);
    expect(() => sm.restore('{"store":{}}')).toThrow(/invariant violated/);
    expect(() => sm.restore({ store: {} })).toThrow(/invariant violated/);
  });
});

describe('EtcdStateMachine proposal memo', () => {
  it('applies the proposing member\'s own object, and parses a different entry that reuses its ID', () => {
    const proposal: Proposal = { id: 'memo|1', cmd: { op: 'put', req: { key: '/k', value: 'first' } } };
    const data = JSON.stringify(proposal);
    rememberProposal(data, proposal);
    const sm = new EtcdStateMachine(1);
    expect(sm.apply(data, 1)?.proposal).toBe(proposal);
    // same ID, other text (e.g. a forged or corrupted entry): its own content is applied, not the memo's
    const other = new EtcdStateMachine(1);
    const applied = other.apply(put('memo|1', '/k', 'second'), 1);
    expect(applied?.proposal.cmd).toEqual({ op: 'put', req: { key: '/k', value: 'second' } });
    expect(other.store.range({ key: '/k' }).ok && (other.store.range({ key: '/k' }) as { value: { kvs: { value: string }[] } }).value.kvs[0]!.value).toBe('second');
  });

  it('parses an entry whose ID has escaped characters', () => {
    const sm = new EtcdStateMachine(1);
    expect(sm.apply(put('a"b|1', '/q', 'v'), 1)?.id).toBe('a"b|1');
  });
});

describe('summarizeEntryData (the live Raft view)', () => {
  const entry = (cmd: unknown) => JSON.stringify({ id: 'c|1', cmd });
  it.each([
    ['', "(new leader's empty entry)"],
    [entry({ op: 'put', req: { key: '/registry/leases/kube-node-lease/w1', value: 'x' } }), 'put /registry/leases/kube-node-lease/w1'],
    [entry({ op: 'deleteRange', req: { key: '/a', rangeEnd: '/b' } }), 'delete /a (range)'],
    [entry({ op: 'deleteRange', req: { key: '/a' } }), 'delete /a'],
    [entry({ op: 'txn', req: { compare: [{ key: '/registry/pods/default/web-1', target: 'MOD', result: 'EQUAL', operand: 0 }], success: [], failure: [] } }), 'txn /registry/pods/default/web-1'],
    [entry({ op: 'txn', req: { compare: [], success: [{ put: { key: '/k', value: '' } }], failure: [] } }), 'txn /k'],
    [entry({ op: 'txn', req: { compare: [], success: [], failure: [] } }), 'txn'],
    [entry({ op: 'compact', revision: 120 }), 'compact 120'],
    [entry({ op: 'leaseGrant', id: 5, ttl: 60 }), 'lease grant 60s'],
    [entry({ op: 'leaseRevoke', id: 5 }), 'lease revoke'],
    ['{not json', '(unreadable)'],
    [JSON.stringify({ id: 'c|2' }), '(unknown command)'],
  ])('%s reads as %s', (data, summary) => {
    expect(summarizeEntryData(data)).toBe(summary);
  });
});
