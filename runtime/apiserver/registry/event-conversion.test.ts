import { describe, expect, it } from 'vitest';
import type { CoreEvent, Event } from '../../api/index.ts';
import { createHarness } from '../testing/harness.ts';
import { coreEventToV1, convertEventFieldSelector, toRequestedVersion, toStorageVersion, v1EventToCore } from './event-conversion.ts';

const pod = { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'u1', apiVersion: 'v1', resourceVersion: '7' };
const preemptor = { kind: 'Pod', namespace: 'default', name: 'vip', uid: 'u2', apiVersion: 'v1' };
const meta = { name: 'web-1.188a', namespace: 'default', uid: 'e1', resourceVersion: '42', creationTimestamp: '2026-01-01T00:00:05Z' };

/** What client-go's tools/record writes through core/v1 (a kubelet event). */
const coreBorn: CoreEvent = {
  apiVersion: 'v1', kind: 'Event', metadata: meta,
  involvedObject: pod, reason: 'Pulled', message: 'Container image "nginx" already present on machine',
  source: { component: 'kubelet', host: 'worker-1' },
  firstTimestamp: '2026-01-01T00:00:05Z', lastTimestamp: '2026-01-01T00:00:09Z', count: 3, type: 'Normal',
  eventTime: null, reportingComponent: 'kubelet', reportingInstance: 'worker-1',
};

/** What client-go's tools/events writes through events.k8s.io/v1 (a scheduler event in a series). */
// the Event type leaves out Go's nulls (a zero metav1.Time), which the wire carries
const v1Born = {
  apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: meta,
  eventTime: '2026-01-01T00:00:05.250000Z',
  series: { count: 2, lastObservedTime: '2026-01-01T00:01:05.250000Z' },
  reportingController: 'default-scheduler', reportingInstance: 'default-scheduler-cp-1',
  action: 'Preempting', reason: 'Preempted', regarding: pod, related: preemptor,
  note: 'Preempted by pod u2 on node worker-1', type: 'Normal',
  deprecatedSource: {}, deprecatedFirstTimestamp: null, deprecatedLastTimestamp: null,
} as unknown as Event;

describe('core/v1 <-> events.k8s.io/v1 Event conversion', () => {
  it.each<[string, CoreEvent, unknown]>([
    ['a core-born event shows its source and counts as the deprecated fields, eventTime null', coreBorn, {
      apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: meta,
      eventTime: null, reportingController: 'kubelet', reportingInstance: 'worker-1', reason: 'Pulled',
      regarding: pod, note: 'Container image "nginx" already present on machine', type: 'Normal',
      deprecatedSource: { component: 'kubelet', host: 'worker-1' },
      deprecatedFirstTimestamp: '2026-01-01T00:00:05Z', deprecatedLastTimestamp: '2026-01-01T00:00:09Z', deprecatedCount: 3,
    }],
    ['an empty core event keeps the always-present struct fields', { metadata: { name: 'x' }, involvedObject: {} } as CoreEvent, {
      apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'x' },
      eventTime: null, regarding: {}, deprecatedSource: {}, deprecatedFirstTimestamp: null, deprecatedLastTimestamp: null,
    }],
  ])('core -> v1: %s', (_name, core, want) => {
    expect(coreEventToV1(core)).toStrictEqual(want);
  });

  it.each<[string, Event, CoreEvent]>([
    ['a v1-born event is stored with source {}, null timestamps, no count', v1Born, {
      apiVersion: 'v1', kind: 'Event', metadata: meta,
      involvedObject: pod, reason: 'Preempted', message: 'Preempted by pod u2 on node worker-1',
      source: {}, firstTimestamp: null, lastTimestamp: null, type: 'Normal',
      eventTime: '2026-01-01T00:00:05.250000Z', series: { count: 2, lastObservedTime: '2026-01-01T00:01:05.250000Z' },
      action: 'Preempting', related: preemptor, reportingComponent: 'default-scheduler', reportingInstance: 'default-scheduler-cp-1',
    }],
    ['absent reporting fields become "" (core/v1 has no omitempty on them)', { metadata: { name: 'x' }, eventTime: null } as Event, {
      apiVersion: 'v1', kind: 'Event', metadata: { name: 'x' }, involvedObject: {}, source: {},
      firstTimestamp: null, lastTimestamp: null, eventTime: null, reportingComponent: '', reportingInstance: '',
    }],
  ])('v1 -> core: %s', (_name, v1, want) => {
    expect(v1EventToCore(v1)).toStrictEqual(want);
  });

  it.each([
    ['core-born', coreBorn],
    ['v1-born (as stored)', v1EventToCore(v1Born)],
  ])('round trip through events.k8s.io keeps the stored event: %s', (_name, stored) => {
    expect(v1EventToCore(coreEventToV1(stored))).toStrictEqual(stored);
  });

  it('a v1 event survives the trip through storage', () => {
    expect(coreEventToV1(v1EventToCore(v1Born))).toStrictEqual(v1Born);
  });

  it('converts only events requested through events.k8s.io, and never a Status', () => {
    const eventsV1 = { group: 'events.k8s.io', resource: 'events' };
    const core = { group: '', resource: 'events' };
    const status = { kind: 'Status', apiVersion: 'v1', status: 'Success' };
    expect(toRequestedVersion(core, coreBorn)).toBe(coreBorn);
    expect(toRequestedVersion(eventsV1, status)).toBe(status);
    expect(toRequestedVersion(eventsV1, coreBorn)).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: coreBorn.message });
    // list items have no type meta but are still events
    const { apiVersion: _a, kind: _k, ...item } = coreBorn;
    expect(toRequestedVersion(eventsV1, item)).toMatchObject({ regarding: pod });
    expect(toStorageVersion(core, v1Born)).toBe(v1Born);
    expect(toStorageVersion(eventsV1, v1Born)).toMatchObject({ apiVersion: 'v1', involvedObject: pod });
  });
});

