import { describe, expect, it } from 'vitest';
import type { Event, Pod } from '../../api/index.ts';
import { createKernel } from '../../kernel/index.ts';
import type { RestClient, RestResponse } from '../rest/rest-client.ts';
import type { RestRequest } from '../rest/wire.ts';
import { fakeApi } from '../record/fake-api.test-helper.ts';
import {
  EVENT_RETRY_SLEEP_MS, MAX_TRIES_PER_EVENT, SERIES_FINISH_MS, SERIES_REFRESH_MS, createEventsRecorder, isomorphicKey, reportingInstanceFor,
} from './recorder.ts';
import { recordEvent } from './sink.ts';

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'default', uid: 'u1', resourceVersion: '5' } } as Pod;
const vip = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'vip', namespace: 'default', uid: 'u2', resourceVersion: '9' } } as Pod;
const node = { kind: 'Node', name: 'worker-1', uid: 'worker-1', namespace: '' };

function setup(seed = 1) {
  const kernel = createKernel({ seed });
  const api = fakeApi(kernel);
  const errors: string[] = [];
  const recorder = createEventsRecorder({
    clock: kernel, rng: kernel.rng.fork('events'), client: api.client,
    reportingController: 'default-scheduler', reportingInstance: reportingInstanceFor('default-scheduler', 'cp-1'),
    onError: (m) => errors.push(m),
  });
  const events = (): Event[] => [...api.objects.values()] as Event[];
  const writes = (): string[] => api.requests.map((r) => `${r.verb} ${r.group ?? ''}/${r.resource ?? ''}`);
  return { kernel, api, recorder, events, writes, errors };
}

