import { describe, expect, it } from 'vitest';
import { createKernel } from '../../kernel/index.ts';
import { createEtcdCluster, decodeDataDir, decodeSnapshotFile } from '../../etcd/index.ts';
import { runEtcdctl } from './etcdctl.ts';
import type { EtcdctlResult } from './context.ts';

function setup(members: 1 | 3 = 1) {
  const kernel = createKernel({ seed: 3 });
  const cluster = createEtcdCluster(kernel, { members });
  kernel.runUntil(() => cluster.leader() !== undefined, 1_000_000);
  const client = cluster.client({ name: 'etcdctl' });
  const files = new Map<string, string>();
  const run = (argv: string, stdin?: string): EtcdctlResult => {
    let out: EtcdctlResult | undefined;
    runEtcdctl(argv, client, { files, ...(stdin !== undefined ? { stdin } : {}) }, (r) => (out = r));
    kernel.runUntil(() => out !== undefined, 5_000_000);
    if (!out) throw new Error('etcdctl never finished');
    return out;
  };
  return { kernel, cluster, client, run, files };
}

const ok = (stdout: string): EtcdctlResult => ({ stdout, stderr: '', exitCode: 0 });
const err = (stderr: string, exitCode = 1): EtcdctlResult => ({ stdout: '', stderr, exitCode });

describe('etcdctl put/get/del (printer_simple.go)', () => {
  it('puts, gets, and deletes like the real tool', () => {
    const { run } = setup();
    expect(run('put foo bar')).toEqual(ok('OK\n'));
    expect(run('etcdctl put foo2 "hello world"')).toEqual(ok('OK\n'));
    expect(run('get foo')).toEqual(ok('foo\nbar\n'));
    expect(run('get foo --print-value-only')).toEqual(ok('bar\n'));
    expect(run('get foo --prefix --keys-only')).toEqual(ok('foo\n\nfoo2\n\n'));
    expect(run('get foo --prefix --limit 1')).toEqual(ok('foo\nbar\n'));
    expect(run('get "" --prefix --keys-only --order=DESCEND')).toEqual(ok('foo2\n\nfoo\n\n'));
    expect(run('put foo baz --prev-kv')).toEqual(ok('OK\nfoo\nbar\n'));
    expect(run('get missing')).toEqual(ok(''));
    expect(run('del foo --prefix --prev-kv')).toEqual(ok('2\nfoo\nbaz\nfoo2\nhello world\n'));
    expect(run('del foo')).toEqual(ok('0\n'));
  });

  it('reads the value from stdin when only the key is given', () => {
    const { run } = setup();
    expect(run('put k', 'from stdin')).toEqual(ok('OK\n'));
    expect(run('get k --print-value-only')).toEqual(ok('from stdin\n'));
  });

  it('prints -w json in the etcdserverpb shape with base64 keys and values', () => {
    const { run, cluster } = setup();
    run('put foo bar');
    const r = run('get foo -w json');
    const member = BigInt('0x' + cluster.members[0]!.id).toString();
    const clusterId = BigInt('0x' + cluster.clusterId).toString();
    const term = cluster.raftStatus('etcd-0')!.term;
    expect(r.stdout).toBe(
      `{"header":{"cluster_id":${clusterId},"member_id":${member},"revision":2,"raft_term":${term}},` +
        '"kvs":[{"key":"Zm9v","create_revision":2,"mod_revision":2,"version":1,"value":"YmFy"}],"count":1}\n',
    );
    expect(run('get foo --count-only -w json').stdout).toMatch(/"count":1}\n$/);
  });

  it('reads history with --rev and fails after compaction with the etcd text', () => {
    const { run } = setup();
    run('put k v1');
    run('put k v2');
    run('put k v3');
    expect(run('get k --rev=2 --print-value-only')).toEqual(ok('v1\n'));
    expect(run('compaction 3')).toEqual(ok('compacted revision 3\n'));
    expect(run('get k --rev=2')).toEqual(err('Error: etcdserver: mvcc: required revision has been compacted\n'));
    expect(run('get k --rev=99')).toEqual(err('Error: etcdserver: mvcc: required revision is a future revision\n'));
    expect(run('compaction 3')).toEqual(err('Error: etcdserver: mvcc: required revision has been compacted\n'));
  });
});