describe('events.k8s.io field selectors (AddFieldLabelConversionsForEvent)', () => {
  it.each([
    ['regarding.name=web-1', { ok: true, selector: 'involvedObject.name=web-1' }],
    ['regarding.kind=Pod,regarding.namespace!=kube-system', { ok: true, selector: 'involvedObject.kind=Pod,involvedObject.namespace!=kube-system' }],
    ['reportingController==default-scheduler,type=Warning', { ok: true, selector: 'reportingComponent==default-scheduler,type=Warning' }],
    ['reason=a\\,b,metadata.name=x', { ok: true, selector: 'reason=a\\,b,metadata.name=x' }],
    ['note=hello', { ok: false, error: 'field label not supported: note' }],
    ['involvedObject.name=web-1', { ok: false, error: 'field label not supported: involvedObject.name' }],
  ])('%s', (selector, want) => {
    expect(convertEventFieldSelector(selector)).toStrictEqual(want);
  });
});

describe('events.k8s.io/v1 through the API server (one storage, two shapes)', () => {
  const EV = { group: 'events.k8s.io', resource: 'events', namespace: 'default' };
  const CORE = { group: '', resource: 'events', namespace: 'default' };
  const scheduled = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name },
    eventTime: '2026-01-01T00:00:05.250000Z', reportingController: 'default-scheduler', reportingInstance: 'default-scheduler-cp-1',
    action: 'Binding', reason: 'Scheduled', regarding: pod, note: 'Successfully assigned default/web-1 to worker-1', type: 'Normal', ...extra,
  });
  const stored = (h: ReturnType<typeof createHarness>, name: string): unknown => JSON.parse(h.etcd.store.get(`/registry/events/default/${name}`)!.value);

  it('a create through events.k8s.io is stored in the core/v1 shape and read back in both', () => {
    const h = createHarness();
    const created = h.admin({ verb: 'create', ...EV, body: scheduled('web-1.1') });
    expect(created.code).toBe(201);
    expect(created.body).toMatchObject({ apiVersion: 'events.k8s.io/v1', regarding: pod, note: 'Successfully assigned default/web-1 to worker-1', deprecatedSource: {} });
    expect(stored(h, 'web-1.1')).toMatchObject({
      apiVersion: 'v1', kind: 'Event', involvedObject: pod, message: 'Successfully assigned default/web-1 to worker-1',
      source: {}, firstTimestamp: null, lastTimestamp: null, reportingComponent: 'default-scheduler', action: 'Binding',
    });
    const asCore = h.admin({ verb: 'get', ...CORE, name: 'web-1.1' }).body as CoreEvent;
    expect(asCore).toMatchObject({ apiVersion: 'v1', involvedObject: pod, reportingComponent: 'default-scheduler', eventTime: '2026-01-01T00:00:05.250000Z' });
    expect(asCore).not.toHaveProperty('regarding');
    const asV1 = h.admin({ verb: 'get', ...EV, name: 'web-1.1' }).body;
    expect(asV1).toStrictEqual(created.body);
    const list = h.admin({ verb: 'list', ...EV }).body as unknown as { apiVersion: string; kind: string; items: Record<string, unknown>[] };
    expect(list).toMatchObject({ apiVersion: 'events.k8s.io/v1', kind: 'EventList' });
    expect(list.items[0]).toMatchObject({ regarding: pod, note: asCore.message });
    expect(list.items[0]).not.toHaveProperty('apiVersion');
  });

  it('a core/v1 event is listed through events.k8s.io with the deprecated fields', () => {
    const h = createHarness();
    const { metadata: _m, ...body } = coreBorn;
    expect(h.admin({ verb: 'create', ...CORE, body: { ...body, metadata: { name: 'web-1.2' } } }).code).toBe(201);
    const [item] = (h.admin({ verb: 'list', ...EV }).body as unknown as { items: Record<string, unknown>[] }).items;
    expect(item).toMatchObject({ eventTime: null, deprecatedSource: { component: 'kubelet', host: 'worker-1' }, deprecatedCount: 3, note: coreBorn.message });
  });

  it('watches and field selectors through events.k8s.io use its shape and labels', () => {
    const h = createHarness();
    const w = h.watch({ ...EV, query: { fieldSelector: 'regarding.name=web-1' } });
    h.admin({ verb: 'create', ...EV, body: scheduled('web-1.3') });
    h.admin({ verb: 'create', ...EV, body: scheduled('other.1', { regarding: preemptor }) });
    h.kernel.runFor(100);
    expect(w.events.map((e) => e.type)).toStrictEqual(['ADDED']);
    expect(w.events[0]?.object).toMatchObject({ apiVersion: 'events.k8s.io/v1', metadata: { name: 'web-1.3' }, regarding: pod });
    const selected = h.admin({ verb: 'list', ...EV, query: { fieldSelector: 'reportingController=default-scheduler,regarding.name=vip' } });
    expect((selected.body as unknown as { items: Event[] }).items.map((e) => e.metadata.name)).toStrictEqual(['other.1']);
    const refused = h.admin({ verb: 'list', ...EV, query: { fieldSelector: 'involvedObject.name=web-1' } });
    expect(refused).toMatchObject({ code: 400, body: { message: 'field label not supported: involvedObject.name' } });
  });

  it('a series patch through events.k8s.io applies to the v1 shape; the identifying fields are immutable', () => {
    const h = createHarness();
    h.admin({ verb: 'create', ...EV, body: scheduled('web-1.4') });
    const series = { count: 2, lastObservedTime: '2026-01-01T00:01:05.250000Z' };
    const patched = h.admin({ verb: 'patch', ...EV, name: 'web-1.4', patchType: 'application/strategic-merge-patch+json', body: { series } });
    expect(patched).toMatchObject({ code: 200, body: { apiVersion: 'events.k8s.io/v1', series } });
    expect(stored(h, 'web-1.4')).toMatchObject({ series, message: 'Successfully assigned default/web-1 to worker-1' });
    const renoted = h.admin({ verb: 'patch', ...EV, name: 'web-1.4', patchType: 'application/merge-patch+json', body: { note: 'other' } });
    expect(renoted).toMatchObject({ code: 422, body: { message: 'Event.events.k8s.io "web-1.4" is invalid: message: Invalid value: "other": field is immutable' } });
    // through core/v1 the old freedom remains
    expect(h.admin({ verb: 'patch', ...CORE, name: 'web-1.4', patchType: 'application/merge-patch+json', body: { message: 'other' } }).code).toBe(200);
  });

  it('a create through events.k8s.io meets the strict rules', () => {
    const h = createHarness();
    const bad = h.admin({ verb: 'create', ...EV, body: scheduled('web-1.5', { eventTime: undefined, action: undefined, deprecatedCount: 2 }) });
    expect(bad).toMatchObject({
      code: 422,
      // without eventTime the legacy rules do not look at the reporting fields (legacyValidateEvent)
      body: { message: 'Event.events.k8s.io "web-1.5" is invalid: [eventTime: Required value, count: Invalid value: "": needs to be unset]' },
    });
    const noAction = h.admin({ verb: 'create', ...EV, body: scheduled('web-1.6', { action: undefined, reportingInstance: 'x'.repeat(129) }) });
    expect(noAction).toMatchObject({
      code: 422,
      body: { message: 'Event.events.k8s.io "web-1.6" is invalid: [reportingInstance: Invalid value: "": can have at most 128 characters, action: Required value]' },
    });
    expect(h.admin({ verb: 'get', ...EV, name: 'web-1.6' }).code).toBe(404);
  });
});
