// The public face of the etcd layer. Only apiserver, cli (etcdctl), cluster and testing import it.
//
//   const etcd = createEtcdCluster(kernel, { members: 3 });      // members are kernel processes
//   const client = etcd.client({ name: 'kube-apiserver-0/etcd' }); // its own network endpoint
//   client.put({ key: '/registry/pods/default/web', value }, (r) => { ... }, { timeoutMs: 5000 });
//   client.watch({ key: '/registry/pods/', rangeEnd: prefixEnd('/registry/pods/'), startRevision }, onEvents);
//
// Results arrive through callbacks run by the kernel: Result values with a response header
// (revision, raft term, member), or an EtcdError whose message is the text etcd/etcdctl prints.
export * from './errors.ts';
export type * from './mvcc/types.ts';
export { DEFAULT_MAX_REQUEST_BYTES, DEFAULT_MAX_TXN_OPS, MAX_LEASE_TTL_SECONDS } from './mvcc/types.ts';
export { compareKeys, prefixEnd, FROM_KEY } from './mvcc/keys.ts';
export { MvccStore, type StoreSnapshot, type HistoryEntry } from './mvcc/store.ts';
export { WatchHub, type WatchRequest, type WatchResponse, type WatchSink } from './mvcc/watch.ts';
export { crc32c } from './mvcc/hash.ts';
export { encodeSnapshotFile, decodeSnapshotFile, snapshotFileStatus } from './mvcc/snapshot-file.ts';
export type * from './client/types.ts';
export { SimEtcdClient, type ClientOptions } from './client/client.ts';
export { createEtcdCluster, memberIdFor, DEFAULT_ETCD_VERSION, type EtcdCluster, type EtcdClusterOptions, type RaftLogView } from './server/cluster.ts';
export type { MemberSpec } from './server/member.ts';
/** For tests, benches and fault schedules: drive one call to completion on the kernel. */
export { callSync, syncClient, waitForLeader } from './server/test-helpers.ts';
export { restoreDataDir, decodeDataDir, ErrMarkCompactedRequired, type RestoreConfig, type RestoredDataDir } from './server/restore.ts';
