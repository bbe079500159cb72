// Table tests of the quota and limit-range printers and describers against kubectl's output
// (pkg/printers/internalversion/printers.go printResourceQuota, pkg/describe describeQuota,
// describeLimitRange, DescribeResourceQuotas, DescribeLimitRanges).
import { describe, expect, it } from 'vitest';
import { rfc3339, type LimitRange, type ResourceQuota } from '../../../api/index.ts';
import { quotaUsageColumns, tableFor } from '../printers/kinds.ts';
import { describeNamespace } from './others.ts';
import { describeLimitRange, describeResourceQuota } from './quota.ts';

const quota = (status?: ResourceQuota['status'], scopes?: string[]): ResourceQuota => ({
  apiVersion: 'v1', kind: 'ResourceQuota',
  metadata: { name: 'compute', namespace: 'default', creationTimestamp: rfc3339(0) },
  spec: { hard: { pods: '10', 'requests.cpu': '2', 'limits.memory': '2Gi' }, ...(scopes ? { scopes } : {}) },
  ...(status ? { status } : {}),
});
const synced = quota({
  hard: { pods: '10', 'requests.cpu': '2', 'limits.memory': '2Gi' },
  used: { pods: '2', 'requests.cpu': '500m', 'limits.memory': '256Mi' },
});
const limits: LimitRange = {
  apiVersion: 'v1', kind: 'LimitRange',
  metadata: { name: 'defaults', namespace: 'default', creationTimestamp: rfc3339(0) },
  spec: { limits: [{ type: 'Container', default: { memory: '512Mi', cpu: '500m' }, defaultRequest: { cpu: '250m' }, max: { cpu: '1000m' } }, { type: 'Pod', max: { memory: '1Gi' } }] },
};

describe('kubectl get quota / limits', () => {
  it.each<[string, ResourceQuota, [string, string]]>([
    ['before the controller wrote status', quota(), ['', '']],
    ['requests and limits split by the limits. prefix, names sorted', synced, ['pods: 2/10, requests.cpu: 500m/2', 'limits.memory: 256Mi/2Gi']],
    ['a hard name not yet in used prints 0', quota({ hard: { 'count/configmaps': '4' } }), ['count/configmaps: 0/4', '']],
  ])('%s', (_name, q, want) => {
    expect(quotaUsageColumns(q)).toEqual(want);
  });

  it('prints NAME AGE REQUEST LIMIT for quotas and NAME CREATED AT for limit ranges', () => {
    const nowMs = 5 * 60_000;
    expect(tableFor('ResourceQuota').headers(false)).toEqual(['NAME', 'AGE', 'REQUEST', 'LIMIT']);
    expect(tableFor('ResourceQuota').row(synced, nowMs, false)).toEqual(['compute', '5m', 'pods: 2/10, requests.cpu: 500m/2', 'limits.memory: 256Mi/2Gi']);
    expect(tableFor('LimitRange').headers(false)).toEqual(['NAME', 'CREATED AT']);
    expect(tableFor('LimitRange').row(limits, nowMs, false)).toEqual(['defaults', rfc3339(0)]);
  });
});

describe('kubectl describe quota / limits / namespace', () => {
  it('describes a quota: Resource Used Hard from status, names sorted', () => {
    expect(describeResourceQuota(synced)).toBe([
      'Name:          compute',
      'Namespace:     default',
      'Resource       Used   Hard',
      '--------       ----   ----',
      'limits.memory  256Mi  2Gi',
      'pods           2      10',
      'requests.cpu   500m   2',
      '',
    ].join('\n'));
  });

  it('lists scopes with their help text', () => {
    const text = describeResourceQuota(quota({ hard: { pods: '10' }, used: { pods: '0' } }, ['NotTerminating', 'BestEffort']));
    expect(text).toContain('Scopes:     BestEffort, NotTerminating\n * Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.\n * Matches all pods that do not have an active deadline.');
  });

  it('describes a limit range: one row per type and resource, "-" where unset, quantities canonical', () => {
    expect(describeLimitRange(limits)).toBe([
      'Name:       defaults',
      'Namespace:  default',
      'Type        Resource  Min  Max  Default Request  Default Limit  Max Limit/Request Ratio',
      '----        --------  ---  ---  ---------------  -------------  -----------------------',
      'Container   cpu       -    1    250m             500m           -',
      'Container   memory    -    -    -                512Mi          -',
      'Pod         memory    -    1Gi  -                -              -',
      '',
    ].join('\n'));
  });

  it('lists a namespace\'s quotas and limit ranges', () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' }, status: { phase: 'Active' } } as const;
    const text = describeNamespace(ns, { events: [], quotas: [synced], limitRanges: [limits] });
    expect(text).toContain('\n\nResource Quotas\n  Name:          compute\n  Resource       Used   Hard\n  --------       ---    ---\n  limits.memory  256Mi  2Gi\n  pods           2      10\n  requests.cpu   500m   2\n\n');
    expect(text).toContain('\nResource Limits\n Type       Resource  Min  Max  Default Request  Default Limit  Max Limit/Request Ratio\n');
    expect(text.endsWith(' Pod        memory    -    1Gi  -                -              -\n')).toBe(true);
    expect(describeNamespace(ns, { events: [] })).toContain('\nNo resource quota.\n\nNo LimitRange resource.\n');
  });
});
