import { describe, expect, it } from 'vitest';
import type { Result } from '../errors.ts';
import { prefixEnd } from './keys.ts';
import { MvccStore } from './store.ts';

function must<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`unexpected error: ${r.error.message}`);
  return r.value;
}
function errorOf<T>(r: Result<T>): string {
  if (r.ok) throw new Error('expected an error');
  return r.error.message;
}

describe('revisions and versions (kvstore.go)', () => {
  it('starts at revision 1 and adds one per write', () => {
    const s = new MvccStore();
    expect(s.revision).toBe(1);
    must(s.put({ key: 'a', value: '1' }));
    must(s.put({ key: 'a', value: '2' }));
    expect(s.revision).toBe(3);
    expect(s.get('a')).toEqual({ key: 'a', createRevision: 2, modRevision: 3, version: 2, value: '2', lease: 0 });
  });

  it('resets the version on delete and starts again at 1 on re-create', () => {
    const s = new MvccStore();
    must(s.put({ key: 'a', value: '1' })); // rev 2
    const del = must(s.deleteRange({ key: 'a', prevKv: true })); // rev 3
    expect(del.deleted).toBe(1);
    expect(del.prevKvs[0]?.value).toBe('1');
    must(s.put({ key: 'a', value: 'again' })); // rev 4
    expect(s.get('a')).toMatchObject({ createRevision: 4, modRevision: 4, version: 1 });
  });

  it('does not move the revision for a delete that matched nothing', () => {
    const s = new MvccStore();
    expect(must(s.deleteRange({ key: 'nope' })).deleted).toBe(0);
    expect(s.revision).toBe(1);
  });

  it('returns prev_kv on put only when asked', () => {
    const s = new MvccStore();
    must(s.put({ key: 'a', value: '1' }));
    expect(must(s.put({ key: 'a', value: '2' })).prevKv).toBeUndefined();
    expect(must(s.put({ key: 'a', value: '3', prevKv: true })).prevKv?.value).toBe('2');
  });
});

describe('range', () => {
  const s = new MvccStore();
  for (const [k, v] of [['b', '2'], ['a', '3'], ['c', '1'], ['d', '0'], ['ca', '9']] as const) must(s.put({ key: k, value: v }));
  // revisions: b=2 a=3 c=4 d=5 ca=6

  it.each([
    ['a single key', { key: 'a' }, ['a']],
    ['a prefix', { key: 'c', rangeEnd: prefixEnd('c') }, ['c', 'ca']],
    ['[b, d)', { key: 'b', rangeEnd: 'd' }, ['b', 'c', 'ca']],
    ['from key', { key: 'c', rangeEnd: '\0' }, ['c', 'ca', 'd']],
    ['everything', { key: '\0', rangeEnd: '\0' }, ['a', 'b', 'c', 'ca', 'd']],
    ['sort by value descending', { key: '\0', rangeEnd: '\0', sortOrder: 'DESCEND', sortTarget: 'VALUE' }, ['ca', 'a', 'b', 'c', 'd']],
    ['sort by mod revision (order NONE means ascend)', { key: '\0', rangeEnd: '\0', sortTarget: 'MOD' }, ['b', 'a', 'c', 'd', 'ca']],
    ['key descending', { key: '\0', rangeEnd: '\0', sortOrder: 'DESCEND' }, ['d', 'ca', 'c', 'b', 'a']],
  ] as const)('%s', (_name, req, keys) => {
    expect(must(s.range(req)).kvs.map((kv) => kv.key)).toEqual(keys);
  });

  it('limits, reporting the full count and more=true', () => {
    const r = must(s.range({ key: '\0', rangeEnd: '\0', limit: 2 }));
    expect(r.kvs.map((kv) => kv.key)).toEqual(['a', 'b']);
    expect(r).toMatchObject({ count: 5, more: true });
    expect(must(s.range({ key: '\0', rangeEnd: '\0', limit: 5 })).more).toBe(false);
  });

  it('counts only, and omits values with keys_only', () => {
    expect(must(s.range({ key: '\0', rangeEnd: '\0', countOnly: true }))).toEqual({ kvs: [], more: false, count: 5 });
    expect(must(s.range({ key: 'a', keysOnly: true })).kvs[0]?.value).toBe('');
  });

  it('rejects an empty key', () => {
    expect(errorOf(s.range({ key: '' }))).toBe('etcdserver: key is not provided');
  });
});

