import { describe, expect, it } from 'vitest';
import { errorString, type CoreEvent } from '../../api/index.ts';
import { validateEventCreate, validateEventUpdate, semanticEqual } from './event-validation.ts';

/** A valid events.k8s.io/v1 event in the storage shape (as converted from the request). */
const v1: CoreEvent = {
  apiVersion: 'v1', kind: 'Event', metadata: { name: 'web-1.188a', namespace: 'default' },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'u1', apiVersion: 'v1' },
  reason: 'Scheduled', message: 'Successfully assigned default/web-1 to worker-1',
  source: {}, firstTimestamp: null, lastTimestamp: null, type: 'Normal',
  eventTime: '2026-01-01T00:00:05.250000Z', action: 'Binding',
  reportingComponent: 'default-scheduler', reportingInstance: 'default-scheduler-cp-1',
};
/** A valid core/v1 event as tools/record writes it. */
const legacy: CoreEvent = {
  apiVersion: 'v1', kind: 'Event', metadata: { name: 'worker-1.188a', namespace: 'default' },
  involvedObject: { kind: 'Node', name: 'worker-1', uid: 'worker-1' },
  reason: 'Starting', source: { component: 'kubelet', host: 'worker-1' },
  firstTimestamp: '2026-01-01T00:00:05Z', lastTimestamp: '2026-01-01T00:00:05Z', count: 1, type: 'Normal', eventTime: null,
};

const errors = (list: ReturnType<typeof validateEventCreate>): string[] => list.map(errorString);
const with_ = (base: CoreEvent, patch: Record<string, unknown>): CoreEvent => ({ ...base, ...patch }) as CoreEvent;

describe('ValidateEventCreate', () => {
  it.each<[string, CoreEvent, 'v1' | 'events.k8s.io/v1', string[]]>([
    ['a v1 event through events.k8s.io', v1, 'events.k8s.io/v1', []],
    ['a legacy event through core/v1', legacy, 'v1', []],
    ['a cluster-scoped object\'s legacy event in "default"', legacy, 'v1', []],
    ['a legacy event in another namespace than its object', with_(legacy, { involvedObject: { kind: 'Pod', namespace: 'a', name: 'p' } }), 'v1',
      ['involvedObject.namespace: Invalid value: "a": does not match event.namespace']],
    ['a cluster-scoped object\'s legacy event outside default', with_(legacy, { metadata: { name: 'n', namespace: 'team' } }), 'v1',
      ['involvedObject.namespace: Invalid value: "": does not match event.namespace']],
    ['the legacy rules do not ask core/v1 writers for eventTime or action', with_(legacy, { type: 'Custom' }), 'v1', []],
    ['events.k8s.io requires eventTime (and so the strict rules)', with_(legacy, {}), 'events.k8s.io/v1', [
      'eventTime: Required value',
      'firstTimestamp: Invalid value: "": needs to be unset',
      'lastTimestamp: Invalid value: "": needs to be unset',
      'count: Invalid value: "": needs to be unset',
      'source: Invalid value: "": needs to be unset',
    ]],
    ['an unknown type', with_(v1, { type: 'Custom' }), 'events.k8s.io/v1', ['type: Invalid value: "": has invalid value: Custom']],
    ['no reporting controller, instance or action', with_(v1, { reportingComponent: '', reportingInstance: '', action: undefined }), 'events.k8s.io/v1', [
      'reportingController: Required value',
      'reportingController: Invalid value: "": name part must be non-empty',
      'reportingController: Invalid value: "": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
      'reportingInstance: Required value',
      'action: Required value',
    ]],
    ['too long instance, action, reason and note', with_(v1, {
      reportingInstance: 'i'.repeat(129), action: 'a'.repeat(129), reason: 'r'.repeat(129), message: 'n'.repeat(1025),
    }), 'events.k8s.io/v1', [
      'reportingInstance: Invalid value: "": can have at most 128 characters',
      'action: Invalid value: "": can have at most 128 characters',
      'reason: Invalid value: "": can have at most 128 characters',
      'message: Invalid value: "": can have at most 1024 characters',
    ]],
    ['limits are inclusive', with_(v1, { reportingInstance: 'i'.repeat(128), action: 'a'.repeat(128), reason: 'r'.repeat(128), message: 'n'.repeat(1024) }),
      'events.k8s.io/v1', []],
    ['a new event about a cluster-scoped object may sit in kube-system', with_(v1, {
      metadata: { name: 'n', namespace: 'kube-system' }, involvedObject: { kind: 'Node', name: 'worker-1' },
    }), 'events.k8s.io/v1', []],
    ['but not in another namespace', with_(v1, { metadata: { name: 'n', namespace: 'team' }, involvedObject: { kind: 'Node', name: 'worker-1' } }),
      'events.k8s.io/v1', ['involvedObject.namespace: Invalid value: "": does not match event.namespace']],
    ['a series starts at 2 and has a time', with_(v1, { series: { count: 1, lastObservedTime: '' } }), 'events.k8s.io/v1', [
      'series.count: Invalid value: "": should be at least 2',
      'series.lastObservedTime: Required value',
    ]],
    ['a series of 2', with_(v1, { series: { count: 2, lastObservedTime: '2026-01-01T00:01:00.000000Z' } }), 'events.k8s.io/v1', []],
  ])('%s', (_name, event, version, want) => {
    expect(errors(validateEventCreate(event, version))).toStrictEqual(want);
  });
});

