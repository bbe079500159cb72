// LimitRange validation with upstream's texts and paths (pkg/apis/core/validation/validation_test.go
// TestValidateLimitRange covers the same cases).
import { describe, expect, it } from 'vitest';
import { errorString } from '../field/errors.ts';
import { validateLimitRange } from './limit-range.ts';

const texts = (limits: unknown[]): string[] =>
  validateLimitRange({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr', namespace: 'default' }, spec: { limits } }).map(errorString);

describe('validateLimitRange', () => {
  it.each<[string, unknown[]]>([
    ['a full Container item', [{ type: 'Container', min: { cpu: '100m' }, defaultRequest: { cpu: '200m' }, default: { cpu: '500m' }, max: { cpu: '1' }, maxLimitRequestRatio: { cpu: '10' } }]],
    ['Pod and Container items', [{ type: 'Pod', max: { memory: '1Gi' } }, { type: 'Container', default: { memory: '256Mi' } }]],
    ['a PersistentVolumeClaim item with storage', [{ type: 'PersistentVolumeClaim', max: { storage: '10Gi' } }]],
    ['a fully qualified type', [{ type: 'example.com/thing', max: { 'example.com/widgets': '2' } }]],
  ])('accepts %s', (_name, limits) => {
    expect(texts(limits)).toEqual([]);
  });

  it.each<[string, unknown[], string[]]>([
    ['an unknown type', [{ type: 'Deployment' }], ['spec.limits[0].type: Invalid value: "Deployment": must be a standard limit type or fully qualified']],
    ['a repeated type', [{ type: 'Container' }, { type: 'Container' }], ['spec.limits[1].type: Duplicate value: "Container"']],
    ['a non-container resource on a Container item', [{ type: 'Container', max: { pods: '1' } }],
      ['spec.limits[0].max[pods]: Invalid value: "pods": must be a standard resource for containers']],
    ['defaults on a Pod item', [{ type: 'Pod', default: { cpu: '1' }, defaultRequest: { cpu: '1' } }], [
      'spec.limits[0].default: Forbidden: may not be specified when `type` is \'Pod\'',
      'spec.limits[0].defaultRequest: Forbidden: may not be specified when `type` is \'Pod\'',
    ]],
    ['min above max', [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }],
      ['spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1']],
    ['default above max', [{ type: 'Container', default: { memory: '2Gi' }, max: { memory: '1Gi' } }],
      ['spec.limits[0].default[memory]: Invalid value: "1Gi": default value 2Gi is greater than max value 1Gi']],
    ['min above default', [{ type: 'Container', default: { cpu: '100m' }, min: { cpu: '200m' } }],
      ['spec.limits[0].default[cpu]: Invalid value: "200m": min value 200m is greater than default value 100m']],
    ['defaultRequest above default', [{ type: 'Container', default: { cpu: '100m' }, defaultRequest: { cpu: '200m' } }],
      ['spec.limits[0].defaultRequest[cpu]: Invalid value: "200m": default request value 200m is greater than default limit value 100m']],
    ['defaultRequest below min and above max', [{ type: 'Container', min: { cpu: '3' }, max: { cpu: '4' }, defaultRequest: { cpu: '5' } }], [
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "5": default request value 5 is greater than max value 4',
    ]],
    ['a ratio below 1', [{ type: 'Container', maxLimitRequestRatio: { cpu: '500m' } }],
      ['spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1']],
    ['a ratio above max/min', [{ type: 'Container', min: { cpu: '1' }, max: { cpu: '2' }, maxLimitRequestRatio: { cpu: '3' } }],
      ['spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000']],
    ['a PersistentVolumeClaim item without storage bounds', [{ type: 'PersistentVolumeClaim' }],
      ['spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided']],
    ['hugepages defaults that differ', [{ type: 'Container', default: { 'hugepages-2Mi': '4Mi' }, defaultRequest: { 'hugepages-2Mi': '2Mi' } }],
      ['spec.limits[0].defaultRequest[hugepages-2Mi]: Invalid value: "2Mi": default value 4Mi must equal to defaultRequest value 2Mi in hugepages-2Mi']],
  ])('refuses %s', (_name, limits, want) => {
    expect(texts(limits)).toEqual(want);
  });
});
