// Visible examples for the etcd-watch lab: read them, run them, add your own.
// `npm run grade -- etcd-watch --examples`
import { describe, expect, it } from 'vitest';
import * as submission from '@lab/submission';

// Your module's three functions.
const { prefixRangeEnd, syncWatcher, watchEvents } = submission as unknown as {
  prefixRangeEnd: (prefix: string) => string;
  watchEvents: (history: unknown, request: unknown) => unknown;
  syncWatcher: (history: unknown, request: unknown, maxRevisions: number) => unknown;
};

// The history of the lab page's worked example: three writes to /app/, then a txn.
//   r2: PUT /app/color=blue      r3: PUT /app/size=s      r4: PUT /app/color=red
//   r5: txn { DELETE /app/size, PUT /app/mode=dark }     r6: PUT /other=x
const history = {
  revisions: [
    { revision: 2, changes: [{ type: 'PUT' as const, key: '/app/color', value: 'blue' }] },
    { revision: 3, changes: [{ type: 'PUT' as const, key: '/app/size', value: 's' }] },
    { revision: 4, changes: [{ type: 'PUT' as const, key: '/app/color', value: 'red' }] },
    { revision: 5, changes: [{ type: 'DELETE' as const, key: '/app/size' }, { type: 'PUT' as const, key: '/app/mode', value: 'dark' }] },
    { revision: 6, changes: [{ type: 'PUT' as const, key: '/other', value: 'x' }] },
  ],
  currentRevision: 6,
  compactRevision: 0,
};

describe('examples', () => {
  it('prefixRangeEnd: "/app/" ends at "/app0"', () => {
    expect(prefixRangeEnd('/app/')).toBe('/app0');
  });

  it('watchEvents: one key from revision 3, with prevKv', () => {
    expect(watchEvents(history, { key: '/app/color', startRevision: 3, prevKv: true })).toEqual({
      events: [
        {
          type: 'PUT',
          kv: { key: '/app/color', createRevision: 2, modRevision: 4, version: 2, value: 'red' },
          prevKv: { key: '/app/color', createRevision: 2, modRevision: 2, version: 1, value: 'blue' },
        },
      ],
    });
  });

  it('watchEvents: a prefix from revision 4 (inclusive), a txn in the order of its changes', () => {
    const r = watchEvents(history, { key: '/app/', rangeEnd: '/app0', startRevision: 4 });
    expect(r).toEqual({
      events: [
        { type: 'PUT', kv: { key: '/app/color', createRevision: 2, modRevision: 4, version: 2, value: 'red' } },
        { type: 'DELETE', kv: { key: '/app/size', createRevision: 0, modRevision: 5, version: 0, value: '' } },
        { type: 'PUT', kv: { key: '/app/mode', createRevision: 5, modRevision: 5, version: 1, value: 'dark' } },
      ],
    });
  });

  it('watchEvents: a start revision older than the compaction is canceled', () => {
    expect(watchEvents({ ...history, compactRevision: 4 }, { key: '/app/color', startRevision: 3 })).toEqual({
      canceled: true,
      compactRevision: 4,
      cancelReason: 'mvcc: required revision has been compacted',
    });
  });

  it('syncWatcher: two revisions per pass, then resume where it stopped', () => {
    const req = { key: '/app/', rangeEnd: '/app0', startRevision: 1 };
    const first = syncWatcher(history, req, 2);
    expect(first).toMatchObject({ minRevision: 4, synced: false });
    const second = syncWatcher(history, { ...req, startRevision: 4 }, 2);
    expect(second).toMatchObject({ minRevision: 7, synced: true });
  });
});
