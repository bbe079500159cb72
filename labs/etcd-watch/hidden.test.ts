// Hidden grading suite for the etcd-watch lab. Behaviour only: the events a watch created at a
// start revision receives (shape, order, range, prevKv, filters), the compaction check, one
// syncWatchers pass that delivers at most N revisions, and client/v3's prefix range end; then
// differential properties against the simulation's own MVCC store and watch hub (runtime/etcd
// MvccStore and WatchHub, reached through the API server's in-memory etcd) on generated histories
// of puts, deletes, range deletes, multi-key transactions and compactions.
// Behaviour ported from etcd's server/storage/mvcc tests: watchable_store_test.go (TestWatchCompacted,
// TestWatchFutureRev, TestWatchBatchUnsynced), watcher_test.go (TestWatcherWatchPrefix,
// TestWatcherWatchWrongRange, TestWatchDeleteRange), kvstore_test.go (TestStorePut's revisions and
// versions), and client/v3 op.go GetPrefixRangeEnd. The suite declares the learner module's three
// names itself (see below) instead of in labs/submission.d.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createInMemoryEtcd } from '../../runtime/apiserver/index.ts';
import { reference } from './reference.ts';
import * as submission from '@lab/submission';

// The learner's module. (Its names are declared here rather than in labs/submission.d.ts.)
const { prefixRangeEnd, syncWatcher, watchEvents } = submission as unknown as {
  prefixRangeEnd: (prefix: string) => string;
  watchEvents: (history: unknown, request: unknown) => unknown;
  syncWatcher: (history: unknown, request: unknown, maxRevisions: number) => unknown;
};

// ---------------------------------------------------------------- learner-side shapes

type Change = { type: 'PUT' | 'DELETE'; key: string; value?: string };
interface History { revisions: { revision: number; changes: Change[] }[]; currentRevision: number; compactRevision: number }
interface KV { key: string; createRevision: number; modRevision: number; version: number; value: string }
interface Ev { type: 'PUT' | 'DELETE'; kv: KV; prevKv?: KV }
interface Req { key: string; rangeEnd?: string; startRevision?: number; prevKv?: boolean; noPut?: boolean; noDelete?: boolean }

const COMPACTED = 'mvcc: required revision has been compacted';

function mismatch(message: string): never {
  const error = new Error(message);
  error.stack = `mismatch: ${message}`;
  throw error;
}

