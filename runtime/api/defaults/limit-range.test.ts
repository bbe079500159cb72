// SetDefaults_LimitRangeItem (pkg/apis/core/v1/defaults.go) and canonical quantities in a stored LimitRange.
import { describe, expect, it } from 'vitest';
import type { LimitRange, LimitRangeItem } from '../types/quota.ts';
import { defaultObject } from './defaults.ts';

const lr = (...limits: LimitRangeItem[]): LimitRange => ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l', namespace: 'default' }, spec: { limits } });
const items = (...limits: LimitRangeItem[]) => defaultObject(lr(...limits)).spec!.limits;

describe('LimitRange defaulting', () => {
  it('defaults a Container default limit to max, and a default request to the default limit', () => {
    expect(items({ type: 'Container', max: { cpu: '2', memory: '1Gi' } })).toEqual([
      { type: 'Container', max: { cpu: '2', memory: '1Gi' }, default: { cpu: '2', memory: '1Gi' }, defaultRequest: { cpu: '2', memory: '1Gi' } },
    ]);
  });

  it('keeps what is set, and falls back to min for a default request with no default limit', () => {
    expect(items({ type: 'Container', min: { cpu: '100m', memory: '64Mi' }, default: { memory: '256Mi' }, defaultRequest: { cpu: '200m' } })).toEqual([
      { type: 'Container', min: { cpu: '100m', memory: '64Mi' }, default: { memory: '256Mi' }, defaultRequest: { cpu: '200m', memory: '256Mi' } },
    ]);
  });

  it('leaves Pod and PersistentVolumeClaim items without defaults, and makes no empty maps', () => {
    expect(items({ type: 'Pod', max: { cpu: '4' } }, { type: 'PersistentVolumeClaim', min: { storage: '1Gi' } }, { type: 'Container' })).toEqual([
      { type: 'Pod', max: { cpu: '4' } },
      { type: 'PersistentVolumeClaim', min: { storage: '1Gi' } },
      { type: 'Container' },
    ]);
  });

  it('stores quantities as String() prints them', () => {
    expect(items({ type: 'Container', max: { cpu: '1.5', memory: '1024Mi' }, maxLimitRequestRatio: { cpu: '2' } })).toEqual([
      { type: 'Container', max: { cpu: '1500m', memory: '1Gi' }, maxLimitRequestRatio: { cpu: '2' }, default: { cpu: '1500m', memory: '1Gi' }, defaultRequest: { cpu: '1500m', memory: '1Gi' } },
    ]);
  });
});
