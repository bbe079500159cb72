// etcdutl snapshot restore into data directories, and members of a running cluster started from
// them: a new cluster ID, the snapshot's keys, a bumped and compacted revision, and the refusals.
import { describe, expect, it } from 'vitest';
import { createKernel } from '../../kernel/index.ts';
import { ErrCompacted, type Result } from '../errors.ts';
import { createEtcdCluster } from './cluster.ts';
import { restoreDataDir } from './restore.ts';
import { syncClient, waitForLeader } from './test-helpers.ts';

function must<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const INITIAL = 'etcd-0=https://etcd-0:2380,etcd-1=https://etcd-1:2380,etcd-2=https://etcd-2:2380';

function running() {
  const kernel = createKernel({ seed: 3 });
  const etcd = createEtcdCluster(kernel, { members: 3 });
  waitForLeader(kernel, () => etcd.leader());
  const sync = syncClient(kernel, etcd.client());
  return { kernel, etcd, sync };
}

const dirFor = (file: string, name: string, bump = 0, token = 'restored'): string =>
  must(restoreDataDir(file, { name, initialCluster: INITIAL, clusterToken: token, bumpRevision: bump, markCompacted: bump > 0 })).dataDir;

describe('restoreDataDir (etcdutl snapshot restore)', () => {
  it('refuses --bump-revision without --mark-compacted and the reverse, with etcdutl\'s text', () => {
    const { sync } = running();
    const file = must(sync.snapshot()).data;
    for (const [bumpRevision, markCompacted] of [[5, false], [0, true]] as const) {
      const r = restoreDataDir(file, { name: 'etcd-0', initialCluster: INITIAL, clusterToken: 't', bumpRevision, markCompacted });
      expect(r.ok || r.error.message).toBe('--mark-compacted required if --revision-bump > 0');
    }
    const corrupt = restoreDataDir(file.replace('"crc":', '"crc":1'), { name: 'etcd-0', initialCluster: INITIAL, clusterToken: 't', bumpRevision: 0, markCompacted: false });
    expect(corrupt.ok).toBe(false);
  });
});

describe('startFromDataDir on a running cluster', () => {
  it('replaces every member\'s data: the snapshot\'s keys, a new cluster ID, the revision bumped and compacted', () => {
    const { kernel, etcd, sync } = running();
    must(sync.put({ key: 'kept', value: '1' }));
    const file = must(sync.snapshot()).data;
    const snapRevision = must(sync.range({ key: 'kept' })).header.revision;
    must(sync.put({ key: 'lost', value: 'written after the snapshot' }));
    const oldId = etcd.clusterId;
    for (const m of etcd.members) etcd.crash(m.name);
    kernel.runFor(1000);
    for (const m of etcd.members) expect(etcd.startFromDataDir(m.name, dirFor(file, m.name, 1000)).ok).toBe(true);
    expect(etcd.clusterId).not.toBe(oldId);
    expect(waitForLeader(kernel, () => etcd.leader())).toBeDefined();
    const after = syncClient(kernel, etcd.client({ name: 'after' }));
    const got = must(after.range({ key: 'kept' }));
    expect(got.kvs.map((kv) => kv.value)).toEqual(['1']);
    expect(got.header.revision).toBe(snapRevision + 1000);
    expect(got.header.clusterId).toBe(etcd.clusterId);
    expect(must(after.range({ key: 'lost' })).count).toBe(0);
    const old = after.range({ key: 'kept', revision: snapRevision });
    expect(old.ok ? 'read' : old.error.message).toBe(ErrCompacted.message); // watchers from before must relist
    expect(must(after.put({ key: 'new', value: 'x' })).header.revision).toBe(snapRevision + 1001);
  });

  it('the same token gives the same member IDs and cluster ID (why the docs say: use a new one)', () => {
    const { kernel, etcd, sync } = running();
    const file = must(sync.snapshot()).data;
    const ids = etcd.members.map((m) => m.id);
    const oldId = etcd.clusterId;
    for (const m of etcd.members) etcd.crash(m.name);
    kernel.runFor(1000);
    for (const m of etcd.members) must(etcd.startFromDataDir(m.name, dirFor(file, m.name, 0, 'etcd-cluster')));
    expect(etcd.clusterId).toBe(oldId);
    expect(etcd.members.map((m) => m.id)).toEqual(ids);
  });

  it('refuses a running member, a directory restored for another member, and another cluster\'s membership', () => {
    const { kernel, etcd, sync } = running();
    const file = must(sync.snapshot()).data;
    const refusal = (name: string, dir: string): string => {
      const r = etcd.startFromDataDir(name, dir);
      return r.ok ? 'started' : r.error.message;
    };
    expect(refusal('etcd-0', dirFor(file, 'etcd-0'))).toBe('etcd member etcd-0 is running: stop it before starting it from another data directory');
    etcd.crash('etcd-0');
    kernel.runFor(100);
    expect(refusal('etcd-0', dirFor(file, 'etcd-1'))).toBe('the data directory was restored for member "etcd-1", not "etcd-0"');
    const solo = must(restoreDataDir(file, { name: 'etcd-0', initialCluster: 'etcd-0=https://etcd-0:2380', clusterToken: 't', bumpRevision: 0, markCompacted: false })).dataDir;
    expect(refusal('etcd-0', solo)).toBe('the data directory\'s initial cluster (etcd-0) is not this cluster\'s members (etcd-0, etcd-1, etcd-2)');
    expect(refusal('etcd-9', solo)).toBe('no etcd member process named "etcd-9"');
    expect(refusal('etcd-0', 'not json')).toBe('not an etcd data directory');
  });
});