describe('etcdctl errors (cobra/pflag texts, exit codes from cobrautl)', () => {
  it.each([
    ['put foo bar --foo', 'Error: unknown flag: --foo\nUsage:\n  etcdctl put [options] <key> <value> (<value> can also be given from stdin) [flags]\n', 1],
    ['frobnicate', 'Error: unknown command "frobnicate" for "etcdctl"\nRun \'etcdctl --help\' for usage.\n', 1],
    ['lease frob', 'Error: unknown command "frob" for "etcdctl lease"\nRun \'etcdctl lease --help\' for usage.\n', 1],
    ['put', 'Error: put command needs 1 argument and input from stdin or 2 arguments\n', 128],
    ['get', 'Error: get command needs one argument as key and an optional argument as range_end\n', 128],
    ['get k --rev abc', 'Error: invalid argument "abc" for "--rev" flag: strconv.ParseInt: parsing "abc": invalid syntax\nUsage:\n  etcdctl get [options] <key> [range_end] [flags]\n', 1],
    ['get k --prefix --from-key', 'Error: `--prefix` and `--from-key` cannot be set at the same time, choose one\n', 128],
    ['get k --count-only', 'Error: `--count-only` is only for `-w json`\n', 4],
    ['del', 'Error: del command needs one argument as key and an optional argument as range_end\n', 128],
    ['lease revoke zz', 'Error: bad lease ID arg (strconv.ParseInt: parsing "zz": invalid syntax), expecting ID in Hex\n', 128],
    ['lease grant', 'Error: lease grant command needs TTL argument\n', 128],
    ['put k v --lease=xyz', 'Error: bad lease ID (strconv.ParseInt: parsing "xyz": invalid syntax), expecting ID in Hex\n', 128],
    ['put "" v', 'Error: etcdserver: key is not provided\n', 1],
    ['put k v --lease=1234abcd', 'Error: etcdserver: requested lease not found\n', 1],
    ['get k -w yaml', 'Error: unsupported output format "yaml" (this simulator prints simple, json and table)\n', 4],
    ['put k "unterminated', 'Error: unterminated double quote\n', 1],
    // names of Object.prototype's properties are no commands
    ['constructor', 'Error: unknown command "constructor" for "etcdctl"\nRun \'etcdctl --help\' for usage.\n', 1],
    ['toString x', 'Error: unknown command "toString" for "etcdctl"\nRun \'etcdctl --help\' for usage.\n', 1],
    ['lease valueOf', 'Error: unknown command "valueOf" for "etcdctl lease"\nRun \'etcdctl lease --help\' for usage.\n', 1],
  ])('%s', (argv, stderr, exitCode) => {
    const { run } = setup();
    expect(run(argv)).toEqual(err(stderr, exitCode));
    expect(run('get "" --prefix')).toEqual(ok('')); // bad input changes nothing
  });

  it('refuses a value above --max-request-bytes and changes nothing', () => {
    const { run } = setup();
    expect(run(`put big ${'x'.repeat(1_600_000)}`)).toEqual(err('Error: etcdserver: request is too large\n'));
    expect(run('get big')).toEqual(ok(''));
  });
});

describe('etcdctl txn (txn_command.go input format)', () => {
  it('runs the success branch when the compares hold', () => {
    const { run } = setup();
    run('put key1 v1');
    const stdin = 'value("key1") = "v1"\n\nput key1 "overwrote-key1"\nget key1\n\nput key1 "created-key1"\n\n';
    expect(run('txn', stdin)).toEqual(ok('SUCCESS\n\nOK\n\nkey1\noverwrote-key1\n'));
    expect(run('txn', 'version("key1") = "1"\n\nput key1 x\n\nput key2 created\n\n')).toEqual(ok('FAILURE\n\nOK\n'));
    expect(run('get key2 --print-value-only')).toEqual(ok('created\n'));
  });

  it('rejects malformed compares with exit code 3', () => {
    const { run } = setup();
    expect(run('txn', 'bogus line\n\n\n')).toEqual(err('Error: malformed comparison: bogus line\n', 3));
    expect(run('txn', 'size("k") = "1"\n\n\n')).toEqual(err('Error: malformed comparison: size("k") = "1" (unknown target size)\n', 3));
    expect(run('txn', 'constructor("k") = "1"\n\n\n')).toEqual(err('Error: malformed comparison: constructor("k") = "1" (unknown target constructor)\n', 3));
    expect(run('txn', '\nfly k\n\n')).toEqual(err('Error: invalid txn request: fly k\n', 3));
  });
});

