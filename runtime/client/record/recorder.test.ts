import { describe, expect, it } from 'vitest';
import type { CoreEvent, Pod } from '../../api/index.ts';
import { createKernel } from '../../kernel/index.ts';
import { fakeApi } from './fake-api.test-helper.ts';
import { EventCorrelator, MAX_SIMILAR_EVENTS, SPAM_BURST } from './correlator.ts';
import { sprintf } from './format.ts';
import { createEventRecorder, referenceOf } from './recorder.ts';

const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-7d4b9c', namespace: 'default', uid: 'u1', resourceVersion: '5' } } as const;

function setup() {
  const kernel = createKernel({ seed: 1 });
  const api = fakeApi(kernel);
  const recorder = createEventRecorder({ clock: kernel, client: api.client, component: 'replicaset-controller' });
  const events = (): CoreEvent[] => [...api.objects.values()] as CoreEvent[];
  return { kernel, api, recorder, events };
}

describe('sprintf (Go fmt verbs)', () => {
  it.each([
    ['Created pod: %v', ['web-abc12'], 'Created pod: web-abc12'],
    ['Scaled up replica set %s to %d from %d', ['web', 3, 0], 'Scaled up replica set web to 3 from 0'],
    ['%q is %v%%', ['a', 5], '"a" is 5%'],
    ['missing %s', [], 'missing %!s(MISSING)'],
    ['%d', ['x'], '%!d(string=x)'],
    ['extra', [1], 'extra%!(EXTRA 1)'],
  ])('%s', (fmt, args, want) => {
    expect(sprintf(fmt, ...args)).toBe(want);
  });
});

describe('EventRecorder', () => {
  it('creates a core/v1 Event shaped as client-go makeEvent builds it', () => {
    const { kernel, recorder, events } = setup();
    kernel.runFor(5000);
    recorder.eventf(rs, 'Normal', 'SuccessfulCreate', 'Created pod: %v', 'web-7d4b9c-abcde');
    kernel.runFor(10);
    const [ev] = events();
    expect(ev).toMatchObject({
      apiVersion: 'v1', kind: 'Event',
      metadata: { namespace: 'default' },
      involvedObject: { kind: 'ReplicaSet', namespace: 'default', name: 'web-7d4b9c', uid: 'u1', apiVersion: 'apps/v1', resourceVersion: '5' },
      reason: 'SuccessfulCreate', message: 'Created pod: web-7d4b9c-abcde', type: 'Normal', count: 1,
      source: { component: 'replicaset-controller' },
      firstTimestamp: '2026-01-01T00:00:05Z', lastTimestamp: '2026-01-01T00:00:05Z',
      reportingComponent: 'replicaset-controller',
    });
    // "<name>.<UnixNano in hex>": 2026-01-01T00:00:05Z is 1767225605 s after the Unix epoch
    expect(ev?.metadata.name).toBe(`web-7d4b9c.${(1_767_225_605_000_000_000n).toString(16)}`);
  });

  it('a repeated event patches count and lastTimestamp of the first one (EventCorrelator)', () => {
    const { kernel, api, recorder, events } = setup();
    recorder.eventf(rs, 'Warning', 'FailedCreate', 'Error creating: %v', 'quota');
    kernel.runFor(3000);
    recorder.eventf(rs, 'Warning', 'FailedCreate', 'Error creating: %v', 'quota');
    recorder.eventf(rs, 'Warning', 'FailedCreate', 'Error creating: %v', 'quota'); // queued behind the patch
    kernel.runFor(100);
    expect(events()).toHaveLength(1);
    expect(events()[0]).toMatchObject({ count: 3, firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:00:03Z' });
    expect(api.requests.map((r) => r.verb)).toEqual(['create', 'patch', 'patch']);
    expect(api.requests[1]).toMatchObject({ patchType: 'application/strategic-merge-patch+json', body: { count: 2, lastTimestamp: '2026-01-01T00:00:03Z' } });
  });

  it('different messages make different events; a deleted event is created again on its next repeat', () => {
    const { kernel, api, recorder, events } = setup();
    recorder.eventf(rs, 'Normal', 'SuccessfulCreate', 'Created pod: %v', 'a');
    recorder.eventf(rs, 'Normal', 'SuccessfulCreate', 'Created pod: %v', 'b');
    kernel.runFor(10);
    expect(events().map((e) => e.message)).toEqual(['Created pod: a', 'Created pod: b']);
    const firstKey = [...api.objects.keys()][0]!;
    api.objects.delete(firstKey);
    recorder.eventf(rs, 'Normal', 'SuccessfulCreate', 'Created pod: %v', 'a');
    kernel.runFor(10);
    expect(api.requests.map((r) => r.verb)).toEqual(['create', 'create', 'patch', 'create']);
    expect(events().find((e) => e.message === 'Created pod: a')).toMatchObject({ count: 2 });
  });

  it('retries a failed write 10 s later, up to 12 tries, then gives up', () => {
    const { kernel, api, recorder, events } = setup();
    api.failWith = 500;
    recorder.eventf(rs, 'Normal', 'X', 'm');
    kernel.runFor(25_000);
    expect(api.requests).toHaveLength(3); // t=0, 10 s, 20 s
    api.failWith = undefined;
    kernel.runFor(10_000);
    expect(events()).toHaveLength(1);
    api.failWith = 503;
    recorder.eventf(rs, 'Normal', 'Y', 'm');
    kernel.runFor(500_000);
    expect(api.requests.length - 4).toBe(12);
    expect(recorder.inFlight).toBe(0);
  });

  it('an object without kind is a programming error naming the invariant', () => {
    const pod = { metadata: { name: 'p' } } as Pod;
    expect(() => referenceOf(pod)).toThrow(/invariant violated/);
  });
});

describe('EventCorrelator', () => {
  const base = (message: string): CoreEvent => ({
    metadata: { name: `x.${message}`, namespace: 'default' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default', uid: 'u' },
    reason: 'BackOff', message, type: 'Warning', source: { component: 'kubelet' }, count: 1,
  });

  it(`combines similar events once ${MAX_SIMILAR_EVENTS} distinct messages were seen within 10 minutes`, () => {
    const c = new EventCorrelator();
    const actions: string[] = [];
    for (let i = 0; i < MAX_SIMILAR_EVENTS + 1; i++) {
      const d = c.correlate(base(`m${i}`), i * 1000, 't', () => 'combined');
      actions.push(d.action === 'skip' ? 'skip' : `${d.action}:${d.event.message ?? ''}`);
      if (d.action !== 'skip') c.observe(d.key, d.event);
    }
    expect(actions.slice(0, MAX_SIMILAR_EVENTS - 1).every((a) => a.startsWith('create:m'))).toBe(true);
    expect(actions[MAX_SIMILAR_EVENTS - 1]).toBe('create:(combined from similar events): m9');
    expect(actions[MAX_SIMILAR_EVENTS]).toBe('patch:(combined from similar events): m10');
  });

  it(`drops events past a burst of ${SPAM_BURST} per object and lets one through every 5 minutes`, () => {
    const c = new EventCorrelator();
    const kept = (atMs: number): boolean => c.correlate(base('same'), atMs, 't', () => 'n').action !== 'skip';
    const burst = Array.from({ length: SPAM_BURST + 5 }, () => kept(0)).filter(Boolean).length;
    expect(burst).toBe(SPAM_BURST);
    expect(kept(299_999)).toBe(false);
    expect(kept(300_000)).toBe(true);
    expect(kept(300_001)).toBe(false);
  });
});