describe('members of different clusters on the same addresses (rafthttp X-Etcd-Cluster-ID)', () => {
  it('a restored member refuses the old cluster\'s Raft messages, and the old members refuse its', () => {
    const { kernel, etcd, sync } = running();
    must(sync.put({ key: 'kept', value: '1' }));
    const file = must(sync.snapshot()).data;
    const oldId = etcd.clusterId;
    etcd.crash('etcd-0');
    kernel.runFor(100);
    const started = must(etcd.startFromDataDir('etcd-0', dirFor(file, 'etcd-0', 0, 'restored')));
    expect(started.clusterId).not.toBe(oldId);
    kernel.runFor(3000);
    // the old cluster goes on with its two members; the restored one stays alone, without a leader
    const oldLeader = etcd.leader();
    expect(['etcd-1', 'etcd-2']).toContain(oldLeader);
    const old = syncClient(kernel, etcd.client({ name: 'old', endpoints: ['https://etcd-1:2379', 'https://etcd-2:2379'] }));
    must(old.put({ key: 'after', value: 'old cluster' }));
    kernel.runFor(1000);
    const onRestored = etcd.store('etcd-0')!.range({ key: 'after' });
    expect(onRestored.ok && onRestored.value.count).toBe(0);
    expect(etcd.raftStatus('etcd-0')).toMatchObject({ lead: '', commit: 1 });
    const events = kernel.trace.events();
    const refused = events.filter((e) => e.kind === 'etcd.peer.reject' && e.actor === 'etcd-0');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.detail).toMatch(new RegExp(`^request cluster ID mismatch: local-member-id=[0-9a-f]{16} local-member-cluster-id=${started.clusterId} remote-peer-server-name=etcd-[12] remote-peer-id=[0-9a-f]{16} remote-peer-cluster-id=${oldId}$`));
    expect(events.some((e) => e.kind === 'etcd.peer.reject' && e.actor === oldLeader && e.detail.includes(`remote-peer-cluster-id=${started.clusterId}`))).toBe(true);
    expect(events.find((e) => e.kind === 'etcd.peer.ignored' && e.actor === oldLeader)?.detail).toBe(
      `request sent was ignored due to cluster ID mismatch: remote-peer-id=${etcd.members[0]!.id} remote-peer-cluster-id=${started.clusterId} local-member-cluster-id=${oldId}`,
    );
  });
});
