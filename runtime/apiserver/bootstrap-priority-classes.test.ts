// The post-start hook's system priority classes and their delete guard, after
// pkg/registry/scheduling/rest/storage_scheduling.go and priorityclass/storage/storage_test.go.
import { describe, expect, it } from 'vitest';
import type { PriorityClass, Status } from '../api/index.ts';
import { createHarness } from './testing/harness.ts';

const G = 'scheduling.k8s.io';

describe('system priority classes', () => {
  it('a fresh API server has both, with the upstream values and descriptions', () => {
    const h = createHarness();
    const list = h.admin({ verb: 'list', group: G, resource: 'priorityclasses' }).body as unknown as { items: PriorityClass[] };
    expect(list.items.map((c) => [c.metadata.name, c.value, c.globalDefault ?? false, c.preemptionPolicy, c.description])).toEqual([
      ['system-cluster-critical', 2000000000, false, 'PreemptLowerPriority', 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.'],
      ['system-node-critical', 2000001000, false, 'PreemptLowerPriority', 'Used for system critical pods that must not be moved from their current node.'],
    ]);
    expect(h.etcd.store.get('/registry/priorityclasses/system-node-critical')).toBeDefined();
  });

  it.each(['system-node-critical', 'system-cluster-critical'])('refuses to delete %s', (name) => {
    const h = createHarness();
    const res = h.admin({ verb: 'delete', group: G, resource: 'priorityclasses', name });
    expect(res.code).toBe(403);
    expect((res.body as Status).message).toBe(`priorityclasses.scheduling.k8s.io "${name}" is forbidden: this is a system priority class and cannot be deleted`);
    expect(h.admin({ verb: 'get', group: G, resource: 'priorityclasses', name }).code).toBe(200);
  });

  it('deletes a user class', () => {
    const h = createHarness();
    const body = { metadata: { name: 'batch' }, value: 10 };
    expect(h.admin({ verb: 'create', group: G, resource: 'priorityclasses', body }).code).toBe(201);
    expect(h.admin({ verb: 'delete', group: G, resource: 'priorityclasses', name: 'batch' }).code).toBe(200);
    expect(h.admin({ verb: 'get', group: G, resource: 'priorityclasses', name: 'batch' }).code).toBe(404);
  });

  it('a restarted server does not create them again', () => {
    const h = createHarness();
    const before = h.etcd.store.get('/registry/priorityclasses/system-node-critical')!.modRevision;
    h.server.stop();
    h.server.start();
    h.kernel.runUntil(() => h.server.isReady, 100_000);
    expect(h.etcd.store.get('/registry/priorityclasses/system-node-critical')!.modRevision).toBe(before);
  });
});
