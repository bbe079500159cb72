// The etcd disaster-recovery drill on a running cluster, as the kubeadm and etcd docs tell it
// (kubernetes.io "Operating etcd clusters for Kubernetes: Restoring an etcd cluster", etcd
// op-guide/recovery.md): with a snapshot taken earlier by `etcdctl snapshot save`,
//   1. stop every kube-apiserver (kubeadm: move the static pod manifests away),
//   2. stop every etcd member,
//   3. `etcdutl snapshot restore <file> --name <member> --initial-cluster ... --initial-cluster-token
//      <new token> --data-dir <dir> --bump-revision N --mark-compacted` once per member,
//   4. start every member from its restored data directory (a NEW cluster: new cluster ID),
//   5. start the API servers again.
// The controllers, schedulers and kubelets are left running, as they are in a real cluster: their
// watches break while the API servers are down, and when they resume from their old resource
// version the bumped, compacted revision answers "410 Gone", so they relist and see the restored
// state (objects deleted after the snapshot come back, objects created after it are gone); pods
// still running on their nodes are recognised by UID and adopted, not started twice.
import { decodeSnapshotFile } from '../etcd/index.ts';
import type { Cluster, CommandResult } from './cluster.ts';

export interface RestoreEtcdOptions {
  /**
   * --bump-revision: how far past the snapshot's revision the restored cluster starts (default
   * 1,000,000,000, the figure the Kubernetes docs suggest; it must exceed the writes made since the
   * snapshot). 0 restores the old revisions as they were (then --mark-compacted is not passed, and
   * watchers that saw later revisions wait for them instead of relisting: the reason for the flag).
   */
  bumpRevision?: number;
  /** --initial-cluster-token of the new cluster (default: a fresh one per restore, so a new cluster ID). */
  clusterToken?: string;
}

/** How long the drill waits for the restored members to elect a leader and the API servers to be ready. */
const RESTORE_READY_TIMEOUT_MS = 60_000;
export const DEFAULT_BUMP_REVISION = 1_000_000_000;

/**
 * Runs the drill on `cluster` from the snapshot file `file` (a path in cluster.internals.files,
 * written by `cluster.etcdctl('snapshot save <file>')`). Returns the transcript: the commands run
 * and what they printed; exitCode 1 if a step failed (the cluster is then left as that step left it).
 */
export async function restoreEtcd(cluster: Cluster, file: string, o: RestoreEtcdOptions = {}): Promise<CommandResult> {
  const { controlPlane, plan, files, driveUntil } = cluster.internals;
  const out: string[] = [];
  const fail = (message: string): CommandResult => ({ stdout: out.join(''), stderr: message, exitCode: 1 });
  if (plan.topology === 'managed') return fail('Error: etcd is run by the cloud provider in a managed cluster and is not reachable from here\n');
  const data = files.get(file);
  if (data === undefined) return fail(`Error: open ${file}: no such file or directory\n`);
  const checked = decodeSnapshotFile(data); // before anything is stopped
  if (!checked.ok) return fail(`Error: ${checked.error.message}\n`);
  const bump = o.bumpRevision ?? DEFAULT_BUMP_REVISION;
  const token = o.clusterToken ?? `kubernetes-etcd-restore-${restoreCount(files) + 1}`; // a new token: a new cluster ID

  for (const api of plan.apiServers) await step(out, `stop ${api}`, () => cluster.faults.stopComponent(api));
  // no pause needed before the new members start: a Raft message the old members still had in
  // flight carries the old cluster ID, and the restored members refuse it (etcd/server/peer.ts)
  for (const member of plan.etcdMembers) await step(out, `stop ${member}`, () => cluster.faults.stopComponent(member));

  const initialCluster = controlPlane.etcd.members.map((m) => `${m.name}=${m.peerURL}`).join(',');
  const dirOf = new Map<string, string>();
  const attempt = restoreCount(files) + 1;
  for (const member of controlPlane.etcd.members) {
    const dataDir = `/var/lib/etcd-from-backup-${attempt}/${member.name}`;
    const flags = bump > 0 ? ` --bump-revision ${bump} --mark-compacted` : '';
    const cmd = `snapshot restore ${file} --name ${member.name} --initial-cluster ${initialCluster} --initial-cluster-token ${token} --initial-advertise-peer-urls ${member.peerURL} --data-dir ${dataDir}${flags}`;
    const r = await cluster.etcdctl(cmd);
    out.push(`$ etcdutl ${cmd}\n${r.stdout}${r.stderr.replace('Deprecated: Use `etcdutl snapshot restore` instead.\n\n', '')}`);
    if (r.exitCode !== 0) return fail(r.stderr);
    dirOf.set(member.process, dataDir);
  }
  for (const member of controlPlane.etcd.members) {
    const dataDir = dirOf.get(member.process)!;
    const started = controlPlane.etcd.startFromDataDir(member.process, files.get(dataDir)!);
    if (!started.ok) return fail(`Error: ${started.error.message}\n`);
    out.push(`$ etcd --name ${member.name} --data-dir ${dataDir}   # cluster ID ${started.value.clusterId}\n`);
  }
  if (!driveUntil(() => controlPlane.etcd.leader() !== undefined, RESTORE_READY_TIMEOUT_MS)) {
    return fail(`Error: the restored etcd members elected no leader within ${RESTORE_READY_TIMEOUT_MS / 1000}s\n`);
  }
  for (const api of plan.apiServers) await step(out, `start ${api}`, () => cluster.faults.startComponent(api));
  const ready = (): boolean => controlPlane.replicas.every((r) => r.current()?.isReady === true);
  if (!driveUntil(ready, RESTORE_READY_TIMEOUT_MS)) return fail(`Error: the API servers were not ready within ${RESTORE_READY_TIMEOUT_MS / 1000}s of the restore\n`);
  out.push(`etcd restored from ${file}: cluster ${controlPlane.etcd.clusterId}, API servers ready\n`);
  return { stdout: out.join(''), stderr: '', exitCode: 0 };
}

async function step(out: string[], what: string, run: () => Promise<void>): Promise<void> {
  await run();
  out.push(`# ${what}\n`);
}

/** Restores done before on this cluster (their data directories are in its files). */
function restoreCount(files: ReadonlyMap<string, string>): number {
  const dirs = new Set([...files.keys()].filter((f) => f.startsWith('/var/lib/etcd-from-backup-')).map((f) => f.split('/')[3]));
  return dirs.size;
}