/** The learner's answer as plain data (no functions, getters or asymmetric matchers survive). */
function plain<T>(what: string, run: () => T): T {
  let value: T;
  try {
    value = run();
  } catch (e) {
    mismatch(`${what} threw: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return structuredClone(value);
  } catch {
    mismatch(`${what} returned something that is not plain data (a function or a class instance?)`);
  }
}

// ---------------------------------------------------------------- writing histories

/** A history built by hand: `w.put('a', '1')` is one revision; `w.txn([...])` one revision with several changes. */
class Writer {
  readonly revisions: { revision: number; changes: Change[] }[] = [];
  private live = new Set<string>();
  private rev = 1;
  compactRevision = 0;

  put(key: string, value = ''): number {
    return this.txn([{ type: 'PUT', key, value }]);
  }

  del(...keys: string[]): number {
    return this.txn(keys.map((key) => ({ type: 'DELETE', key })));
  }

  txn(changes: Change[]): number {
    for (const c of changes) {
      if (c.type === 'DELETE' && !this.live.has(c.key)) throw new Error(`test bug: delete of absent ${c.key}`);
      if (c.type === 'PUT') this.live.add(c.key);
      else this.live.delete(c.key);
    }
    this.rev++;
    this.revisions.push({ revision: this.rev, changes: changes.map((c) => ({ ...c })) });
    return this.rev;
  }

  compact(rev: number): this {
    this.compactRevision = rev;
    return this;
  }

  get history(): History {
    return { revisions: structuredClone(this.revisions), currentRevision: this.rev, compactRevision: this.compactRevision };
  }
}

const kv = (key: string, createRevision: number, modRevision: number, version: number, value: string): KV => ({ key, createRevision, modRevision, version, value });
const put = (k: KV, prevKv?: KV): Ev => (prevKv ? { type: 'PUT', kv: k, prevKv } : { type: 'PUT', kv: k });
const del = (key: string, rev: number, prevKv?: KV): Ev => {
  const k = kv(key, 0, rev, 0, '');
  return prevKv ? { type: 'DELETE', kv: k, prevKv } : { type: 'DELETE', kv: k };
};

function events(h: History, r: Req): Ev[] {
  const got = plain('watchEvents', () => watchEvents(structuredClone(h), { ...r }) as unknown);
  if (!got || typeof got !== 'object' || !Array.isArray((got as { events?: unknown }).events)) {
    mismatch(`watchEvents(${showHistory(h)}, ${JSON.stringify(r)}) should return { events: [...] }, got ${JSON.stringify(got)}`);
  }
  return (got as { events: Ev[] }).events;
}

const where = (h: History, r: Req) => `history ${showHistory(h)}, request ${JSON.stringify(r)}`;

function expectEvents(h: History, r: Req, want: Ev[]): void {
  const got = events(h, r);
  expect(got, `events for ${where(h, r)}`).toEqual(want);
}

/** Compact, readable history: "r2 PUT a=1 | r3 PUT b=x, DELETE a; compacted at 3; current 3". */
function showHistory(h: History): string {
  const revs = h.revisions.map((r) => `r${r.revision} ${r.changes.map((c) => (c.type === 'PUT' ? `PUT ${JSON.stringify(c.key)}=${JSON.stringify(c.value ?? '')}` : `DELETE ${JSON.stringify(c.key)}`)).join(', ')}`);
  return `[${revs.join(' | ')}] currentRevision ${h.currentRevision}, compactRevision ${h.compactRevision}`;
}

const showEvent = (e: Ev) => `${e.type} ${JSON.stringify(e.kv)}${e.prevKv ? ` prevKv ${JSON.stringify(e.prevKv)}` : ''}`;
const showEvents = (es: Ev[]) => (es.length === 0 ? '(none)' : es.map(showEvent).join('; '));

// ---------------------------------------------------------------- prefixRangeEnd

describe('prefixRangeEnd (client/v3 GetPrefixRangeEnd)', () => {
  it.each([
    ['foo', 'fop'],
    ['/registry/pods/', '/registry/pods0'],
    ['a', 'b'],
    ['a\x00', 'a\x01'],
    ['az', 'a{'],
    ['a\xff', 'b'],
    ['a\xff\xff', 'b'],
    ['\xfe', '\xff'],
  ])('the prefix %j ends at %j (the last byte below 0xff, incremented; the bytes after it dropped)', (prefix, end) => {
    expect(plain('prefixRangeEnd', () => prefixRangeEnd(prefix))).toBe(end);
  });

  it.each([[''], ['\xff'], ['\xff\xff\xff']])('the prefix %j has no end: "\\0", every key from the prefix on', (prefix) => {
    expect(plain('prefixRangeEnd', () => prefixRangeEnd(prefix))).toBe('\0');
  });
});

// ---------------------------------------------------------------- event shape

describe('watchEvents: the events and their key-values (mvccpb.Event)', () => {
  it('a put creates the key: createRevision = modRevision = its revision, version 1', () => {
    const w = new Writer();
    w.put('foo', 'bar');
    expectEvents(w.history, { key: 'foo', startRevision: 1 }, [put(kv('foo', 2, 2, 1, 'bar'))]);
  });

  it('each later put keeps createRevision, moves modRevision and counts version up', () => {
    const w = new Writer();
    w.put('foo', 'a');
    w.put('other', 'x');
    w.put('foo', 'b');
    w.put('foo', 'c');
    expectEvents(w.history, { key: 'foo', startRevision: 1 }, [
      put(kv('foo', 2, 2, 1, 'a')), put(kv('foo', 2, 4, 2, 'b')), put(kv('foo', 2, 5, 3, 'c')),
    ]);
  });

  it('a delete event carries only the key and the deleting revision', () => {
    const w = new Writer();
    w.put('foo', 'a');
    w.put('foo', 'b');
    w.del('foo');
    const got = events(w.history, { key: 'foo', startRevision: 4 });
    expect(got, where(w.history, { key: 'foo', startRevision: 4 })).toEqual([del('foo', 4)]);
  });

  it('a key put again after a delete starts over: new createRevision, version 1 (kvstore_test TestStorePut)', () => {
    const w = new Writer();
    w.put('foo', 'a'); // 2
    w.put('foo', 'b'); // 3
    w.del('foo'); // 4
    w.put('foo', 'c'); // 5
    w.put('foo', 'd'); // 6
    expectEvents(w.history, { key: 'foo', startRevision: 4 }, [
      del('foo', 4), put(kv('foo', 5, 5, 1, 'c')), put(kv('foo', 5, 6, 2, 'd')),
    ]);
  });

  it('the version counts from the creation before the watch started, not from the start revision', () => {
    const w = new Writer();
    w.put('k', '1');
    w.put('k', '2');
    w.put('k', '3');
    w.put('k', '4');
    expectEvents(w.history, { key: 'k', startRevision: 5 }, [put(kv('k', 2, 5, 4, '4'))]);
  });

  it('an empty value is a value', () => {
    const w = new Writer();
    w.put('k', '');
    expectEvents(w.history, { key: 'k', startRevision: 2 }, [put(kv('k', 2, 2, 1, ''))]);
  });
});

describe('watchEvents: prevKv', () => {
  it('prevKv is the key-value just before each event, only when asked', () => {
    const w = new Writer();
    w.put('a', '1'); // 2
    w.put('b', '1'); // 3
    w.put('a', '2'); // 4
    w.del('a'); // 5
    const v2 = kv('a', 2, 2, 1, '1');
    const v4 = kv('a', 2, 4, 2, '2');
    expectEvents(w.history, { key: 'a', startRevision: 3, prevKv: true }, [put(v4, v2), del('a', 5, v4)]);
    expectEvents(w.history, { key: 'a', startRevision: 3 }, [put(v4), del('a', 5)]);
  });

  it('a key created inside the replayed range: its creation has no prevKv, its next change has the creation', () => {
    const w = new Writer();
    w.put('x', '0'); // 2
    w.put('a', '1'); // 3
    w.put('a', '2'); // 4
    w.put('a', '3'); // 5
    const v3 = kv('a', 3, 3, 1, '1');
    const v4 = kv('a', 3, 4, 2, '2');
    expectEvents(w.history, { key: 'a', startRevision: 2, prevKv: true }, [put(v3), put(v4, v3), put(kv('a', 3, 5, 3, '3'), v4)]);
  });

  it('a put after a delete has no prevKv (the key did not exist)', () => {
    const w = new Writer();
    w.put('a', '1');
    w.del('a');
    w.put('a', '2');
    expectEvents(w.history, { key: 'a', startRevision: 3, prevKv: true }, [del('a', 3, kv('a', 2, 2, 1, '1')), put(kv('a', 4, 4, 1, '2'))]);
  });

  it('prevKv of a key changed in a txn is its value before that txn, even for keys the watch just saw', () => {
    const w = new Writer();
    w.txn([{ type: 'PUT', key: 'p/1', value: 'a' }, { type: 'PUT', key: 'p/2', value: 'b' }]); // 2
    w.txn([{ type: 'PUT', key: 'p/2', value: 'c' }, { type: 'DELETE', key: 'p/1' }]); // 3
    const r = { key: 'p/', rangeEnd: 'p0', startRevision: 2, prevKv: true };
    expectEvents(w.history, r, [
      put(kv('p/1', 2, 2, 1, 'a')), put(kv('p/2', 2, 2, 1, 'b')),
      put(kv('p/2', 2, 3, 2, 'c'), kv('p/2', 2, 2, 1, 'b')), del('p/1', 3, kv('p/1', 2, 2, 1, 'a')),
    ]);
  });

  it('prevKv comes from history before the start revision too', () => {
    const w = new Writer();
    w.put('a', 'old'); // 2
    w.put('b', 'x'); // 3
    w.put('a', 'new'); // 4
    expectEvents(w.history, { key: 'a', startRevision: 4, prevKv: true }, [put(kv('a', 2, 4, 2, 'new'), kv('a', 2, 2, 1, 'old'))]);
  });
});

describe('watchEvents: order', () => {
  it('in revision order, and inside a txn in the order of its changes, not key order', () => {
    const w = new Writer();
    w.txn([{ type: 'PUT', key: 'z', value: '1' }, { type: 'PUT', key: 'a', value: '1' }, { type: 'PUT', key: 'm', value: '1' }]); // 2
    w.put('b', '1'); // 3
    w.txn([{ type: 'DELETE', key: 'm' }, { type: 'PUT', key: 'a', value: '2' }]); // 4
    const got = events(w.history, { key: '\0', rangeEnd: '\0', startRevision: 1 });
    expect(got.map((e) => `${e.type} ${e.kv.key}@${e.kv.modRevision}`), where(w.history, { key: '\0', rangeEnd: '\0', startRevision: 1 }))
      .toEqual(['PUT z@2', 'PUT a@2', 'PUT m@2', 'PUT b@3', 'DELETE m@4', 'PUT a@4']);
  });

  it('a key that changes in many revisions appears once per revision, never twice', () => {
    const w = new Writer();
    for (let i = 0; i < 5; i++) {
      w.put('k', String(i));
      w.put('j', String(i));
    }
    const got = events(w.history, { key: 'j', rangeEnd: 'l', startRevision: 1 });
    expect(got.map((e) => e.kv.modRevision)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });
});

describe('watchEvents: the start revision', () => {
  const w = new Writer();
  w.put('k', '1'); // 2
  w.put('k', '2'); // 3
  w.put('k', '3'); // 4
  const h = w.history;

  it('is inclusive: an event at the start revision is delivered', () => {
    expect(events(h, { key: 'k', startRevision: 3 }).map((e) => e.kv.modRevision), where(h, { key: 'k', startRevision: 3 })).toEqual([3, 4]);
  });

  it('at the current revision: the last write only', () => {
    expect(events(h, { key: 'k', startRevision: 4 }).map((e) => e.kv.modRevision)).toEqual([4]);
  });

  it('after the current revision: nothing yet (TestWatchFutureRev: it waits for that revision)', () => {
    expectEvents(h, { key: 'k', startRevision: 5 }, []);
    expectEvents(h, { key: 'k', startRevision: 1000 }, []);
  });

  it('0, negative or absent: from the next write on, so nothing from history', () => {
    expectEvents(h, { key: 'k', startRevision: 0 }, []);
    expectEvents(h, { key: 'k', startRevision: -3 }, []);
    expectEvents(h, { key: 'k' }, []);
  });

  it('1 (a new store\'s revision): everything', () => {
    expect(events(h, { key: 'k', startRevision: 1 }).map((e) => e.kv.modRevision)).toEqual([2, 3, 4]);
  });

  it('an empty history (a new store, revision 1) has nothing to replay', () => {
    expectEvents({ revisions: [], currentRevision: 1, compactRevision: 0 }, { key: 'k', startRevision: 1 }, []);
  });
});

describe('watchEvents: key ranges (watcher.go)', () => {
  const w = new Writer();
  w.txn(['fo', 'foo', 'foo/a', 'foobar', 'fop', 'fooz', 'fp', 'zoo', 'a'].map((key) => ({ type: 'PUT' as const, key, value: 'v' })));
  const h = w.history;
  const keys = (r: Req) => events(h, { startRevision: 1, ...r }).map((e) => e.kv.key);

  it('no range end: exactly the key', () => {
    expect(keys({ key: 'foo' })).toEqual(['foo']);
    expect(keys({ key: 'foo', rangeEnd: '' })).toEqual(['foo']);
  });

  it('[key, rangeEnd): the end is exclusive', () => {
    expect(keys({ key: 'foo', rangeEnd: 'fop' })).toEqual(['foo', 'foo/a', 'foobar', 'fooz']);
    expect(keys({ key: 'fo', rangeEnd: 'foobar' })).toEqual(['fo', 'foo', 'foo/a']);
  });

  it('a prefix range (TestWatcherWatchPrefix): keys that start with the prefix, not keys that merely contain it', () => {
    expect(keys({ key: 'foo', rangeEnd: 'fop' })).not.toContain('fo');
    expect(keys({ key: 'oo', rangeEnd: 'op' })).toEqual([]);
    expect(keys({ key: 'fo', rangeEnd: 'fp' })).toEqual(['fo', 'foo', 'foo/a', 'foobar', 'fop', 'fooz']);
  });

  it('"\\0" as range end: every key >= key (etcdctl watch --from-key)', () => {
    expect(keys({ key: 'foobar', rangeEnd: '\0' })).toEqual(['foobar', 'fop', 'fooz', 'fp', 'zoo']);
    expect(keys({ key: '\0', rangeEnd: '\0' })).toHaveLength(9);
  });

  it('a range end before or equal to the key selects nothing (etcd refuses that watch up front, TestWatcherWatchWrongRange; here it is empty)', () => {
    expect(keys({ key: 'foo', rangeEnd: 'foo' })).toEqual([]);
    expect(keys({ key: 'fop', rangeEnd: 'foo' })).toEqual([]);
  });

  it('keys compare byte by byte: "foo/a" < "foobar" because "/" (0x2f) < "b"', () => {
    expect(keys({ key: 'foo/', rangeEnd: 'foo0' })).toEqual(['foo/a']);
    expect(keys({ key: 'foo0', rangeEnd: '\0' })).toEqual(['foobar', 'fop', 'fooz', 'fp', 'zoo']);
  });

  it('a delete range delivers one DELETE per key, each in range or not (TestWatchDeleteRange)', () => {
    const d = new Writer();
    d.txn([0, 1, 2].map((i) => ({ type: 'PUT' as const, key: `foo_${i}`, value: 'bar' })));
    const rev = d.del('foo_0', 'foo_1', 'foo_2');
    expectEvents(d.history, { key: 'foo_', rangeEnd: 'foo`', startRevision: rev }, [del('foo_0', 3), del('foo_1', 3), del('foo_2', 3)]);
    expectEvents(d.history, { key: 'foo_1', startRevision: rev }, [del('foo_1', 3)]);
  });
});

