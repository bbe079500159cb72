// A RangeAllocation: the snapshot of an allocator's bitmap, one object in etcd that every API server
// replica reads and writes with optimistic concurrency, so two replicas never hand out the same
// value. Node ports live at /registry/ranges/servicenodeports.
// mirrors pkg/registry/core/rangeallocation (the RangeAllocation object: range and data) and
// pkg/registry/core/service/allocator/storage/storage.go (Etcd.tryUpdate: a GuaranteedUpdate that
// re-reads the snapshot and re-applies the change when another replica wrote in between).
import { newInternalError, type KubeObject, type Status } from '../../api/index.ts';
import type { EtcdClient } from '../../etcd/index.ts';
import { EtcdStore } from '../storage/etcd-store.ts';

/** The key of the node port bitmap (upstream "/ranges/servicenodeports" under the /registry prefix). */
export const SERVICE_NODE_PORTS_KEY = '/registry/ranges/servicenodeports';

/** api.RangeAllocation: range "30000-32767", data the bitmap's bytes (base64 in JSON). */
export interface RangeAllocation extends KubeObject {
  range: string;
  data: string;
}

export interface RangeSnapshot {
  range: string;
  data: string;
}

/**
 * What a change decides for the snapshot it is shown (undefined when nothing is stored yet): a new
 * snapshot to write, 'unchanged' to write nothing, or a Status that aborts the update.
 */
export type RangeChange = (current: RangeSnapshot | undefined) => RangeSnapshot | 'unchanged' | Status;

export interface RangeAllocationStorage {
  /** GuaranteedUpdate of the snapshot: `change` may run more than once (after a lost race). */
  update(change: RangeChange, cb: (error?: Status) => void): void;
  /** The stored snapshot, read with a quorum read. */
  get(cb: (snapshot: RangeSnapshot | undefined, error?: Status) => void): void;
}

export function rangeAllocationStorage(etcd: EtcdClient, key: string, nowRfc3339: () => string): RangeAllocationStorage {
  const store = new EtcdStore(etcd);
  return {
    update(change, cb) {
      store.guaranteedUpdate(key, (current, answer) => {
        const cur = current?.object as RangeAllocation | undefined;
        const next = change(cur ? { range: cur.range, data: cur.data } : undefined);
        if (next === 'unchanged') return answer({ action: 'noop', object: cur ?? rangeObject({ range: '', data: '' }, '') });
        if ('kind' in next && next.kind === 'Status') return answer({ action: 'abort', status: next as Status });
        const snap = next as RangeSnapshot;
        answer({ action: 'put', object: rangeObject(snap, cur?.metadata.creationTimestamp ?? nowRfc3339()) });
      }, (r) => cb(r.ok ? undefined : r.status));
    },
    get(cb) {
      store.get(key, (r) => {
        if (!r.ok) return cb(undefined, r.status);
        const obj = r.value?.object as RangeAllocation | undefined;
        if (obj && (typeof obj.range !== 'string' || typeof obj.data !== 'string')) return cb(undefined, newInternalError(`unable to decode the RangeAllocation at ${key}`));
        cb(obj ? { range: obj.range, data: obj.data } : undefined);
      });
    },
  };
}

function rangeObject(snap: RangeSnapshot, creationTimestamp: string): RangeAllocation {
  return { apiVersion: 'v1', kind: 'RangeAllocation', metadata: creationTimestamp ? { creationTimestamp } : {}, range: snap.range, data: snap.data };
}
