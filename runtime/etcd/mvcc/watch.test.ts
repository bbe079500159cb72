import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inRange, prefixEnd } from './keys.ts';
import { MvccStore } from './store.ts';
import { WatchHub, type WatchResponse } from './watch.ts';

function collect(): { responses: WatchResponse[]; sink: (r: WatchResponse) => void } {
  const responses: WatchResponse[] = [];
  return { responses, sink: (r) => responses.push(r) };
}

describe('WatchHub (watchable_store.go)', () => {
  it('replays history from the start revision, then streams new writes', () => {
    const s = new MvccStore();
    const hub = new WatchHub(s);
    s.put({ key: 'a', value: '1' }); // 2
    s.put({ key: 'b', value: '1' }); // 3
    s.put({ key: 'a', value: '2' }); // 4
    const { responses, sink } = collect();
    hub.watch({ key: 'a', startRevision: 3, prevKv: true }, sink);
    s.deleteRange({ key: 'a' }); // 5
    expect(responses[0]).toMatchObject({ created: true, watchId: 0 });
    const events = responses.flatMap((r) => r.events);
    expect(events).toEqual([
      { type: 'PUT', kv: { key: 'a', createRevision: 2, modRevision: 4, version: 2, value: '2', lease: 0 },
        prevKv: { key: 'a', createRevision: 2, modRevision: 2, version: 1, value: '1', lease: 0 } },
      { type: 'DELETE', kv: { key: 'a', createRevision: 0, modRevision: 5, version: 0, value: '', lease: 0 },
        prevKv: { key: 'a', createRevision: 2, modRevision: 4, version: 2, value: '2', lease: 0 } },
    ]);
  });

  it('a prefix watch sees exactly the keys in [prefix, prefixEnd(prefix)) (its startsWith fast path)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom('/', '0', '.', 'a', 'b', '\u00e9', '\ud83d', '\ude00', '\uffff'), maxLength: 5 }), { maxLength: 30 }),
        fc.constantFrom('/a/', 'a', '/\u00e9', 'a\uffff', '\ud83d'),
        (suffixes, prefix) => {
          const s = new MvccStore();
          const hub = new WatchHub(s);
          const { responses, sink } = collect();
          hub.watch({ key: prefix, rangeEnd: prefixEnd(prefix) }, sink);
          // keys near the prefix: sharing its first unit, so many fall just inside or just outside
          const keys = [...new Set(suffixes.map((k) => `${prefix.slice(0, 1)}${k}`))];
          for (const k of keys) s.put({ key: k, value: '' });
          const seen = responses.flatMap((r) => r.events.map((e) => e.kv.key));
          expect(seen).toEqual(keys.filter((k) => inRange(k, prefix, prefixEnd(prefix))));
        },
      ),
      { seed: 42, numRuns: 300 },
    );
  });

  it('delivers a txn as one response with every event of its revision', () => {
    const s = new MvccStore();
    const hub = new WatchHub(s);
    const { responses, sink } = collect();
    hub.watch({ key: 'p/', rangeEnd: prefixEnd('p/') }, sink);
    s.txn({ compare: [], success: [{ put: { key: 'p/1', value: '' } }, { put: { key: 'q', value: '' } }, { put: { key: 'p/2', value: '' } }], failure: [] });
    expect(responses[1]?.events.map((e) => e.kv.key)).toEqual(['p/1', 'p/2']);
    expect(responses[1]?.revision).toBe(2);
  });

  it('cancels with the compact revision when the start revision was compacted', () => {
    const s = new MvccStore();
    const hub = new WatchHub(s);
    for (let i = 0; i < 5; i++) s.put({ key: 'k', value: String(i) });
    s.compact(4);
    const { responses, sink } = collect();
    hub.watch({ key: 'k', startRevision: 2 }, sink);
    expect(responses[1]).toMatchObject({ canceled: true, compactRevision: 4, cancelReason: 'mvcc: required revision has been compacted' });
    expect(hub.size).toBe(0);
    const ok = collect();
    hub.watch({ key: 'k', startRevision: 4 }, ok.sink);
    expect(ok.responses[1]?.events.map((e) => e.kv.modRevision)).toEqual([4, 5, 6]);
  });

  it('skips writes below a start revision that is still in the future (resume on a lagging member)', () => {
    const s = new MvccStore();
    const hub = new WatchHub(s);
    const { responses, sink } = collect();
    hub.watch({ key: 'k', startRevision: 4 }, sink);
    for (let i = 0; i < 4; i++) s.put({ key: 'k', value: String(i) }); // revisions 2..5
    expect(responses.flatMap((r) => r.events).map((e) => e.kv.modRevision)).toEqual([4, 5]);
  });

  it('filters puts or deletes on request', () => {
    const s = new MvccStore();
    const hub = new WatchHub(s);
    const { responses, sink } = collect();
    hub.watch({ key: 'k', noPut: true }, sink);
    s.put({ key: 'k', value: '1' });
    s.deleteRange({ key: 'k' });
    expect(responses.flatMap((r) => r.events).map((e) => e.type)).toEqual(['DELETE']);
  });

  it('resumed from last seen + 1, a watcher sees every revision exactly once (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.boolean()), { minLength: 1, maxLength: 40 }),
        fc.nat(40),
        (ops, cut) => {
          const s = new MvccStore();
          const hub = new WatchHub(s);
          const first = collect();
          const id = hub.watch({ key: '\0', rangeEnd: '\0', startRevision: 1 }, first.sink);
          ops.forEach(([key, del], i) => {
            if (del) s.deleteRange({ key });
            else s.put({ key, value: String(i) });
            if (i === cut) hub.cancel(id);
          });
          const seen = first.responses.flatMap((r) => r.events.map((e) => e.kv.modRevision));
          const lastSeen = seen.length > 0 ? seen[seen.length - 1]! : 1;
          const second = collect();
          hub.watch({ key: '\0', rangeEnd: '\0', startRevision: lastSeen + 1 }, second.sink);
          const all = [...seen, ...second.responses.flatMap((r) => r.events.map((e) => e.kv.modRevision))];
          const expected = Array.from({ length: s.revision - 1 }, (_, i) => i + 2);
          expect(all).toEqual(expected);
        },
      ),
      { seed: 42, verbose: true },
    );
  });
});
