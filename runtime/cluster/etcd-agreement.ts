// Do the etcd members agree? Asked the way an operator asks, through the maintenance API
// (`etcdctl endpoint status` and `endpoint hashkv` against each member): every member must reach
// the same revision, and at that revision every member's KV hash must be equal (etcd's own
// corruption check, server/etcdserver/corrupt.go, compares HashKV at a common revision the same way).
import type { EtcdClient } from '../etcd/index.ts';
import type { Cluster } from './cluster.ts';

export type Agreement = { ok: true; revision: number; hash: number } | { ok: false; message: string };

/**
 * Polls every member's status until all of them have applied the highest revision any of them
 * reported (the cluster keeps writing Leases meanwhile, so "same revision" means "caught up"),
 * then compares HashKV at that revision. Gives up after budgetMs of simulated time.
 */
export function etcdMembersAgree(cluster: Cluster, client: EtcdClient, budgetMs = 20_000): Agreement {
  const { driveUntil, kernel } = cluster.internals;
  const endpoints = cluster.internals.controlPlane.etcd.endpoints;
  const deadline = kernel.now() + budgetMs;
  let target = 0;
  let revisions = new Map<string, number>();
  while (kernel.now() < deadline) {
    revisions = askAll<number>(endpoints, (ep, cb) => client.status(ep, (r) => cb(r.ok ? r.value.header.revision : undefined), { endpoint: ep, timeoutMs: 2000 }), driveUntil);
    target = Math.max(target, ...revisions.values());
    if (revisions.size === endpoints.length && [...revisions.values()].every((rev) => rev >= target)) break;
    kernel.runFor(200);
  }
  const behind = endpoints.filter((ep) => (revisions.get(ep) ?? -1) < target);
  if (behind.length > 0) return { ok: false, message: `etcd members did not reach revision ${target}: ${behind.map((ep) => `${ep} at ${revisions.get(ep) ?? 'no answer'}`).join(', ')}` };
  const hashes = askAll<number>(endpoints, (ep, cb) => client.hashKV(ep, target, (r) => cb(r.ok ? r.value.hash : undefined), { endpoint: ep, timeoutMs: 2000 }), driveUntil);
  const distinct = new Set(hashes.values());
  if (hashes.size !== endpoints.length || distinct.size !== 1) {
    return { ok: false, message: `etcd members disagree at revision ${target}: ${endpoints.map((ep) => `${ep} hash ${hashes.get(ep) ?? 'no answer'}`).join(', ')}` };
  }
  return { ok: true, revision: target, hash: [...distinct][0]! };
}

/** Asks every endpoint at once and drives the kernel until all answered (undefined answers are dropped). */
function askAll<T>(
  endpoints: readonly string[], ask: (ep: string, cb: (v: T | undefined) => void) => void,
  driveUntil: (done: () => boolean, ms: number) => boolean,
): Map<string, T> {
  const out = new Map<string, T>();
  let answered = 0;
  for (const ep of endpoints) {
    ask(ep, (v) => {
      answered++;
      if (v !== undefined) out.set(ep, v);
    });
  }
  driveUntil(() => answered === endpoints.length, 10_000);
  return out;
}
