// etcdutl snapshot restore: turns a snapshot file into one member's data directory for a NEW
// cluster (new member IDs and cluster ID from --initial-cluster-token, a fresh Raft log whose first
// entry is the snapshot). With --bump-revision N --mark-compacted the restored store starts N
// revisions after the snapshot's, compacted at that point, so a client that watched the old
// cluster (kube-apiserver, and through it every informer) gets "required revision has been
// compacted" and relists instead of waiting for revisions the old cluster had already used.
// mirrors etcdutl/etcdutl/snapshot_command.go and etcdutl/snapshot/v3_snapshot.go (Restore,
// modifyLatestRevision, updateCompactRevision); the data directory here is a JSON document.
import type { Result } from '../errors.ts';
import { fail, ok } from '../errors.ts';
import { MvccStore } from '../mvcc/store.ts';
import { decodeSnapshotFile, encodeSnapshotFile } from '../mvcc/snapshot-file.ts';

export interface RestoreConfig {
  /** --name: this member's name (default "default"). */
  name: string;
  /** --initial-cluster: name=peerURL pairs of every member of the new cluster. */
  initialCluster: string;
  /** --initial-cluster-token: a new token gives new member IDs and a new cluster ID. */
  clusterToken: string;
  /** --bump-revision: how much to increase the latest revision (0: keep it). */
  bumpRevision: number;
  /** --mark-compacted: compact at the (bumped) latest revision; required with a bump, refused without. */
  markCompacted: boolean;
}

/** What `etcd --data-dir` finds after a restore. */
export interface RestoredDataDir {
  format: 'etcd-sim-data-dir/1';
  name: string;
  clusterToken: string;
  /** Member names of the new cluster, in --initial-cluster order. */
  members: string[];
  /** The restored store, as a snapshot file. */
  snapshot: string;
}

/** The etcdutl flag check (its error text, typo included: the flag is --bump-revision). */
export const ErrMarkCompactedRequired = '--mark-compacted required if --revision-bump > 0';

export function restoreDataDir(file: string, cfg: RestoreConfig): Result<{ dataDir: string; revision: number }> {
  if ((cfg.bumpRevision === 0) === cfg.markCompacted) return fail({ code: 'InvalidArgument', message: ErrMarkCompactedRequired });
  const decoded = decodeSnapshotFile(file);
  if (!decoded.ok) return decoded;
  const members = parseInitialCluster(cfg.initialCluster);
  if (!members.ok) return members;
  if (!members.value.includes(cfg.name)) {
    return fail({ code: 'InvalidArgument', message: `couldn't find local name "${cfg.name}" in the initial cluster configuration` });
  }
  let snap = decoded.value;
  if (cfg.bumpRevision > 0) {
    const store = MvccStore.fromSnapshot({ ...snap, revision: snap.revision + cfg.bumpRevision });
    const compacted = store.compact(store.revision);
    if (!compacted.ok) return compacted;
    snap = store.toSnapshot();
  }
  const dir: RestoredDataDir = { format: 'etcd-sim-data-dir/1', name: cfg.name, clusterToken: cfg.clusterToken, members: members.value, snapshot: encodeSnapshotFile(snap) };
  return ok({ dataDir: JSON.stringify(dir), revision: snap.revision });
}

export function decodeDataDir(data: string): Result<RestoredDataDir> {
  let dir: RestoredDataDir;
  try {
    dir = JSON.parse(data) as RestoredDataDir;
  } catch {
    return fail({ code: 'InvalidArgument', message: 'not an etcd data directory' });
  }
  if (dir?.format !== 'etcd-sim-data-dir/1') return fail({ code: 'InvalidArgument', message: 'not an etcd data directory' });
  return ok(dir);
}

function parseInitialCluster(s: string): Result<string[]> {
  const names: string[] = [];
  for (const pair of s.split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) return fail({ code: 'InvalidArgument', message: `invalid --initial-cluster "${s}" (want name=peerURL,...)` });
    names.push(pair.slice(0, eq));
  }
  return ok(names);
}
