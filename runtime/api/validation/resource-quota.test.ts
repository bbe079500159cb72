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