describe('watchEvents: filters (etcdserverpb.WatchCreateRequest filters)', () => {
  const w = new Writer();
  w.put('k', '1'); // 2
  w.del('k'); // 3
  w.put('k', '2'); // 4
  const h = w.history;

  it('noPut keeps only deletes, noDelete only puts', () => {
    expect(events(h, { key: 'k', startRevision: 1, noPut: true }).map((e) => e.type)).toEqual(['DELETE']);
    expect(events(h, { key: 'k', startRevision: 1, noDelete: true }).map((e) => e.kv.modRevision)).toEqual([2, 4]);
  });

  it('both: nothing at all', () => {
    expectEvents(h, { key: 'k', startRevision: 1, noPut: true, noDelete: true }, []);
  });

  it('a filter does not change the other events (prevKv included)', () => {
    expectEvents(h, { key: 'k', startRevision: 1, noPut: true, prevKv: true }, [del('k', 3, kv('k', 2, 2, 1, '1'))]);
  });
});

describe('watchEvents: compaction (kvstore.go, watchable_store.go)', () => {
  it('TestWatchCompacted: a watch from before the compaction is canceled with the compact revision', () => {
    const w = new Writer();
    for (let i = 0; i < 10; i++) w.put('foo', 'bar'); // 2..11
    w.compact(5);
    const r = plain('watchEvents', () => watchEvents(w.history, { key: 'foo', startRevision: 1 }));
    expect(r, where(w.history, { key: 'foo', startRevision: 1 })).toEqual({ canceled: true, compactRevision: 5, cancelReason: COMPACTED });
  });

  it('one below the compaction revision: canceled', () => {
    const w = new Writer();
    for (let i = 0; i < 6; i++) w.put('k', String(i)); // 2..7
    w.compact(4);
    expect(plain('watchEvents', () => watchEvents(w.history, { key: 'k', startRevision: 3 }))).toEqual({ canceled: true, compactRevision: 4, cancelReason: COMPACTED });
  });

  it('exactly at the compaction revision: allowed, the key as it was at that revision comes first', () => {
    const w = new Writer();
    for (let i = 0; i < 6; i++) w.put('k', String(i)); // 2..7
    w.compact(4);
    expect(events(w.history, { key: 'k', startRevision: 4 }).map((e) => e.kv.modRevision), where(w.history, { key: 'k', startRevision: 4 })).toEqual([4, 5, 6, 7]);
  });

  it('the compaction is checked even for a key that never changed before it (the whole store forgot)', () => {
    const w = new Writer();
    w.put('a', '1'); // 2
    w.put('a', '2'); // 3
    w.put('b', '1'); // 4
    w.compact(3);
    expect(plain('watchEvents', () => watchEvents(w.history, { key: 'b', startRevision: 2 }))).toMatchObject({ canceled: true, compactRevision: 3 });
  });

  it('at the compaction revision: no prevKv for its events (what came before is gone)', () => {
    const w = new Writer();
    w.put('k', 'a'); // 2
    w.put('k', 'b'); // 3
    w.put('k', 'c'); // 4
    w.compact(3);
    expectEvents(w.history, { key: 'k', startRevision: 3, prevKv: true }, [put(kv('k', 2, 3, 2, 'b')), put(kv('k', 2, 4, 3, 'c'), kv('k', 2, 3, 2, 'b'))]);
  });

  it('a delete at exactly the compaction revision is gone: compaction keeps no tombstone', () => {
    const w = new Writer();
    w.put('k', 'a'); // 2
    w.put('j', 'a'); // 3
    w.txn([{ type: 'DELETE', key: 'k' }, { type: 'PUT', key: 'j', value: 'b' }]); // 4
    w.put('k', 'b'); // 5
    w.compact(4);
    expectEvents(w.history, { key: 'a', rangeEnd: 'z', startRevision: 4 }, [put(kv('j', 3, 4, 2, 'b')), put(kv('k', 5, 5, 1, 'b'))]);
  });

  it('after the compaction revision: everything as usual, prevKv from the revision kept at compaction', () => {
    const w = new Writer();
    w.put('k', 'a'); // 2
    w.put('k', 'b'); // 3
    w.put('x', '1'); // 4
    w.put('k', 'c'); // 5
    w.del('k'); // 6
    w.compact(4);
    expectEvents(w.history, { key: 'k', startRevision: 5, prevKv: true }, [
      put(kv('k', 2, 5, 3, 'c'), kv('k', 2, 3, 2, 'b')), del('k', 6, kv('k', 2, 5, 3, 'c')),
    ]);
  });

  it('the compaction revision can be the current one', () => {
    const w = new Writer();
    w.put('k', 'a'); // 2
    w.put('k', 'b'); // 3
    w.compact(3);
    expectEvents(w.history, { key: 'k', startRevision: 3, prevKv: true }, [put(kv('k', 2, 3, 2, 'b'))]);
    expect(plain('watchEvents', () => watchEvents(w.history, { key: 'k', startRevision: 2 }))).toMatchObject({ canceled: true, compactRevision: 3 });
  });

  it('a watch from the next write, or from the future, is never canceled by compaction', () => {
    const w = new Writer();
    w.put('k', 'a');
    w.put('k', 'b');
    w.compact(3);
    expectEvents(w.history, { key: 'k', startRevision: 0 }, []);
    expectEvents(w.history, { key: 'k', startRevision: 9 }, []);
  });
});

