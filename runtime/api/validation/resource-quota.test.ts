// ResourceQuota scopes and scopeSelector validation, with upstream's texts and paths
// (pkg/apis/core/validation/validation_test.go TestValidateResourceQuota covers the same cases).
import { describe, expect, it } from 'vitest';
import { errorString } from '../field/errors.ts';
import { validateResourceQuota } from './resource-quota.ts';

const quota = (spec: Record<string, unknown>): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'default' }, spec });
const texts = (spec: Record<string, unknown>): string[] => validateResourceQuota(quota(spec)).map(errorString);
const expr = (scopeName: string, operator: string, values?: string[]): Record<string, unknown> => ({ scopeSelector: { matchExpressions: [{ scopeName, operator, ...(values ? { values } : {}) }] } });

describe('validateResourceQuota', () => {
  it.each<[string, Record<string, unknown>]>([
    ['PriorityClass In', { hard: { pods: '2', cpu: '1' }, ...expr('PriorityClass', 'In', ['high']) }],
    ['PriorityClass NotIn', { hard: { pods: '2' }, ...expr('PriorityClass', 'NotIn', ['low']) }],
    ['PriorityClass Exists', { hard: { pods: '2' }, ...expr('PriorityClass', 'Exists') }],
    ['BestEffort Exists on pods', { hard: { pods: '2' }, ...expr('BestEffort', 'Exists') }],
    ['count/* resources are not scope-checked', { hard: { 'count/configmaps': '2' }, ...expr('PriorityClass', 'In', ['high']) }],
    ['spec.scopes', { hard: { pods: '2' }, scopes: ['NotTerminating'] }],
  ])('accepts %s', (_name, spec) => {
    expect(texts(spec)).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['In without values', { hard: { pods: '2' }, ...expr('PriorityClass', 'In') },
      ['spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is \'In\' or \'NotIn\' for scope selector']],
    ['Exists with values', { hard: { pods: '2' }, ...expr('PriorityClass', 'Exists', ['high']) },
      ['spec.scopeSelector.matchExpressions.values: Invalid value: []string{"high"}: must be no value when `operator` is \'Exist\' or \'DoesNotExist\' for scope selector']],
    ['an unknown operator', { hard: { pods: '2' }, ...expr('PriorityClass', 'Equals', ['high']) },
      ['spec.scopeSelector.matchExpressions.operator: Invalid value: "Equals": not a valid selector operator']],
    ['an unknown scope', { hard: { pods: '2' }, ...expr('Priority', 'Exists') },
      ['spec.scopeSelector.matchExpressions.scopeName: Invalid value: "Priority": unsupported scope']],
    ['BestEffort with In', { hard: { pods: '2' }, ...expr('BestEffort', 'In', ['x']) },
      ['spec.scopeSelector.matchExpressions.operator: Invalid value: "In": must be \'Exist\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity']],
    ['a scope on a resource it cannot count', { hard: { services: '2' }, ...expr('PriorityClass', 'In', ['high']) },
      // upstream prints the value as &core.ScopeSelector{...}; our field errors print the JSON value Go-style
      ['spec.scopeSelector.matchExpressions: Invalid value: map[string]interface {}{"matchExpressions":[]interface {}{map[string]interface {}{"operator":"In", "scopeName":"PriorityClass", "values":[]string{"high"}}}}: unsupported scope applied to resource']],
    ['conflicting scopes', { hard: { pods: '2' }, scopes: ['BestEffort', 'NotBestEffort'] },
      ['spec.scopes: Invalid value: []string{"BestEffort", "NotBestEffort"}: conflicting scopes']],
  ])('refuses %s', (_name, spec, want) => {
    expect(texts(spec)).toEqual(want);
  });
});

// spec.hard names and quantities: TestValidateResourceQuota's invalid cases (invalid-quota-resource,
// negative values, fractional object counts) with ValidateResourceQuotaResourceName's texts.
describe('validateResourceQuota spec.hard', () => {
  it.each<[string, Record<string, string>]>([
    ['standard compute and object counts', { pods: '10', 'requests.cpu': '1500m', 'limits.memory': '2Gi', cpu: '1', services: '3' }],
    ['count/<resource>.<group>', { 'count/deployments.apps': '2', 'count/configmaps': '4' }],
    ['hugepages', { 'requests.hugepages-2Mi': '1Gi' }],
    ['zero', { pods: '0' }],
  ])('accepts %s', (_name, hard) => {
    expect(texts({ hard })).toEqual([]);
  });

  it.each<[string, Record<string, string>, string[]]>([
    ['an unknown unqualified name', { foo: '1' }, [
      'spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified',
      'spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota',
    ]],
    ['storage (a standard resource, but not a quota one)', { storage: '1Gi' }, ['spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota']],
    ['a negative quantity', { 'requests.cpu': '-1' }, ['spec.hard[requests.cpu]: Invalid value: "-1": must be greater than or equal to 0']],
    ['a fractional pod count', { pods: '1500m' }, ['spec.hard[pods]: Invalid value: "1500m": must be an integer']],
    ['a fractional count/ quota', { 'count/secrets': '0.5' }, ['spec.hard[count/secrets]: Invalid value: "500m": must be an integer']],
    ['a malformed name (IsQualifiedName reports an empty name part twice)', { 'count/': '1' }, [
      'spec.hard[count/]: Invalid value: "count/": name part must be non-empty',
      'spec.hard[count/]: Invalid value: "count/": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
    ]],
    ['errors in name order', { 'zz': '1', pods: '-2' }, [
      'spec.hard[pods]: Invalid value: "-2": must be greater than or equal to 0',
      'spec.hard[zz]: Invalid value: "zz": must be a standard resource type or fully qualified',
      'spec.hard[zz]: Invalid value: "zz": must be a standard resource for quota',
    ]],
  ])('refuses %s', (_name, hard, want) => {
    expect(texts({ hard })).toEqual(want);
  });
});