describe('historical reads and compaction', () => {
  function history(): MvccStore {
    const s = new MvccStore();
    must(s.put({ key: 'k', value: 'v1' })); // 2
    must(s.put({ key: 'k', value: 'v2' })); // 3
    must(s.deleteRange({ key: 'k' })); // 4
    must(s.put({ key: 'k', value: 'v3' })); // 5
    must(s.put({ key: 'other', value: 'x' })); // 6
    return s;
  }

  it.each([
    [2, 'v1'],
    [3, 'v2'],
    [4, undefined],
    [5, 'v3'],
    [0, 'v3'],
  ])('reads k at revision %i as %j', (rev, value) => {
    expect(must(history().range({ key: 'k', revision: rev })).kvs[0]?.value).toBe(value);
  });

  it('fails reads of future revisions with the etcd text', () => {
    expect(errorOf(history().range({ key: 'k', revision: 7 }))).toBe('etcdserver: mvcc: required revision is a future revision');
  });

  it('fails reads below the compaction point, and allows reading at it', () => {
    const s = history();
    must(s.compact(4));
    expect(errorOf(s.range({ key: 'k', revision: 3 }))).toBe('etcdserver: mvcc: required revision has been compacted');
    expect(must(s.range({ key: 'k', revision: 4 })).kvs).toEqual([]);
    expect(must(s.range({ key: 'k', revision: 5 })).kvs[0]?.value).toBe('v3');
  });

  it.each([
    ['again at the same revision', 4, 'etcdserver: mvcc: required revision has been compacted'],
    ['below it', 2, 'etcdserver: mvcc: required revision has been compacted'],
    ['into the future', 99, 'etcdserver: mvcc: required revision is a future revision'],
  ])('refuses to compact %s', (_name, rev, message) => {
    const s = history();
    must(s.compact(4));
    expect(errorOf(s.compact(rev))).toBe(message);
  });

  it('answers every read at or after the compaction revision exactly as before (property over revisions)', () => {
    const before = history();
    const after = history();
    must(after.compact(3));
    for (let rev = 3; rev <= 6; rev++) {
      expect(must(after.range({ key: '\0', rangeEnd: '\0', revision: rev }))).toEqual(
        must(before.range({ key: '\0', rangeEnd: '\0', revision: rev })),
      );
    }
  });
});

describe('txn (apply.go applyTxn)', () => {
  it('puts several keys under one revision with sub-revisions', () => {
    const s = new MvccStore();
    const r = must(s.txn({ compare: [], success: [{ put: { key: 'a', value: '1' } }, { put: { key: 'b', value: '2' } }], failure: [] }));
    expect(r.succeeded).toBe(true);
    expect(s.revision).toBe(2);
    expect(s.get('a')?.modRevision).toBe(2);
    expect(s.get('b')?.modRevision).toBe(2);
  });

  it.each([
    ['value equal', { key: 'k', target: 'VALUE', result: 'EQUAL', operand: 'v' }, true],
    ['value greater', { key: 'k', target: 'VALUE', result: 'GREATER', operand: 'u' }, true],
    ['version not equal', { key: 'k', target: 'VERSION', result: 'NOT_EQUAL', operand: 1 }, false],
    ['create revision less', { key: 'k', target: 'CREATE', result: 'LESS', operand: 3 }, true],
    ['mod revision equal', { key: 'k', target: 'MOD', result: 'EQUAL', operand: 2 }, true],
    ['lease equal 0', { key: 'k', target: 'LEASE', result: 'EQUAL', operand: 0 }, true],
    ['missing key version = 0', { key: 'missing', target: 'VERSION', result: 'EQUAL', operand: 0 }, true],
    ['missing key value compare always fails', { key: 'missing', target: 'VALUE', result: 'NOT_EQUAL', operand: 'x' }, false],
    ['a range: every key must match', { key: 'j', rangeEnd: 'm', target: 'VERSION', result: 'GREATER', operand: 0 }, true],
  ] as const)('compare: %s', (_name, compare, succeeded) => {
    const s = new MvccStore();
    must(s.put({ key: 'k', value: 'v' })); // rev 2
    const r = must(s.txn({ compare: [compare], success: [{ range: { key: 'k' } }], failure: [] }));
    expect(r.succeeded).toBe(succeeded);
    expect(r.responses.length).toBe(succeeded ? 1 : 0);
  });

  it('lets reads in a txn see its own earlier writes', () => {
    const s = new MvccStore();
    const r = must(s.txn({ compare: [], success: [{ put: { key: 'a', value: 'new' } }, { range: { key: 'a' } }], failure: [] }));
    expect(r.responses[1]).toMatchObject({ range: { kvs: [{ key: 'a', value: 'new', modRevision: 2 }] } });
  });

  it('runs the failure branch, which may itself be a txn', () => {
    const s = new MvccStore();
    const r = must(s.txn({
      compare: [{ key: 'a', target: 'VERSION', result: 'GREATER', operand: 0 }],
      success: [],
      failure: [{ txn: { compare: [], success: [{ put: { key: 'a', value: 'x' } }], failure: [] } }],
    }));
    expect(r.succeeded).toBe(false);
    expect(s.get('a')?.value).toBe('x');
  });

  it.each([
    ['two puts of one key', [{ put: { key: 'a', value: '1' } }, { put: { key: 'a', value: '2' } }], 'etcdserver: duplicate key given in txn request'],
    ['put inside a deleted range', [{ put: { key: 'ab', value: '1' } }, { deleteRange: { key: 'a', rangeEnd: 'b' } }], 'etcdserver: duplicate key given in txn request'],
    ['an empty key', [{ put: { key: '', value: '1' } }], 'etcdserver: key is not provided'],
    ['an unknown lease', [{ put: { key: 'a', value: '1', lease: 42 } }], 'etcdserver: requested lease not found'],
    ['too many operations', Array.from({ length: 129 }, (_, i) => ({ put: { key: `k${i}`, value: '' } })), 'etcdserver: too many operations in txn request'],
  ] as const)('rejects %s and changes nothing', (_name, success, message) => {
    const s = new MvccStore();
    expect(errorOf(s.txn({ compare: [], success: [...success], failure: [] }))).toBe(message);
    expect(s.revision).toBe(1);
  });
});

