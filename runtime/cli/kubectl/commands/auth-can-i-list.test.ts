// kubectl auth can-i --list's table (cani.go printStatus), with rbac validation's BreakdownRule and
// CompactRules cases.
import { describe, expect, it } from 'vitest';
import { accessTable, breakdownRule, combineResourceGroup, compactRules } from './auth-can-i-list.ts';

describe('breakdownRule / compactRules', () => {
  it('breaks a rule into one per group, resource and verb, and URLs per verb', () => {
    expect(breakdownRule({ verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['pods'] })).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
      { apiGroups: ['apps'], resources: ['pods'], verbs: ['get'] }, { apiGroups: ['apps'], resources: ['pods'], verbs: ['list'] },
    ]);
    expect(breakdownRule({ verbs: ['get'], nonResourceURLs: ['/a', '/b'] })).toEqual([{ nonResourceURLs: ['/a'], verbs: ['get'] }, { nonResourceURLs: ['/b'], verbs: ['get'] }]);
    expect(breakdownRule({ verbs: ['get'], apiGroups: [''], resources: ['cm'], resourceNames: ['x', 'y'] })).toHaveLength(2);
  });

  it('merges rules on one group/resource (and name) that differ by verb, keeping repeats; others go first', () => {
    expect(compactRules([
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
      { nonResourceURLs: ['/x'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], resourceNames: ['a'], verbs: ['get'] },
    ])).toEqual([
      { nonResourceURLs: ['/x'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'get'] },
      { apiGroups: [''], resources: ['pods'], resourceNames: ['a'], verbs: ['get'] },
    ]);
  });

  it.each([
    [['pods'], [''], 'pods'],
    [['deployments'], ['apps'], 'deployments.apps'],
    [['deployments/scale'], ['apps'], 'deployments.apps/scale'],
    [[], [''], ''],
    [['*'], ['*'], '*.*'],
  ])('combineResourceGroup(%j, %j) = %s', (resources, groups, want) => {
    expect(combineResourceGroup(resources, groups)).toBe(want);
  });
});

describe('accessTable', () => {
  it('sorts by the rules\' String() (verbs first), aligned by the get tabwriter', () => {
    const out = accessTable({
      resourceRules: [{ verbs: ['list', 'watch'], apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'] }, { verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/api'] }],
    });
    expect(out).toBe([
      'Resources                         Non-Resource URLs   Resource Names   Verbs',
      // %v of []string{""} is "[]" too, so the core group's rules sort by resource after the URLs'
      '                                  [/api]              []               [get]',
      '                                  [/healthz]          []               [get]',
      'pods                              []                  []               [get]',
      'endpointslices.discovery.k8s.io   []                  []               [list watch]',
      '',
    ].join('\n'));
  });
});
