import { describe, expect, it } from 'vitest';
import type { KubeObject, OwnerReference } from '../../api/index.ts';
import { classifyOwner, decideAttemptToDelete, type ItemFacts, type OwnerState } from './decide.ts';
import { DependencyGraph } from './graph.ts';

const RS = { apiVersion: 'apps/v1', kind: 'ReplicaSet' };
const POD = { apiVersion: 'v1', kind: 'Pod' };
const ref = (uid: string, block = true): OwnerReference => ({ ...RS, name: `rs-${uid}`, uid, controller: true, blockOwnerDeletion: block });
const obj = (uid: string, meta: Partial<KubeObject['metadata']> = {}): KubeObject => ({ metadata: { name: `o-${uid}`, namespace: 'default', uid, ...meta } });

describe('decideAttemptToDelete (attemptToDeleteItem cases)', () => {
  const facts = (owners: [string, OwnerState][], more: Partial<ItemFacts> = {}): ItemFacts => ({
    ownerReferences: owners.map(([uid]) => ref(uid)), owners: new Map(owners), finalizers: [], hasDependents: false, aDependentIsDeletingDependents: false, ...more,
  });
  const cases: [string, ItemFacts, ReturnType<typeof decideAttemptToDelete>][] = [
    ['no owners: nothing to do', facts([]), { action: 'none' }],
    ['a solid owner: keep', facts([['a', 'solid']]), { action: 'none' }],
    ['solid plus dangling: drop the dangling reference', facts([['a', 'solid'], ['b', 'dangling']]), { action: 'removeOwnerReferences', ownerUids: ['b'] }],
    ['solid plus waiting: drop the waiting reference too', facts([['a', 'solid'], ['c', 'waitingForDependentsDeletion']]), { action: 'removeOwnerReferences', ownerUids: ['c'] }],
    ['all owners gone: background delete', facts([['a', 'dangling']]), { action: 'delete', policy: 'Background', unblockFirst: false }],
    ['owner gone, orphan finalizer honoured', facts([['a', 'dangling']], { finalizers: ['orphan'] }), { action: 'delete', policy: 'Orphan', unblockFirst: false }],
    ['owner gone, foreground finalizer honoured', facts([['a', 'dangling']], { finalizers: ['foregroundDeletion'] }), { action: 'delete', policy: 'Foreground', unblockFirst: false }],
    ['waiting owner, no dependents: background', facts([['a', 'waitingForDependentsDeletion']]), { action: 'delete', policy: 'Background', unblockFirst: false }],
    ['waiting owner and dependents: foreground', facts([['a', 'waitingForDependentsDeletion']], { hasDependents: true }), { action: 'delete', policy: 'Foreground', unblockFirst: false }],
    ['waiting owner, a dependent deleting its own: unblock first', facts([['a', 'waitingForDependentsDeletion']], { hasDependents: true, aDependentIsDeletingDependents: true }), { action: 'delete', policy: 'Foreground', unblockFirst: true }],
  ];
  for (const [name, f, want] of cases) it(name, () => expect(decideAttemptToDelete(f)).toEqual(want));
});

describe('classifyOwner', () => {
  const cases: [string, KubeObject | undefined, OwnerState][] = [
    ['404', undefined, 'dangling'],
    ['same name, other uid', obj('zzz'), 'dangling'],
    ['exists', obj('a'), 'solid'],
    ['being deleted in the background', obj('a', { deletionTimestamp: 't' }), 'solid'],
    ['foreground deleting', obj('a', { deletionTimestamp: 't', finalizers: ['foregroundDeletion'] }), 'waitingForDependentsDeletion'],
  ];
  for (const [name, owner, want] of cases) it(name, () => expect(classifyOwner(ref('a'), owner)).toBe(want));
});

describe('DependencyGraph', () => {
  it('a dependent seen before its owner creates a virtual owner to verify; the owner replaces it', () => {
    const g = new DependencyGraph();
    expect(g.observe(obj('p1', { ownerReferences: [ref('r1')] }), POD)).toEqual({ attemptToDelete: ['r1'], attemptToOrphan: [] });
    expect(g.get('r1')?.virtual).toBe(true);
    expect(g.observe(obj('r1'), RS)).toEqual({ attemptToDelete: [], attemptToOrphan: [] });
    expect(g.get('r1')?.virtual).toBe(false);
    expect([...g.get('r1')!.dependents]).toEqual(['p1']);
  });
  it('deleting an owner queues its dependents; deleting a dependent of a foreground owner queues the owner', () => {
    const g = new DependencyGraph();
    g.observe(obj('r1'), RS);
    g.observe(obj('p1', { ownerReferences: [ref('r1')] }), POD);
    g.observe(obj('p2', { ownerReferences: [ref('r1')] }), POD);
    expect(g.observe(obj('r1', { deletionTimestamp: 't', finalizers: ['foregroundDeletion'] }), RS).attemptToDelete).toEqual(['p1', 'p2', 'r1']);
    // repeated updates do not re-trigger the transition
    expect(g.observe(obj('r1', { deletionTimestamp: 't', finalizers: ['foregroundDeletion'] }), RS).attemptToDelete).toEqual([]);
    expect(g.blockingDependents(g.get('r1')!).map((n) => n.identity.uid)).toEqual(['p1', 'p2']);
    expect(g.remove('p1').attemptToDelete).toEqual(['r1']);
    expect(g.remove('r1').attemptToDelete).toEqual(['p2']);
  });
  it('an orphan deletion starts once; an unblocked reference wakes the foreground owner', () => {
    const g = new DependencyGraph();
    g.observe(obj('r1'), RS);
    expect(g.observe(obj('r1', { deletionTimestamp: 't', finalizers: ['orphan'] }), RS).attemptToOrphan).toEqual(['r1']);
    expect(g.observe(obj('r1', { deletionTimestamp: 't', finalizers: ['orphan'] }), RS).attemptToOrphan).toEqual([]);
    g.observe(obj('r2', { deletionTimestamp: 't', finalizers: ['foregroundDeletion'] }), RS);
    g.observe(obj('p1', { ownerReferences: [ref('r2')] }), POD);
    expect(g.blockingDependents(g.get('r2')!)).toHaveLength(1);
    expect(g.observe(obj('p1', { ownerReferences: [ref('r2', false)] }), POD).attemptToDelete).toEqual(['r2']);
    expect(g.blockingDependents(g.get('r2')!)).toHaveLength(0);
  });
});