describe('put flags (v3rpc/key.go checkPutRequest, apply.go Put)', () => {
  it.each([
    ['ignore_value with a value', { key: 'a', value: 'x', ignoreValue: true }, 'etcdserver: value is provided'],
    ['ignore_lease with a lease', { key: 'a', value: '', lease: 1, ignoreLease: true }, 'etcdserver: lease is provided'],
    ['ignore_value on a missing key', { key: 'missing', value: '', ignoreValue: true }, 'etcdserver: key not found'],
    ['an unknown lease', { key: 'a', value: 'x', lease: 7 }, 'etcdserver: requested lease not found'],
    ['an empty key', { key: '', value: 'x' }, 'etcdserver: key is not provided'],
  ])('rejects %s', (_name, req, message) => {
    const s = new MvccStore();
    must(s.put({ key: 'a', value: 'v' }));
    expect(errorOf(s.put(req))).toBe(message);
    expect(s.revision).toBe(2);
  });

  it('keeps the value with ignore_value and the lease with ignore_lease', () => {
    const s = new MvccStore();
    must(s.leaseGrant(5, 60));
    must(s.put({ key: 'a', value: 'v', lease: 5 }));
    must(s.put({ key: 'a', value: '', ignoreValue: true, ignoreLease: true }));
    expect(s.get('a')).toMatchObject({ value: 'v', lease: 5, version: 2 });
  });
});

describe('leases', () => {
  it('revokes every attached key in one revision, and detaches keys re-put without the lease', () => {
    const s = new MvccStore();
    must(s.leaseGrant(1, 10));
    must(s.put({ key: 'a', value: '1', lease: 1 })); // 2
    must(s.put({ key: 'b', value: '2', lease: 1 })); // 3
    must(s.put({ key: 'c', value: '3', lease: 1 })); // 4
    must(s.put({ key: 'c', value: '3' })); // 5 detaches c
    expect(s.lease(1)).toEqual({ id: 1, ttl: 10, keys: ['a', 'b'] });
    expect(must(s.leaseRevoke(1)).deleted).toBe(2);
    expect(s.revision).toBe(6);
    expect(s.get('a')).toBeUndefined();
    expect(s.get('c')?.value).toBe('3');
    expect(errorOf(s.leaseRevoke(1))).toBe('etcdserver: requested lease not found');
  });

  it('refuses duplicate IDs and TTLs beyond MaxLeaseTTL', () => {
    const s = new MvccStore();
    must(s.leaseGrant(1, 10));
    expect(errorOf(s.leaseGrant(1, 10))).toBe('etcdserver: lease already exists');
    expect(errorOf(s.leaseGrant(2, 9_000_000_001))).toBe('etcdserver: too large lease TTL');
  });
});

describe('snapshot, hash and status', () => {
  it('restores an identical store with the same hash', () => {
    const s = new MvccStore();
    must(s.leaseGrant(9, 30));
    must(s.put({ key: 'a', value: '1', lease: 9 }));
    must(s.put({ key: 'a', value: '2', lease: 9 }));
    must(s.put({ key: 'ü', value: 'ß' }));
    must(s.deleteRange({ key: 'ü' }));
    must(s.compact(3));
    s.consistentIndex = 17;
    const copy = MvccStore.fromSnapshot(JSON.parse(JSON.stringify(s.toSnapshot())));
    expect(must(copy.hashKV())).toEqual(must(s.hashKV()));
    expect(copy.status()).toEqual(s.status());
    expect(copy.consistentIndex).toBe(17);
    expect(copy.lease(9)?.keys).toEqual(['a']);
    expect(errorOf(copy.range({ key: 'a', revision: 2 }))).toMatch(/compacted/);
  });

  it('changes the hash when any value changes', () => {
    const a = new MvccStore();
    const b = new MvccStore();
    must(a.put({ key: 'k', value: 'x' }));
    must(b.put({ key: 'k', value: 'y' }));
    expect(must(a.hashKV()).hash).not.toBe(must(b.hashKV()).hash);
  });

  it('reports keys and a bbolt-like DB size that never shrinks on compaction', () => {
    const s = new MvccStore();
    expect(s.status()).toMatchObject({ revision: 1, totalKeys: 0, dbSizeBytes: 20480 });
    for (let i = 0; i < 200; i++) must(s.put({ key: 'k', value: 'x'.repeat(100) }));
    const grown = s.status();
    must(s.compact(s.revision));
    expect(s.status().dbSizeBytes).toBe(grown.dbSizeBytes);
    expect(s.status().dbSizeInUseBytes).toBeLessThan(grown.dbSizeBytes);
    expect(s.status().totalKeys).toBe(1);
  });
});
