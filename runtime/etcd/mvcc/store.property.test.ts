// The store against a naive reference model: a full copy of the key space after every revision.
// Random puts, deletes, txns and compactions; every read at every retained revision must agree.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MvccStore } from './store.ts';

type Snapshot = Map<string, { value: string; create: number; mod: number; version: number }>;

const KEYS = ['a', 'b', 'c', 'd'];
const opArb = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), key: fc.constantFrom(...KEYS), value: fc.string({ maxLength: 3 }) }),
  fc.record({ kind: fc.constant('del' as const), key: fc.constantFrom(...KEYS), toEnd: fc.boolean() }),
  fc.record({ kind: fc.constant('txn2' as const), k1: fc.constantFrom('a', 'b'), k2: fc.constantFrom('c', 'd'), value: fc.string({ maxLength: 2 }) }),
  fc.record({ kind: fc.constant('compact' as const), back: fc.nat(5) }),
);

describe('MvccStore matches a naive model (property)', () => {
  it('agrees on every read at every retained revision', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        const store = new MvccStore();
        const history: Snapshot[] = [new Map(), new Map()]; // index = revision; revision 1 is empty
        let compacted = 0;
        const current = (): Snapshot => new Map(history[history.length - 1]!);
        const commit = (next: Snapshot): void => void history.push(next);
        const put = (m: Snapshot, key: string, value: string, rev: number): void => {
          const prev = m.get(key);
          m.set(key, { value, create: prev ? prev.create : rev, mod: rev, version: (prev?.version ?? 0) + 1 });
        };
        for (const op of ops) {
          const rev = history.length;
          if (op.kind === 'put') {
            store.put({ key: op.key, value: op.value });
            const m = current();
            put(m, op.key, op.value, rev);
            commit(m);
          } else if (op.kind === 'del') {
            const m = current();
            const doomed = [...m.keys()].filter((k) => (op.toEnd ? k >= op.key : k === op.key));
            store.deleteRange(op.toEnd ? { key: op.key, rangeEnd: '\0' } : { key: op.key });
            if (doomed.length > 0) {
              for (const k of doomed) m.delete(k);
              commit(m);
            }
          } else if (op.kind === 'txn2') {
            store.txn({ compare: [], success: [{ put: { key: op.k1, value: op.value } }, { put: { key: op.k2, value: op.value } }], failure: [] });
            const m = current();
            put(m, op.k1, op.value, rev);
            put(m, op.k2, op.value, rev);
            commit(m);
          } else {
            const target = Math.max(1, history.length - 1 - op.back);
            const r = store.compact(target);
            if (target > compacted) {
              expect(r.ok).toBe(true);
              compacted = target;
            } else expect(r.ok).toBe(false);
          }
          expect(store.revision).toBe(history.length - 1);
        }
        for (let rev = Math.max(1, compacted); rev < history.length; rev++) {
          const r = store.range({ key: '\0', rangeEnd: '\0', revision: rev });
          if (!r.ok) throw new Error(r.error.message);
          const want = [...history[rev]!.entries()].sort(([x], [y]) => (x < y ? -1 : 1))
            .map(([key, e]) => ({ key, value: e.value, createRevision: e.create, modRevision: e.mod, version: e.version, lease: 0 }));
          expect(r.value.kvs).toEqual(want);
        }
      }),
      { seed: 1234, numRuns: 300, verbose: true },
    );
  });
});

describe('MvccStore key order across many new keys (property)', () => {
  // Thousands of keys created between ranges: new keys wait in a small sorted run that is merged
  // into the big one past 1,024 keys (or 1/16 of it); a range must read both runs in key order.
  it('every prefix range returns exactly the live keys with that prefix, in key order', () => {
    const keyArb = fc.tuple(fc.constantFrom('/registry/pods/', '/registry/events/', '/registry/leases/', '/r/'), fc.string({ minLength: 1, maxLength: 6 }))
      .map(([prefix, name]) => prefix + name);
    const opArb = fc.oneof(
      { weight: 20, arbitrary: fc.record({ kind: fc.constant('put' as const), key: keyArb }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('del' as const), key: keyArb }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('range' as const), prefix: fc.constantFrom('/registry/', '/registry/pods/', '/registry/events/', '/r', '/') }) },
    );
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1500, maxLength: 4000 }), (ops) => {
        const store = new MvccStore();
        const live = new Set<string>();
        const check = (prefix: string): void => {
          const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
          const r = store.range({ key: prefix, rangeEnd: end, keysOnly: true });
          if (!r.ok) throw new Error(r.error.message);
          const want = [...live].filter((k) => k.startsWith(prefix)).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
          expect(r.value.kvs.map((kv) => kv.key)).toEqual(want);
        };
        for (const op of ops) {
          if (op.kind === 'put') {
            store.put({ key: op.key, value: 'v' });
            live.add(op.key);
          } else if (op.kind === 'del') {
            store.deleteRange({ key: op.key });
            live.delete(op.key);
          } else check(op.prefix);
        }
        check('/');
      }),
      { seed: 4321, numRuns: 15, verbose: true },
    );
  });
});
