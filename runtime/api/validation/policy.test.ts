// PodDisruptionBudget validation, after pkg/apis/policy/validation/validation_test.go
// (TestValidateMinAvailablePodDisruptionBudgetSpec, TestValidateMinAvailablePodAndMaxUnavailableDisruptionBudgetSpec,
// TestValidatePodDisruptionBudgetSpec, TestValidateUnhealthyPodEvictionPolicyDisruptionBudgetSpec,
// TestValidatePodDisruptionBudgetStatus) with the texts kubectl prints.
import { describe, expect, it } from 'vitest';
import { errorString } from '../field/errors.ts';
import { validateObject } from './validate.ts';

const pdb = (spec: Record<string, unknown>, status?: Record<string, unknown>): unknown => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default' },
  spec,
  ...(status ? { status } : {}),
});
const messages = (obj: unknown): string[] => validateObject(obj).map(errorString);
const sel = { matchLabels: { app: 'web' } };

describe('PodDisruptionBudget spec', () => {
  it.each([
    ['integer minAvailable', { minAvailable: 2, selector: sel }],
    ['zero minAvailable', { minAvailable: 0, selector: sel }],
    ['percentage minAvailable', { minAvailable: '50%', selector: sel }],
    ['100% maxUnavailable', { maxUnavailable: '100%', selector: sel }],
    ['0% maxUnavailable', { maxUnavailable: '0%', selector: sel }],
    ['no selector (selects nothing)', { minAvailable: 1 }],
    ['an empty selector (selects the namespace)', { minAvailable: 1, selector: {} }],
    ['neither field', { selector: sel }],
    ['IfHealthyBudget', { minAvailable: 1, selector: sel, unhealthyPodEvictionPolicy: 'IfHealthyBudget' }],
    ['AlwaysAllow', { minAvailable: 1, selector: sel, unhealthyPodEvictionPolicy: 'AlwaysAllow' }],
    ['a matchExpressions selector', { maxUnavailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] } }],
  ])('accepts %s', (_name, spec) => {
    expect(messages(pdb(spec))).toEqual([]);
  });

  it.each([
    [
      'both fields set',
      { minAvailable: 1, maxUnavailable: 1, selector: sel },
      [
        'spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000a1c0a0), ' +
          'Selector:(*v1.LabelSelector)(0xc000a1c0c0), MaxUnavailable:(*intstr.IntOrString)(0xc000a1c0b0), ' +
          'UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set',
      ],
    ],
    ['negative minAvailable', { minAvailable: -1, selector: sel }, ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0']],
    ['negative maxUnavailable', { maxUnavailable: -3, selector: sel }, ['spec.maxUnavailable: Invalid value: -3: must be greater than or equal to 0']],
    ['minAvailable over 100%', { minAvailable: '101%', selector: sel }, ['spec.minAvailable: Invalid value: "101%": must not be greater than 100%']],
    ['maxUnavailable over 100%', { maxUnavailable: '150%', selector: sel }, ['spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%']],
    [
      'a string that is not a percentage',
      { minAvailable: 'half', selector: sel },
      [
        'spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: ' +
          "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      ],
    ],
    [
      'a negative percentage',
      { maxUnavailable: '-10%', selector: sel },
      [
        'spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"-10%"}: ' +
          "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      ],
    ],
    [
      'an unknown unhealthyPodEvictionPolicy',
      { minAvailable: 1, selector: sel, unhealthyPodEvictionPolicy: 'Invalid' },
      ['spec.unhealthyPodEvictionPolicy: Unsupported value: "Invalid": supported values: "AlwaysAllow", "IfHealthyBudget"'],
    ],
    [
      'a bad selector operator',
      { minAvailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'Near', values: ['x'] }] } },
      ['spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator'],
    ],
  ])('refuses %s', (_name, spec, expected) => {
    expect(messages(pdb(spec))).toEqual(expected);
  });
});

describe('PodDisruptionBudget status', () => {
  const ok = {
    disruptionsAllowed: 1,
    currentHealthy: 3,
    desiredHealthy: 2,
    expectedPods: 3,
    conditions: [{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }],
  };

  it('accepts a status the controller writes', () => {
    expect(messages(pdb({ minAvailable: 2, selector: sel }, ok))).toEqual([]);
  });

  it.each([
    ['disruptionsAllowed', { ...ok, disruptionsAllowed: -1 }, 'status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0'],
    ['currentHealthy', { ...ok, currentHealthy: -2 }, 'status.currentHealthy: Invalid value: -2: must be greater than or equal to 0'],
    ['desiredHealthy', { ...ok, desiredHealthy: -3 }, 'status.desiredHealthy: Invalid value: -3: must be greater than or equal to 0'],
    ['expectedPods', { ...ok, expectedPods: -4 }, 'status.expectedPods: Invalid value: -4: must be greater than or equal to 0'],
    [
      'a condition status',
      { ...ok, conditions: [{ ...ok.conditions[0], status: 'Maybe' }] },
      'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
    ],
  ])('refuses a negative or malformed %s', (_name, status, expected) => {
    expect(messages(pdb({ minAvailable: 2, selector: sel }, status))).toEqual([expected]);
  });
});