describe('ValidateEventUpdate', () => {
  const series = { count: 3, lastObservedTime: '2026-01-01T00:31:00.000000Z' };
  it.each<[string, CoreEvent, CoreEvent, 'v1' | 'events.k8s.io/v1', string[]]>([
    ['a series patch through events.k8s.io', v1, with_(v1, { series }), 'events.k8s.io/v1', []],
    ['an empty series is a series (a pointer in Go)', v1, with_(v1, { series: {} }), 'events.k8s.io/v1',
      ['series.count: Invalid value: "": should be at least 2', 'series.lastObservedTime: Required value']],
    ['a related object may not be added', v1, with_(v1, { related: {} }), 'events.k8s.io/v1',
      // upstream prints the Go struct (&core.ObjectReference{...}); ours prints the JSON value as a Go map
      ['related: Invalid value: map[string]string{}: field is immutable']],
    ['a bad series patch', v1, with_(v1, { series: { count: 1, lastObservedTime: '2026-01-01T00:31:00.000000Z' } }), 'events.k8s.io/v1',
      ['series.count: Invalid value: "": should be at least 2']],
    ['the identifying fields are immutable through events.k8s.io', v1,
      with_(v1, { message: 'other', action: 'Other', reportingComponent: 'other', eventTime: '2026-01-01T00:09:00.000000Z' }), 'events.k8s.io/v1', [
        'message: Invalid value: "other": field is immutable',
        'eventTime: Invalid value: "2026-01-01T00:09:00.000000Z": field is immutable',
        'action: Invalid value: "Other": field is immutable',
        'reportingController: Invalid value: "other": field is immutable',
      ]],
    ['core/v1 updates keep the old freedom (count and lastTimestamp move)', legacy,
      with_(legacy, { count: 2, lastTimestamp: '2026-01-01T00:00:09Z', message: 'again' }), 'v1', []],
  ])('%s', (_name, old, next, version, want) => {
    expect(errors(validateEventUpdate(next, old, version))).toStrictEqual(want);
  });

  it.each([
    [undefined, ''], [null, 0], [{}, undefined], [{ a: '' }, {}], [{ a: { b: 0 } }, null], [[], undefined],
  ])('Go zero values compare equal: %j ~ %j', (a, b) => {
    expect(semanticEqual(a, b)).toBe(true);
  });
  it.each([
    ['a', ''], [{ a: 'x' }, { a: 'y' }], [1, 2], [{ name: 'p' }, {}],
  ])('and set values do not: %j vs %j', (a, b) => {
    expect(semanticEqual(a, b)).toBe(false);
  });
});