// ---------------------------------------------------------------- syncWatcher

function pass(h: History, r: Req, max: number): unknown {
  return plain('syncWatcher', () => syncWatcher(structuredClone(h), { ...r }, max) as unknown);
}

describe('syncWatcher: one pass of syncWatchers (watchBatchMaxRevs)', () => {
  const w = new Writer();
  w.put('a', '1'); // 2
  w.txn([{ type: 'PUT', key: 'a', value: '2' }, { type: 'PUT', key: 'b', value: '1' }]); // 3
  w.put('z', '1'); // 4 (out of range)
  w.put('b', '2'); // 5
  w.del('a'); // 6
  const h = w.history;
  const range = { key: 'a', rangeEnd: 'c' };

  it('delivers the events of at most N revisions and resumes at the first revision left out', () => {
    const r = pass(h, { ...range, startRevision: 1 }, 2) as { events: Ev[]; minRevision: number; synced: boolean };
    expect(r, where(h, { ...range, startRevision: 1 })).toEqual({
      events: [put(kv('a', 2, 2, 1, '1')), put(kv('a', 2, 3, 2, '2')), put(kv('b', 3, 3, 1, '1'))],
      minRevision: 5,
      synced: false,
    });
  });

  it('counts revisions, not events: a txn\'s events travel together', () => {
    const r = pass(h, { ...range, startRevision: 3 }, 1) as { events: Ev[]; minRevision: number };
    expect(r.events.map((e) => `${e.kv.key}@${e.kv.modRevision}`)).toEqual(['a@3', 'b@3']);
    expect(r.minRevision).toBe(5);
  });

  it('the last pass catches up: synced, next revision current + 1', () => {
    expect(pass(h, { ...range, startRevision: 5 }, 2)).toEqual({ events: [put(kv('b', 3, 5, 2, '2')), del('a', 6)], minRevision: 7, synced: true });
    expect(pass(h, { ...range, startRevision: 1 }, 1000)).toMatchObject({ minRevision: 7, synced: true });
  });

  it('exactly N revisions left: one pass delivers them all and the watcher is synced', () => {
    expect(pass(h, { ...range, startRevision: 3 }, 3)).toMatchObject({ minRevision: 7, synced: true });
  });

  it('resuming from minRevision again and again: every event once, no gap, no duplicate (TestWatchBatchUnsynced)', () => {
    const b = new Writer();
    for (let i = 0; i < 25; i++) b.put('foo', String(i)); // 2..26
    const bh = b.history;
    let start = 1;
    const batches: number[][] = [];
    for (let i = 0; i < 20; i++) {
      const r = pass(bh, { key: 'foo', startRevision: start }, 10) as { events: Ev[]; minRevision: number; synced: boolean };
      batches.push(r.events.map((e) => e.kv.modRevision));
      start = r.minRevision;
      if (r.synced) break;
    }
    expect(batches.map((x) => x.length)).toEqual([10, 10, 5]);
    expect(batches.flat()).toEqual(Array.from({ length: 25 }, (_, i) => i + 2));
    expect(start).toBe(27);
  });

  it('filters apply after batching: a revision of filtered-out events still counts', () => {
    const r = pass(h, { ...range, startRevision: 5, noDelete: true }, 1);
    expect(r).toEqual({ events: [put(kv('b', 3, 5, 2, '2'))], minRevision: 6, synced: false });
    const d = pass(h, { ...range, startRevision: 5, noPut: true }, 1);
    expect(d).toEqual({ events: [], minRevision: 6, synced: false });
  });

  it('prevKv is given as in watchEvents', () => {
    expect(pass(h, { ...range, startRevision: 5, prevKv: true }, 1)).toEqual({ events: [put(kv('b', 3, 5, 2, '2'), kv('b', 3, 3, 1, '1'))], minRevision: 6, synced: false });
  });

  it('revisions without events in range do not count', () => {
    expect(pass(h, { key: 'b', startRevision: 1 }, 1)).toEqual({ events: [put(kv('b', 3, 3, 1, '1'))], minRevision: 5, synced: false });
  });

  it('from the future: no events, synced, waiting at its start revision', () => {
    expect(pass(h, { ...range, startRevision: 9 }, 5)).toEqual({ events: [], minRevision: 9, synced: true });
  });

  it('from the next write (start 0): no events, synced at current + 1', () => {
    expect(pass(h, { ...range, startRevision: 0 }, 5)).toEqual({ events: [], minRevision: 7, synced: true });
  });

  it('compacted (TestWatchCompacted): canceled like watchEvents', () => {
    const c = new Writer();
    for (let i = 0; i < 10; i++) c.put('foo', 'bar');
    c.compact(5);
    expect(pass(c.history, { key: 'foo', startRevision: 1 }, 3)).toEqual({ canceled: true, compactRevision: 5, cancelReason: COMPACTED });
    expect(pass(c.history, { key: 'foo', startRevision: 5 }, 3)).toMatchObject({ minRevision: 8, synced: false });
  });
});

