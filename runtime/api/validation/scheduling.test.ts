// PriorityClass validation, after pkg/apis/scheduling/validation/validation_test.go
// (TestValidatePriorityClass, TestValidatePriorityClassUpdate) with the exact texts kubectl prints.
import { describe, expect, it } from 'vitest';
import { defaultObject } from '../defaults/defaults.ts';
import { errorString } from '../field/errors.ts';
import { newInvalid } from '../status.ts';
import { systemPriorityClasses } from '../scheduling.ts';
import type { PriorityClass } from '../types/scheduling.ts';
import { validateObject } from './validate.ts';
import { validatePriorityClassUpdate } from './scheduling.ts';

const pc = (name: string, value: unknown, extra: Record<string, unknown> = {}): PriorityClass =>
  ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra }) as PriorityClass;
const messages = (obj: PriorityClass): string[] => validateObject(defaultObject(obj)).map(errorString);
const [nodeCritical, clusterCritical] = systemPriorityClasses();

describe('PriorityClass create', () => {
  it.each([
    ['no description', pc('tier1', 100)],
    ['with description', pc('tier1', 200, { globalDefault: false, description: 'Used for the highest priority pods.' })],
    ['the highest user value', pc('tier1', 1_000_000_000)],
    ['a negative value', pc('batch', -10)],
    ['no value (zero)', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'zero' } } as PriorityClass],
    ['system node critical', nodeCritical!],
    ['system cluster critical', clusterCritical!],
    ['a system class with another description', { ...nodeCritical!, description: 'system priority class 0' }],
    ['preemptionPolicy Never', pc('batch', 10, { preemptionPolicy: 'Never' })],
  ])('accepts %s', (_name, obj) => {
    expect(messages(obj)).toEqual([]);
  });

  it.each([
    ['with namespace', pc('tier1', 100, { metadata: { name: 'tier1', namespace: 'foo' } }), ['metadata.namespace: Forbidden: not allowed on this type']],
    [
      'a system class with the wrong value',
      pc('system-node-critical', 0),
      ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000"],
    ],
    [
      'a system class marked globalDefault',
      pc('system-cluster-critical', 2_000_000_000, { globalDefault: true }),
      ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false"],
    ],
    [
      'an unknown name with the system prefix',
      pc('system-something', 2_000_001_000),
      ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-something is not a known system priority class"],
    ],
    ['a user value above the ceiling', pc('tier1', 1_000_000_001), ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000']],
    ['a user class with a system value', pc('tier1', 2_000_001_000), ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000']],
    [
      'an unknown preemptionPolicy',
      pc('tier1', 10, { preemptionPolicy: 'Sometimes' }),
      ['preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"'],
    ],
    ['an empty preemptionPolicy', pc('tier1', 10, { preemptionPolicy: '' }), ['preemptionPolicy: Required value']],
    ['a value that is not an int32', pc('tier1', 3_000_000_000), ['value: Invalid value: 3000000000: expected a 32-bit integer']],
    ['a value that is a string', pc('tier1', '10'), ['value: Invalid value: "10": expected a 32-bit integer']],
  ])('refuses %s', (_name, obj, want) => {
    expect(messages(obj)).toEqual(want);
  });

  it('prints the Status message kubectl shows', () => {
    const errs = validateObject(defaultObject(pc('tier1', 2_000_000_000)));
    expect(newInvalid({ group: 'scheduling.k8s.io', kind: 'PriorityClass' }, 'tier1', errs).message).toBe(
      'PriorityClass.scheduling.k8s.io "tier1" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
    );
  });

  it('defaults preemptionPolicy to PreemptLowerPriority', () => {
    expect(defaultObject(pc('tier1', 1)).preemptionPolicy).toBe('PreemptLowerPriority');
    expect(defaultObject(pc('tier1', 1, { preemptionPolicy: 'Never' })).preemptionPolicy).toBe('Never');
  });
});

describe('PriorityClass update', () => {
  const old = defaultObject(pc('tier1', 100, { description: 'old' }));
  it.each([
    ['a new description', { ...old, description: 'new' }, []],
    ['globalDefault turned on', { ...old, globalDefault: true }, []],
    ['a new label', { ...old, metadata: { ...old.metadata, labels: { team: 'a' } } }, []],
    ['a new value', { ...old, value: 101 }, ['value: Forbidden: may not be changed in an update.']],
    ['a new preemptionPolicy', { ...old, preemptionPolicy: 'Never' }, ['preemptionPolicy: Invalid value: "Never": field is immutable']],
    [
      'both',
      { ...old, value: 5, preemptionPolicy: 'Never' },
      ['value: Forbidden: may not be changed in an update.', 'preemptionPolicy: Invalid value: "Never": field is immutable'],
    ],
  ])('%s', (_name, next, want) => {
    expect(validatePriorityClassUpdate(next, old).map(errorString)).toEqual(want);
  });
});
