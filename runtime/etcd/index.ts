// The public face of the etcd layer: the member cluster factory, the client, the MVCC data model
// and the error texts. Only apiserver, cli (etcdctl), cluster and testing import this.
export * from './errors.ts';
export type * from './mvcc/types.ts';
export { DEFAULT_MAX_REQUEST_BYTES, DEFAULT_MAX_TXN_OPS, MAX_LEASE_TTL_SECONDS } from './mvcc/types.ts';
export { compareKeys, prefixEnd, FROM_KEY } from './mvcc/keys.ts';
export { MvccStore, type StoreSnapshot, type HistoryEntry } from './mvcc/store.ts';
export { WatchHub, type WatchRequest, type WatchResponse, type WatchSink } from './mvcc/watch.ts';
export { crc32c } from './mvcc/hash.ts';
export type * from './client/types.ts';
export { encodeSnapshotFile, decodeSnapshotFile, snapshotFileStatus } from './mvcc/snapshot-file.ts';
export { createEtcdCluster, memberIdFor, DEFAULT_ETCD_VERSION, type EtcdCluster, type EtcdClusterOptions } from './server/cluster.ts';
export type { MemberSpec } from './server/member.ts';
export { SimEtcdClient, type ClientOptions } from './client/client.ts';