// ---------------------------------------------------------------- differential against the runtime

/** Keys near each other, so ranges cut between them: one byte per character, ordered as bytes. */
const KEYS = ['a', 'a/', 'a/b', 'a0', 'ab', 'b', 'b\x7f', 'b\xff', 'c'];
const keyArb = fc.constantFrom(...KEYS);

type Op =
  | { op: 'put'; key: string; value: string }
  | { op: 'del'; key: string; rangeEnd?: string }
  | { op: 'txn'; puts: [string, string][]; dels: string[] }
  | { op: 'compact'; back: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('put' as const), key: keyArb, value: fc.constantFrom('', 'v', 'w', 'x') }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('del' as const), key: keyArb }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('del' as const), key: keyArb, rangeEnd: fc.constantFrom('\0', 'b', 'a0', 'c', 'z') }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('txn' as const), puts: fc.uniqueArray(fc.tuple(keyArb, fc.constantFrom('t', 'u')), { selector: (p) => p[0], maxLength: 4 }), dels: fc.uniqueArray(keyArb, { maxLength: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('compact' as const), back: fc.nat(4) }) },
);

/** Where a generated watch starts, relative to the history it is asked about. */
type StartSpec = { at: 'abs'; rev: number } | { at: 'back'; n: number } | { at: 'compact'; d: number } | { at: 'future'; n: number };

