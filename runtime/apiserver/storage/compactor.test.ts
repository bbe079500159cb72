import { describe, expect, it } from 'vitest';
import { createKernel } from '../../kernel/index.ts';
import { createInMemoryEtcd } from '../testing/mvcc-etcd-client.ts';
import { COMPACTION_INTERVAL_MS, startCompactor } from './compactor.ts';

// mirrors the behaviour of k8s.io/apiserver/pkg/storage/etcd3/compact_test.go: the first round
// only records a revision; each later round compacts to the revision recorded one round before;
// with several API server replicas, one compaction happens per interval.
describe('the API server compactor (etcd3/compact.go)', () => {
  function writes(etcd: ReturnType<typeof createInMemoryEtcd>, n: number, prefix: string): void {
    for (let i = 0; i < n; i++)
      etcd.client.put(
        { key: `/registry/configmaps/default/${prefix}${i}`, value: '{}' },
        () => undefined,
      );
  }

  it('compacts to the revision seen one interval earlier, never on the first round', () => {
    const kernel = createKernel({ seed: 1 });
    const etcd = createInMemoryEtcd({ clock: kernel });
    const compacted: number[] = [];
    startCompactor(etcd.client, kernel, { onCompacted: (rev) => compacted.push(rev) });
    writes(etcd, 10, 'a');
    const neverCompacted = etcd.store.compactRevision;
    kernel.runFor(COMPACTION_INTERVAL_MS + 100); // round 1: records the revision, compacts nothing
    expect(etcd.store.compactRevision).toBe(neverCompacted);
    expect(compacted).toEqual([]);
    const recorded = etcd.store.revision; // the txn of round 1 is the newest write
    writes(etcd, 10, 'b');
    kernel.runFor(COMPACTION_INTERVAL_MS); // round 2: compacts to what round 1 saw
    expect(compacted).toEqual([recorded]);
    expect(etcd.store.compactRevision).toBe(recorded);
  });

  it('with three replicas, compacts once per interval (the txn on compact_rev_key elects one)', () => {
    const kernel = createKernel({ seed: 2 });
    const etcd = createInMemoryEtcd({ clock: kernel });
    const compacted: number[] = [];
    for (let i = 0; i < 3; i++)
      startCompactor(etcd.client, kernel, { onCompacted: (rev) => compacted.push(rev) });
    for (let round = 0; round < 4; round++) {
      writes(etcd, 5, `r${round}-`);
      kernel.runFor(COMPACTION_INTERVAL_MS);
    }
    kernel.runFor(100);
    expect(compacted.length).toBeGreaterThanOrEqual(2);
    expect(compacted.length).toBeLessThanOrEqual(3); // one per interval after the first
    expect([...compacted].sort((a, b) => a - b)).toEqual(compacted); // increasing
  });
});