describe('events.k8s.io/v1 EventRecorder (client-go tools/events)', () => {
  it('creates an events.k8s.io/v1 Event shaped as makeEvent builds it', () => {
    const { kernel, recorder, events, writes } = setup();
    kernel.runFor(5250);
    recorder.eventf(pod, null, 'Normal', 'Scheduled', 'Binding', 'Successfully assigned %v to %v', 'default/web-1', 'worker-1');
    kernel.runFor(10);
    expect(writes()).toStrictEqual(['create events.k8s.io/events']);
    const [ev] = events();
    expect(ev).toMatchObject({
      apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { namespace: 'default' },
      eventTime: '2026-01-01T00:00:05.250000Z',
      reportingController: 'default-scheduler', reportingInstance: 'default-scheduler-cp-1',
      action: 'Binding', reason: 'Scheduled', type: 'Normal', note: 'Successfully assigned default/web-1 to worker-1',
      regarding: { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'u1', apiVersion: 'v1', resourceVersion: '5' },
    });
    // no deprecated fields, no series, no related
    expect(Object.keys(ev!).sort()).toStrictEqual(['action', 'apiVersion', 'eventTime', 'kind', 'metadata', 'note', 'reason', 'regarding', 'reportingController', 'reportingInstance', 'type']);
    // "<regarding name>.<UnixNano in hex>": 2026-01-01T00:00:05.250Z is 1767225605250 ms after the Unix epoch
    expect(ev?.metadata.name).toBe(`web-1.${(1_767_225_605_250_000_000n).toString(16)}`);
  });

  it('puts a cluster-scoped object\'s event in default and names the related object', () => {
    const { kernel, recorder, events } = setup();
    recorder.eventf(node, null, 'Normal', 'Starting', 'StartKubeProxy', '');
    recorder.eventf(pod, vip, 'Normal', 'Preempted', 'Preempting', 'Preempted by pod %v on node %v', 'u2', 'worker-1');
    kernel.runFor(10);
    const [starting, preempted] = events();
    expect(starting).toMatchObject({ metadata: { namespace: 'default' }, regarding: node });
    expect(starting?.note).toBe('');
    expect(preempted?.related).toStrictEqual({ kind: 'Pod', namespace: 'default', name: 'vip', uid: 'u2', apiVersion: 'v1', resourceVersion: '9' });
  });

  it('drops an event of an unsupported type (ValidateEventType)', () => {
    const { kernel, recorder, writes, errors } = setup();
    recorder.eventf(pod, null, 'Custom' as 'Normal', 'X', 'Y', '');
    kernel.runFor(10);
    expect(writes()).toStrictEqual([]);
    expect(errors).toStrictEqual(["Unsupported event type: 'Custom'"]);
  });

  it('isomorphic events become a series: created, patched at 2, then written when the series ends', () => {
    const { kernel, api, recorder, events, writes } = setup();
    const fail = (note: string): void => recorder.eventf(pod, null, 'Warning', 'FailedScheduling', 'Scheduling', note);
    fail('0/3 nodes are available: 3 Insufficient cpu.');
    kernel.runFor(60_000);
    fail('0/3 nodes are available: 3 Insufficient memory.'); // the note is not part of the key
    kernel.runFor(60_000);
    fail('again');
    kernel.runFor(60_000);
    fail('again');
    kernel.runFor(10);
    expect(writes()).toStrictEqual(['create events.k8s.io/events', 'patch events.k8s.io/events']);
    expect(api.requests[1]?.body).toStrictEqual({ series: { count: 2, lastObservedTime: '2026-01-01T00:01:00.000000Z' } });
    expect(events()).toHaveLength(1);
    expect(events()[0]).toMatchObject({ note: '0/3 nodes are available: 3 Insufficient cpu.', series: { count: 2 } });
    // finishSeries runs every 6 minutes; the first run after 6 quiet minutes writes the final count
    kernel.runUntil(3 * 60_000 + SERIES_FINISH_MS * 2 + 10);
    expect(writes()).toHaveLength(3);
    expect(events()[0]?.series).toStrictEqual({ count: 4, lastObservedTime: '2026-01-01T00:03:00.000000Z' });
    // the finished series is forgotten: the next occurrence starts a new event
    fail('later');
    kernel.runFor(10);
    expect(writes().at(-1)).toBe('create events.k8s.io/events');
    expect(events()).toHaveLength(2);
  });

  it('an ongoing series writes its count on the 30-minute refresh', () => {
    const { kernel, recorder, events, writes } = setup();
    const fail = (): void => recorder.eventf(pod, null, 'Warning', 'FailedScheduling', 'Scheduling', 'no fit');
    for (let minute = 0; minute < 30; minute += 5) {
      kernel.runUntil(minute * 60_000);
      fail();
    }
    kernel.runUntil(SERIES_REFRESH_MS + 10);
    expect(writes()).toStrictEqual(['create events.k8s.io/events', 'patch events.k8s.io/events', 'patch events.k8s.io/events']);
    expect(events()[0]?.series).toStrictEqual({ count: 6, lastObservedTime: '2026-01-01T00:25:00.000000Z' });
  });

  it('events differing in reason, action, type or related are not isomorphic', () => {
    const { kernel, recorder, events } = setup();
    recorder.eventf(pod, null, 'Warning', 'FailedScheduling', 'Scheduling', 'x');
    recorder.eventf(pod, null, 'Normal', 'FailedScheduling', 'Scheduling', 'x');
    recorder.eventf(pod, null, 'Warning', 'Other', 'Scheduling', 'x');
    recorder.eventf(pod, null, 'Warning', 'FailedScheduling', 'Other', 'x');
    recorder.eventf(pod, vip, 'Warning', 'FailedScheduling', 'Scheduling', 'x');
    kernel.runFor(10);
    expect(events()).toHaveLength(5);
    expect(events().every((e) => e.series === undefined)).toBe(true);
  });

  it('a series whose event is gone is created again under the same name (patch 404 -> create)', () => {
    const { kernel, api, recorder, events, writes } = setup();
    recorder.eventf(pod, null, 'Warning', 'FailedScheduling', 'Scheduling', 'x');
    kernel.runFor(10);
    const name = events()[0]?.metadata.name;
    api.objects.clear();
    recorder.eventf(pod, null, 'Warning', 'FailedScheduling', 'Scheduling', 'x');
    kernel.runFor(10);
    expect(writes()).toStrictEqual(['create events.k8s.io/events', 'patch events.k8s.io/events', 'create events.k8s.io/events']);
    expect(events()).toHaveLength(1);
    expect(events()[0]).toMatchObject({ metadata: { name }, series: { count: 2 } });
    expect(api.requests[2]?.body).not.toHaveProperty('metadata.resourceVersion');
  });

  it('retries a transport failure 10-12.5 s later, at most 12 times', () => {
    const { kernel, api, recorder, errors } = setup();
    api.failWith = 0; // no HTTP answer
    recorder.eventf(pod, null, 'Normal', 'Scheduled', 'Binding', 'x');
    kernel.runFor(10);
    expect(api.requests).toHaveLength(1);
    kernel.runFor(EVENT_RETRY_SLEEP_MS - 20);
    expect(api.requests).toHaveLength(1);
    kernel.runFor(EVENT_RETRY_SLEEP_MS * 0.25 + 20);
    expect(api.requests).toHaveLength(2);
    kernel.runFor(MAX_TRIES_PER_EVENT * EVENT_RETRY_SLEEP_MS * 1.25);
    expect(api.requests).toHaveLength(MAX_TRIES_PER_EVENT);
    expect(recorder.inFlight).toBe(0);
    expect(errors).toStrictEqual([expect.stringContaining('retry limit exceeded')]);
  });

  it('recovers when the API server comes back during the retries', () => {
    const { kernel, api, recorder, events } = setup();
    api.failWith = 0;
    recorder.eventf(pod, null, 'Normal', 'Scheduled', 'Binding', 'x');
    kernel.runFor(25_000);
    api.failWith = undefined;
    kernel.runFor(15_000);
    expect(events()).toHaveLength(1);
    expect(recorder.inFlight).toBe(0);
  });

  it.each([500, 403, 422])('never retries an answer from the server (%i is a StatusError)', (code) => {
    const { kernel, api, recorder, errors } = setup();
    api.failWith = code;
    recorder.eventf(pod, null, 'Normal', 'Scheduled', 'Binding', 'x');
    kernel.runFor(5 * EVENT_RETRY_SLEEP_MS);
    expect(api.requests).toHaveLength(1);
    expect(errors).toStrictEqual([expect.stringContaining('will not retry')]);
  });

  it('stop() ends the finish and refresh loops', () => {
    const { kernel, recorder, writes } = setup();
    recorder.eventf(pod, null, 'Warning', 'FailedScheduling', 'Scheduling', 'x');
    recorder.eventf(pod, null, 'Warning', 'FailedScheduling', 'Scheduling', 'x');
    recorder.eventf(pod, null, 'Warning', 'FailedScheduling', 'Scheduling', 'x');
    kernel.runFor(10);
    recorder.stop();
    kernel.runFor(SERIES_REFRESH_MS * 2);
    expect(writes()).toHaveLength(2);
  });

  it('the isomorphic key ignores the note and the event name', () => {
    const base = { metadata: { name: 'a' }, eventTime: null, type: 'Normal', action: 'A', reason: 'R', reportingController: 'c', reportingInstance: 'i', regarding: { kind: 'Pod', name: 'p' } } as Event;
    expect(isomorphicKey({ ...base, note: 'one', metadata: { name: 'b' } })).toBe(isomorphicKey({ ...base, note: 'two' }));
    expect(isomorphicKey({ ...base, regarding: { kind: 'Pod', name: 'p', resourceVersion: '2' } })).not.toBe(isomorphicKey(base));
  });
});