const startArb: fc.Arbitrary<StartSpec> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ at: fc.constant('abs' as const), rev: fc.integer({ min: -1, max: 3 }) }) },
  { weight: 4, arbitrary: fc.record({ at: fc.constant('back' as const), n: fc.nat(8) }) },
  { weight: 3, arbitrary: fc.record({ at: fc.constant('compact' as const), d: fc.integer({ min: -1, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ at: fc.constant('future' as const), n: fc.integer({ min: 1, max: 3 }) }) },
);

interface ReqSpec { key: string; rangeEnd?: string; start: StartSpec; prevKv: boolean; noPut: boolean; noDelete: boolean }

const reqArb: fc.Arbitrary<ReqSpec> = fc.record({
  key: fc.constantFrom(...KEYS, '\0', '\0', 'a/', 'a/', 'b'),
  rangeEnd: fc.constantFrom(undefined, '', '\0', '\0', 'PREFIX', 'PREFIX', 'b', 'a0', 'c', 'z', 'a'),
  start: startArb,
  prevKv: fc.boolean(),
  noPut: fc.constantFrom(false, false, false, true),
  noDelete: fc.constantFrom(false, false, false, true),
});

/** The request in learner terms, for this history. */
function request(spec: ReqSpec, h: History): Req {
  const s = spec.start;
  const startRevision =
    s.at === 'abs' ? s.rev : s.at === 'back' ? Math.max(1, h.currentRevision - s.n) : s.at === 'future' ? h.currentRevision + s.n : Math.max(1, h.compactRevision + s.d);
  const r: Req = { key: spec.key, startRevision };
  if (spec.rangeEnd !== undefined) r.rangeEnd = spec.rangeEnd === 'PREFIX' ? prefixEnd(spec.key) : spec.rangeEnd;
  if (spec.prevKv) r.prevKv = true;
  if (spec.noPut) r.noPut = true;
  if (spec.noDelete) r.noDelete = true;
  return r;
}

/** client/v3 GetPrefixRangeEnd over one-byte characters (the suite's own, to build prefix requests). */
function prefixEnd(prefix: string): string {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const c = prefix.charCodeAt(i);
    if (c < 0xff) return prefix.slice(0, i) + String.fromCharCode(c + 1);
  }
  return '\0';
}

