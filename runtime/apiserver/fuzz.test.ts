// Hostile requests never throw out of the API server: each gets a Status error and nothing is stored.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Status } from '../api/index.ts';
import { createHarness } from './testing/harness.ts';

const hostileValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

const hostileBody = fc.oneof(
  hostileValue,
  fc.record({ metadata: hostileValue, spec: hostileValue }),
  fc.record({ metadata: fc.record({ name: fc.oneof(fc.string(), fc.integer(), fc.constant('x'.repeat(300))), labels: hostileValue }), spec: fc.record({ containers: hostileValue }) }),
  fc.constant({ metadata: { name: 'deep' }, spec: JSON.parse('['.repeat(2000) + ']'.repeat(2000)) }),
);

describe('fuzzing the create path', () => {
  it('malformed pods get a 4xx Status and are not stored', () => {
    const h = createHarness();
    const seed = Number(process.env.FUZZ_SEED ?? 424242);
    console.log(`fuzz seed ${seed}`);
    fc.assert(
      fc.property(hostileBody, (body) => {
        const before = h.etcd.store.revision;
        const res = h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body });
        if (res.code === 201) return true; // a body that happens to be a valid pod
        const s = res.body as Status;
        expect(s.kind).toBe('Status');
        expect(res.code).toBeGreaterThanOrEqual(400);
        expect(res.code).toBeLessThan(500);
        expect(h.etcd.store.revision).toBe(before);
        return true;
      }),
      { seed, numRuns: 150 },
    );
  });
});
