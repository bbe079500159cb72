import { describe, expect, it } from 'vitest';
import type { Taint, Toleration } from './types/index.ts';
import { toleratesTaint } from './toleration.ts';

// cases from staging/src/k8s.io/api/core/v1/toleration_test.go TestTolerationToleratesTaint
const taint: Taint = { key: 'foo', value: 'bar', effect: 'NoSchedule' };
const cases: [string, Toleration, boolean][] = [
  ['empty toleration: Equal with empty value does not match a valued taint', {}, false],
  [
    'same key, value and effect',
    { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' },
    true,
  ],
  [
    'empty operator means Equal',
    { key: 'foo', value: 'bar', effect: 'NoSchedule' } as Toleration,
    true,
  ],
  ['different effect', { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoExecute' }, false],
  ['empty effect matches every effect', { key: 'foo', operator: 'Equal', value: 'bar' }, true],
  ['different key', { key: 'baz', operator: 'Exists', effect: 'NoSchedule' }, false],
  [
    'Exists with the same key ignores the value',
    { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
    true,
  ],
  ['Exists with an empty key matches every taint', { operator: 'Exists' }, true],
  [
    'Equal with a different value',
    { key: 'foo', operator: 'Equal', value: 'qux', effect: 'NoSchedule' },
    false,
  ],
  [
    'an unknown operator tolerates nothing',
    { key: 'foo', operator: 'Lt' as Toleration['operator'], value: 'bar' },
    false,
  ],
];

describe('toleratesTaint', () => {
  it.each(cases)('%s', (_name, toleration, expected) => {
    expect(toleratesTaint(toleration, taint)).toBe(expected);
  });
});