interface World {
  history: History;
  runtime: ReturnType<typeof createInMemoryEtcd>;
}

/** Applies the ops to the runtime's MVCC store and records every applied revision as the learner sees it. */
function build(ops: Op[]): World {
  const clock = { now: () => 0, setTimer: (_ms: number, fn: () => void) => (fn(), { cancel() {} }) };
  const runtime = createInMemoryEtcd({ clock, latencyMs: 0 });
  const store = runtime.store;
  const revisions: History['revisions'] = [];
  store.subscribe((evs, revision) => {
    revisions.push({ revision, changes: evs.map((e) => (e.type === 'PUT' ? { type: 'PUT', key: e.kv.key, value: e.kv.value } : { type: 'DELETE', key: e.kv.key })) });
  });
  let compactRevision = 0;
  for (const o of ops) {
    if (o.op === 'put') store.put({ key: o.key, value: o.value });
    else if (o.op === 'del') store.deleteRange(o.rangeEnd ? { key: o.key, rangeEnd: o.rangeEnd } : { key: o.key });
    else if (o.op === 'txn') {
      const puts = o.puts.map(([key, value]) => ({ put: { key, value } }));
      const dels = o.dels.filter((k) => !o.puts.some(([p]) => p === k)).map((key) => ({ deleteRange: { key } }));
      // interleave so a txn's changes are not in key order
      store.txn({ compare: [], success: [...dels, ...puts].reverse(), failure: [] });
    } else {
      const target = store.revision - o.back;
      if (target > Math.max(compactRevision, 0) && store.compact(target).ok) compactRevision = target;
    }
  }
  return { history: { revisions, currentRevision: store.revision, compactRevision }, runtime };
}

