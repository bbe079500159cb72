// How a watch learns its stream is dead, as kube-apiserver's etcd client does: a member process
// that dies resets the connection (seen within 500 ms); a member cut off by a partition is found
// by the keepalive (nothing heard for 30 s + 10 s); a member without a leader cancels its
// streams after 3 election timeouts (v3rpc monitorLeader). Each time the watch resumes on another
// member from the next revision, without gaps or duplicates.
import { describe, expect, it } from 'vitest';
import { createKernel } from '../../kernel/index.ts';
import { createEtcdCluster } from '../server/cluster.ts';
import { syncClient, waitForLeader } from '../server/test-helpers.ts';

function setup() {
  const kernel = createKernel({ seed: 7 });
  const cluster = createEtcdCluster(kernel, { members: 3 });
  waitForLeader(kernel, () => cluster.leader());
  const writer = syncClient(kernel, cluster.client({ name: 'writer' }));
  const watcher = cluster.client({ name: 'watcher' });
  const revisions: number[] = [];
  watcher.watch({ key: 'w/', rangeEnd: 'w0' }, (resp) => {
    for (const e of resp.events) revisions.push(e.kv.modRevision);
  });
  kernel.runFor(200);
  // the member the watch streams from: the one whose store has a watcher (the stream's hub)
  const put = (key: string): number => {
    const r = writer.put({ key, value: 'x' });
    if (!r.ok) throw new Error(r.error.message);
    return r.value.header.revision;
  };
  return { kernel, cluster, revisions, put };
}

/** Simulated ms until the watch has seen `revision`, driving the kernel in 100 ms steps (undefined if not within `limitMs`). */
function msUntilSeen(kernel: ReturnType<typeof createKernel>, revisions: number[], revision: number, limitMs: number): number | undefined {
  for (let waited = 0; waited <= limitMs; waited += 100) {
    if (revisions.includes(revision)) return waited;
    kernel.runFor(100);
  }
  return undefined;
}

describe('etcd client watch liveness', () => {
  it('a member process that dies and restarts at once: the reset is seen within 500 ms', () => {
    const { kernel, cluster, revisions, put } = setup();
    const first = put('w/a');
    expect(msUntilSeen(kernel, revisions, first, 1000)).toBeDefined();
    for (const m of cluster.members) {
      cluster.crash(m.name);
      cluster.restart(m.name);
    }
    waitForLeader(kernel, () => cluster.leader());
    const next = put('w/b');
    expect(msUntilSeen(kernel, revisions, next, 1500)).toBeDefined();
    expect(revisions).toEqual([first, next]);
  });

  /** Blocks the watcher from each member in turn until a write goes unseen: that member holds its stream. */
  function blockStreamMember(kernel: ReturnType<typeof createKernel>, cluster: ReturnType<typeof createEtcdCluster>, revisions: number[], put: (k: string) => number, cut: (member: string) => void, uncut: (member: string) => void): string | undefined {
    for (const m of cluster.members) {
      cut(m.name);
      const rev = put(`w/probe-${m.name}`);
      if (msUntilSeen(kernel, revisions, rev, 2000) === undefined) return m.name;
      uncut(m.name);
    }
    return undefined;
  }

  it('a member cut off from the client by a partition: the keepalive finds it after 40 s of silence (keepalive time + timeout), not before', () => {
    const { kernel, cluster, revisions, put } = setup();
    expect(msUntilSeen(kernel, revisions, put('w/a'), 1000)).toBeDefined();
    const blockedAt = kernel.now();
    const blocked = blockStreamMember(kernel, cluster, revisions, put,
      (m) => { kernel.net.block(m, 'watcher'); kernel.net.block('watcher', m); },
      (m) => { kernel.net.unblock(m, 'watcher'); kernel.net.unblock('watcher', m); });
    expect(blocked).toBeDefined();
    const last = put('w/after');
    expect(msUntilSeen(kernel, revisions, last, 60_000)).toBeDefined();
    const detectedMs = kernel.now() - blockedAt;
    expect(detectedMs).toBeGreaterThanOrEqual(38_000);
    expect(detectedMs).toBeLessThanOrEqual(43_000);
    // resumed from the next revision: every write under w/ once, in order
    expect(revisions).toEqual([...new Set(revisions)].sort((a, b) => a - b));
    expect(revisions.at(-1)).toBe(last);
  });

  it('a member that loses its leader cancels its streams after 3 election timeouts, long before the keepalive', () => {
    const { kernel, cluster, revisions, put } = setup();
    expect(msUntilSeen(kernel, revisions, put('w/a'), 1000)).toBeDefined();
    const names = cluster.members.map((m) => m.name);
    const blockedAt = kernel.now();
    // isolate the stream's member from the other members only: the watcher still reaches it
    const isolated = blockStreamMember(kernel, cluster, revisions, put,
      (m) => { for (const o of names) if (o !== m) { kernel.net.block(m, o); kernel.net.block(o, m); } },
      (m) => { for (const o of names) if (o !== m) { kernel.net.unblock(m, o); kernel.net.unblock(o, m); } });
    expect(isolated).toBeDefined();
    const last = put('w/after');
    expect(msUntilSeen(kernel, revisions, last, 20_000)).toBeDefined();
    const detectedMs = kernel.now() - blockedAt;
    // a leader is lost after an election timeout or so, then 3 checks 1 s apart cancel the stream
    expect(detectedMs).toBeGreaterThanOrEqual(3_000);
    expect(detectedMs).toBeLessThan(10_000);
    expect(revisions.at(-1)).toBe(last);
  });
});