describe('etcdctl lease', () => {
  it('grants, attaches, inspects, keeps alive and revokes', () => {
    const { run } = setup();
    const grant = run('lease grant 60');
    const id = /^lease ([0-9a-f]{16}) granted with TTL\(60s\)\n$/.exec(grant.stdout)?.[1];
    expect(id).toBeDefined();
    expect(run(`put k v --lease=${id}`)).toEqual(ok('OK\n'));
    expect(run(`lease timetolive ${id} --keys`).stdout).toMatch(new RegExp(`^lease ${id} granted with TTL\\(60s\\), remaining\\((59|60)s\\), attached keys\\(\\[k\\]\\)\\n$`));
    expect(run(`lease keep-alive --once ${id}`)).toEqual(ok(`lease ${id} keepalived with TTL(60)\n`));
    expect(run(`lease revoke ${id}`)).toEqual(ok(`lease ${id} revoked\n`));
    expect(run('get k')).toEqual(ok(''));
    expect(run(`lease timetolive ${id}`)).toEqual(ok(`lease ${id} already expired\n`));
    expect(run(`lease revoke ${id}`)).toEqual(err('Error: etcdserver: requested lease not found\n'));
  });
});

describe('etcdctl cluster commands', () => {
  it('prints member list as a table', () => {
    const { run, cluster } = setup(3);
    const ids = cluster.members.map((m) => m.id.replace(/^0+/, ''));
    const r = run('member list -w table');
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toMatch(/^\| +ID +\| STATUS  \|  NAME  \| +PEER ADDRS +\| +CLIENT ADDRS +\| IS LEARNER \|$/);
    expect(lines[3]).toBe(`| ${ids[0]!.padStart(16)} | started | etcd-0 | https://etcd-0:2380 | https://etcd-0:2379 |      false |`);
    expect(run('member list').stdout.split('\n')[1]).toBe(`${ids[1]}, started, etcd-1, https://etcd-1:2380, https://etcd-1:2379, false`);
  });

  it('prints endpoint status with the 3.5 columns, and health', () => {
    const { run, cluster } = setup(3);
    const r = run('endpoint status --cluster -w table');
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[1]).toMatch(/^\| +ENDPOINT +\| +ID +\| VERSION \| DB SIZE \| IS LEADER \| IS LEARNER \| RAFT TERM \| RAFT INDEX \| RAFT APPLIED INDEX \| ERRORS \|$/);
    expect(lines).toHaveLength(7);
    expect(lines.filter((l) => / true \|/.test(l) && l.includes('https://'))).toHaveLength(1);
    expect(r.stdout).toContain('|   20 kB |');
    const health = run('endpoint health --cluster');
    expect(health.exitCode).toBe(0);
    expect(health.stdout).toMatch(/^https:\/\/etcd-0:2379 is healthy: successfully committed proposal: took = \d+ms\n/);
    cluster.crash('etcd-2');
    const sick = run(`endpoint health --endpoints=${cluster.endpoints.join(',')} --command-timeout=2s`);
    expect(sick.exitCode).toBe(1);
    expect(sick.stderr).toBe('https://etcd-2:2379 is unhealthy: failed to commit proposal: context deadline exceeded\nError: unhealthy cluster\n');
  });

  it('saves a snapshot, reports its status, and restores it into a data dir', () => {
    const { run, files } = setup();
    run('put a 1');
    run('put b 2');
    expect(run('snapshot save /backup/snap.db')).toEqual(ok('Snapshot saved at /backup/snap.db\n'));
    const st = run('snapshot status /backup/snap.db -w table');
    expect(st.stderr).toBe('Deprecated: Use `etcdutl snapshot status` instead.\n\n');
    expect(st.stdout).toMatch(/^\+-+\+-+\+-+\+-+\+\n\| +HASH +\| REVISION \| TOTAL KEYS \| TOTAL SIZE \|\n/);
    expect(st.stdout).toMatch(/\| +[0-9a-f]+ \| +3 \| +2 \| +\d+ B \|/);
    const restored = run('snapshot restore /backup/snap.db --data-dir /var/lib/etcd-restore');
    expect(restored.exitCode).toBe(0);
    const dir = decodeDataDir(files.get('/var/lib/etcd-restore')!);
    expect(dir.ok && dir.value).toMatchObject({ name: 'default', members: ['default'], clusterToken: 'etcd-cluster', snapshot: files.get('/backup/snap.db') });
    expect(run('snapshot restore /backup/snap.db --data-dir /var/lib/etcd-restore').stderr).toContain('Error: data-dir "/var/lib/etcd-restore" exists\n');
    expect(run('snapshot status /nope')).toEqual(err('Error: open /nope: no such file or directory\n'));
  });

  it('restores with --bump-revision and --mark-compacted (etcdutl 3.5.8+), and only with both', () => {
    const { run, files } = setup();
    run('put a 1');
    run('put b 2');
    run('snapshot save snap.db');
    for (const flags of ['--bump-revision 100', '--mark-compacted']) {
      expect(run(`snapshot restore snap.db --data-dir bad ${flags}`)).toMatchObject({ exitCode: 128, stderr: expect.stringContaining('Error: --mark-compacted required if --revision-bump > 0\n') });
    }
    const r = run('snapshot restore snap.db --name m1 --initial-cluster m1=https://m1:2380,m2=https://m2:2380 --initial-cluster-token new --data-dir m1.etcd --bump-revision 100 --mark-compacted');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('restored snapshot at revision 3 into data-dir "m1.etcd" (member "m1", revision bumped by 100 to 103 and marked compacted)\n');
    const dir = decodeDataDir(files.get('m1.etcd')!);
    expect(dir.ok && dir.value.members).toEqual(['m1', 'm2']);
    const snap = dir.ok ? decodeSnapshotFile(dir.value.snapshot) : undefined;
    expect(snap?.ok && { revision: snap.value.revision, compactRevision: snap.value.compactRevision }).toEqual({ revision: 103, compactRevision: 103 });
    expect(run('snapshot restore snap.db --name m3 --initial-cluster m1=https://m1:2380 --data-dir m3.etcd').stderr)
      .toContain('Error: couldn\'t find local name "m3" in the initial cluster configuration\n');
  });

  it('watches for a bounded window and prints events as etcdctl does', () => {
    const { kernel, client, run } = setup();
    kernel.setTimer(300, () => client.put({ key: 'w', value: '1' }, () => {}));
    kernel.setTimer(600, () => client.deleteRange({ key: 'w' }, () => {}));
    expect(run('watch w --prev-kv')).toEqual(ok('PUT\nw\n1\nDELETE\nw\n1\nw\n\n'));
    expect(run('watch w --rev=2')).toEqual(ok('PUT\nw\n1\nDELETE\nw\n\n'));
    run('compaction 3');
    expect(run('watch w --rev=2')).toEqual({
      stdout: '',
      stderr: 'watch was canceled (etcdserver: mvcc: required revision has been compacted)\nError: watch is canceled by the server\n',
      exitCode: 5,
    });
  });

  it('prints its version', () => {
    expect(setup().run('version')).toEqual(ok('etcdctl version: 3.5.21\nAPI version: 3.5\n'));
  });
});

describe('etcdctl --endpoints', () => {
  it('accepts endpoints with or without the scheme, and times out on an unknown one', () => {
    const { run } = setup(3);
    expect(run('put k v --endpoints=etcd-1:2379')).toEqual(ok('OK\n'));
    expect(run('get k --endpoints=https://etcd-2:2379,etcd-0:2379 --print-value-only')).toEqual(ok('v\n'));
    expect(run('get k --endpoints=127.0.0.1:2379 --command-timeout=1s')).toEqual(err('Error: context deadline exceeded\n'));
  });
});
