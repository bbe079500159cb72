// The safety checks of a fault schedule besides linearizability: acknowledged writes are never
// lost, members converge to the same store, and the watch stream has no gaps or duplicates.
import type { EtcdCluster } from '../../etcd/index.ts';
import type { AckedWrite } from './workload.ts';

/** One event as the watcher received it. */
export interface SeenEvent {
  revision: number;
  key: string;
  /** null for a DELETE. */
  value: string | null;
}

/**
 * Every acknowledged write must be in the watch stream at the revision it was given, and in every
 * member's history (for revisions still kept after compaction).
 */
export function checkAckedWrites(cluster: EtcdCluster, acked: readonly AckedWrite[], seen: readonly SeenEvent[]): string | undefined {
  const byRevision = new Map(seen.map((e) => [e.revision, e]));
  for (const w of acked) {
    const e = byRevision.get(w.revision);
    if (!e || e.key !== w.key || e.value !== w.value) {
      return `acknowledged write missing from the watch stream: ${w.key}=${JSON.stringify(w.value)} at revision ${w.revision}, saw ${JSON.stringify(e ?? null)}`;
    }
  }
  for (const m of cluster.members) {
    const store = cluster.store(m.name);
    if (!store) return `member ${m.name} is not up after recovery`;
    for (const w of acked) {
      if (w.revision < store.compactRevision) continue;
      const r = store.range({ key: w.key, revision: w.revision });
      if (!r.ok) return `member ${m.name}: reading acknowledged write ${w.key}@${w.revision} failed: ${r.error.message}`;
      const kv = r.value.kvs[0];
      if (w.value === null ? kv !== undefined : kv?.value !== w.value || kv.modRevision !== w.revision) {
        const saw = kv ? `${JSON.stringify(kv.value)} (mod ${kv.modRevision})` : 'no key';
        return `acknowledged write lost on ${m.name}: ${w.key}=${JSON.stringify(w.value)} at revision ${w.revision}, found ${saw}`;
      }
    }
  }
  return undefined;
}

/** All members at the same revision with the same hashkv (run after the cluster settled). */
export function checkConvergence(cluster: EtcdCluster): string | undefined {
  const seen = cluster.members.map((m) => {
    const s = cluster.store(m.process);
    const h = s?.hashKV();
    return { name: m.process, revision: s?.revision, hash: h?.ok ? h.value.hash : undefined };
  });
  const first = seen[0]!;
  for (const s of seen) {
    if (s.revision !== first.revision || s.hash !== first.hash) {
      const summary = seen.map((x) => `${x.name}@${x.revision}#${x.hash?.toString(16)}`).join(' ');
      return `members diverged: ${summary}\n  ${firstDifference(cluster, first.name, s.name)}`;
    }
  }
  return undefined;
}

/** Where two members' stores differ first (key, then its history), for the failure message. */
function firstDifference(cluster: EtcdCluster, a: string, b: string): string {
  const sa = cluster.store(a)?.toSnapshot();
  const sb = cluster.store(b)?.toSnapshot();
  if (!sa || !sb) return 'a member is down';
  if (sa.compactRevision !== sb.compactRevision) return `compact revision ${a}=${sa.compactRevision} ${b}=${sb.compactRevision}`;
  const keys = new Set([...sa.keys.map(([k]) => k), ...sb.keys.map(([k]) => k)]);
  for (const k of [...keys].sort()) {
    const ha = JSON.stringify(sa.keys.find(([x]) => x === k)?.[1] ?? null);
    const hb = JSON.stringify(sb.keys.find(([x]) => x === k)?.[1] ?? null);
    if (ha !== hb) return `key ${k}: ${a}=${ha} ${b}=${hb}`;
  }
  return 'same keys and histories (difference in leases or revision)';
}

/** The watcher must see revisions 2..finalRevision each exactly once, in order. */
export function checkWatchStream(revisions: readonly number[], finalRevision: number): string | undefined {
  for (let i = 1; i < revisions.length; i++) {
    if (revisions[i]! === revisions[i - 1]!) return `watch delivered revision ${revisions[i]} twice`;
    if (revisions[i]! < revisions[i - 1]!) return `watch went back from revision ${revisions[i - 1]} to ${revisions[i]}`;
  }
  const expected = finalRevision - 1;
  if (revisions.length !== expected) {
    const have = new Set(revisions);
    let missing = 0;
    for (let r = 2; r <= finalRevision; r++) if (!have.has(r)) {
      missing = r;
      break;
    }
    return `watch saw ${revisions.length} of ${expected} revisions (first gap at ${missing})`;
  }
  return undefined;
}
