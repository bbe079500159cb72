// The API server's etcd compactor, mirroring k8s.io/apiserver/pkg/storage/etcd3/compact.go:
// every --etcd-compaction-interval (5 min) each replica runs a txn on the key compact_rev_key;
// the one whose txn wins (Version(compact_rev_key) == the version it last saw) compacts etcd to
// the revision it recorded one interval earlier. So history older than 5-10 minutes goes away,
// a watch from before that gets "410 Gone", and etcd's history (and snapshots) stay bounded.
import type { EtcdClient } from '../../etcd/index.ts';

export const COMPACTION_INTERVAL_MS = 5 * 60_000;
export const COMPACT_REV_KEY = 'compact_rev_key';

export interface CompactorClock {
  setTimer(delayMs: number, fn: () => void): { cancel(): void };
}

/** One compaction round (upstream's compact()): returns the next compare version and revision. */
export function compactOnce(
  etcd: EtcdClient,
  t: number,
  rev: number,
  done: (next: { t: number; rev: number; compacted?: number; error?: string }) => void,
): void {
  etcd.txn(
    {
      compare: [{ key: COMPACT_REV_KEY, target: 'VERSION', result: 'EQUAL', operand: t }],
      success: [{ put: { key: COMPACT_REV_KEY, value: String(rev) } }],
      failure: [{ range: { key: COMPACT_REV_KEY } }],
    },
    (r) => {
      if (!r.ok) return done({ t, rev, error: r.error.message });
      const curRev = r.value.header.revision;
      if (!r.value.succeeded) {
        // another replica compacted: follow its version
        const first = r.value.responses[0];
        const seen = first && 'range' in first ? (first.range.kvs[0]?.version ?? t) : t;
        return done({ t: seen, rev: curRev });
      }
      if (rev === 0) return done({ t: t + 1, rev: curRev }); // no compaction on bootstrap
      etcd.compact(rev, (c) =>
        done({
          t: t + 1,
          rev: curRev,
          compacted: rev,
          ...(c.ok ? {} : { error: c.error.message }),
        }),
      );
    },
  );
}

/** Runs compaction rounds every intervalMs until stopped. */
export function startCompactor(
  etcd: EtcdClient,
  clock: CompactorClock,
  options: { intervalMs?: number; onCompacted?: (revision: number) => void } = {},
): { stop(): void } {
  const intervalMs = options.intervalMs ?? COMPACTION_INTERVAL_MS;
  let state = { t: 0, rev: 0 };
  let timer: { cancel(): void } | undefined;
  let stopped = false;
  const round = (): void => {
    if (stopped) return;
    compactOnce(etcd, state.t, state.rev, (next) => {
      if (stopped) return;
      state = { t: next.t, rev: next.rev };
      if (next.compacted !== undefined && !next.error) options.onCompacted?.(next.compacted);
      timer = clock.setTimer(intervalMs, round);
    });
  };
  timer = clock.setTimer(intervalMs, round);
  return {
    stop: () => {
      stopped = true;
      timer?.cancel();
    },
  };
}