describe('recordEvent (one write)', () => {
  /** A client answering from a script, one answer per request. */
  function scripted(answers: RestResponse[]): { client: RestClient; requests: RestRequest[] } {
    const requests: RestRequest[] = [];
    const client = {
      request(r: RestRequest, cb: (res: RestResponse) => void): void {
        requests.push(r);
        cb(answers.shift() ?? { code: 500, body: {} });
      },
    } as unknown as RestClient;
    return { client, requests };
  }
  const status = (code: number, reason: string): RestResponse => ({ code, body: { kind: 'Status', code, reason } });
  const series = { metadata: { name: 'p.1', namespace: 'default', resourceVersion: '3' }, eventTime: 't', series: { count: 2, lastObservedTime: 't2' } } as Event;
  const single = { metadata: { name: 'p.1', namespace: 'default' }, eventTime: 't' } as Event;

  it.each<[string, Event, RestResponse[], string[], unknown]>([
    ['a singleton is created', single, [{ code: 201, body: single }], ['create'], { written: true, event: single }],
    ['a series is patched', series, [{ code: 200, body: series }], ['patch'], { written: true, event: series }],
    ['a series that is gone is created', series, [status(404, 'NotFound'), { code: 201, body: series }], ['patch', 'create'], { written: true, event: series }],
    ['the create of a series that crossed its first create is retried', series, [status(404, 'NotFound'), status(409, 'AlreadyExists')], ['patch', 'create'],
      { written: false, retry: true, reason: 'AlreadyExists' }],
    ['a singleton that exists is not', single, [status(409, 'AlreadyExists')], ['create'], { written: false, retry: false, reason: 'AlreadyExists' }],
    ['a conflict is not', series, [status(409, 'Conflict')], ['patch'], { written: false, retry: false, reason: 'Conflict' }],
    ['a transport failure is', single, [{ code: 0, body: undefined, transportError: 'connection refused' }], ['create'],
      { written: false, retry: true, reason: 'connection refused' }],
  ])('%s', (_name, event, answers, verbs, want) => {
    const { client, requests } = scripted(answers);
    let outcome: unknown;
    recordEvent(client, event, (o) => (outcome = o));
    expect(requests.map((r) => r.verb)).toStrictEqual(verbs);
    expect(outcome).toStrictEqual(want);
    const created = requests.find((r) => r.verb === 'create');
    if (created) expect((created.body as Event).metadata.resourceVersion).toBeUndefined();
  });
});