type Outcome = { events: Ev[] } | { canceled: true; compactRevision: number; cancelReason: string };

/** What the runtime's watch hub sends a watch created now: the replayed events, or the cancellation. */
function runtimeWatch(world: World, r: Req): Outcome {
  const responses: { events: readonly { type: 'PUT' | 'DELETE'; kv: KV & { lease: number }; prevKv?: KV & { lease: number } }[]; canceled?: boolean; compactRevision?: number; cancelReason?: string }[] = [];
  const handle = world.runtime.client.watch({ ...r }, (resp) => responses.push(resp as never));
  handle.cancel();
  const cancel = responses.find((x) => x.canceled && x.compactRevision !== undefined);
  if (cancel) return { canceled: true, compactRevision: cancel.compactRevision!, cancelReason: cancel.cancelReason! };
  const strip = (k: KV & { lease: number }): KV => ({ key: k.key, createRevision: k.createRevision, modRevision: k.modRevision, version: k.version, value: k.value });
  return { events: responses.flatMap((x) => x.events.map((e) => (e.prevKv ? { type: e.type, kv: strip(e.kv), prevKv: strip(e.prevKv) } : { type: e.type, kv: strip(e.kv) }))) };
}

const showOutcome = (o: Outcome) => ('canceled' in o ? `canceled ${JSON.stringify(o)}` : showEvents(o.events));

const SEEDS = [20260408, 7, 4242];
const programArb = fc.tuple(fc.array(opArb, { minLength: 1, maxLength: 22 }), fc.array(reqArb, { minLength: 1, maxLength: 4 }));

describe('matches the simulated etcd on generated histories', () => {
  it.each(SEEDS)('watchEvents gives what the runtime\'s watch hub replays (seed %i)', (seed) => {
    fc.assert(
      fc.property(programArb, ([ops, reqs]) => {
        const world = build(ops);
        for (const spec of reqs) {
          const r = request(spec, world.history);
          const want = runtimeWatch(world, r);
          const got = plain('watchEvents', () => watchEvents(structuredClone(world.history), { ...r }) as Outcome);
          if (JSON.stringify(got) !== JSON.stringify(want) && !sameOutcome(got, want)) {
            mismatch(`seed ${seed}: ${where(world.history, r)}\n  expected: ${showOutcome(want)}\n  got:      ${'canceled' in (got ?? {}) || Array.isArray((got as { events?: unknown })?.events) ? showOutcome(got) : JSON.stringify(got)}`);
          }
        }
      }),
      { seed, numRuns: 250, includeErrorInReport: true },
    );
  });

  it.each(SEEDS)('syncWatcher, resumed from minRevision until synced, delivers exactly that, batch by batch as the reference (seed %i)', (seed) => {
    fc.assert(
      fc.property(programArb, fc.integer({ min: 1, max: 4 }), ([ops, reqs], max) => {
        const world = build(ops);
        for (const spec of reqs) {
          const r = request(spec, world.history);
          const want = runtimeWatch(world, r);
          let req = { ...r };
          const delivered: Ev[] = [];
          for (let i = 0; i < 100; i++) {
            const ref = reference.syncWatcher(structuredClone(world.history), { ...req }, max);
            const got = plain('syncWatcher', () => syncWatcher(structuredClone(world.history), { ...req }, max) as unknown);
            if (JSON.stringify(got) !== JSON.stringify(ref) && !sameOutcome(got as Outcome, ref as Outcome)) {
              mismatch(`seed ${seed}: syncWatcher(${showHistory(world.history)}, ${JSON.stringify(req)}, ${max})\n  expected: ${JSON.stringify(ref)}\n  got:      ${JSON.stringify(got)}`);
            }
            if ('canceled' in ref) {
              delivered.length = 0;
              break;
            }
            delivered.push(...ref.events);
            if (ref.synced) break;
            req = { ...req, startRevision: ref.minRevision };
          }
          if (!('canceled' in want) && JSON.stringify(delivered) !== JSON.stringify(want.events) && !sameEvents(delivered, want.events)) {
            mismatch(`seed ${seed}: the reference's passes disagree with the runtime for ${where(world.history, r)}`);
          }
        }
      }),
      { seed, numRuns: 150, includeErrorInReport: true },
    );
  });
});

/** Deep equality that ignores key order in objects (plain data only). */
function sameOutcome(a: unknown, b: unknown): boolean {
  try {
    expect(a).toEqual(b);
    return true;
  } catch {
    return false;
  }
}
const sameEvents = (a: Ev[], b: Ev[]) => sameOutcome(a, b);
