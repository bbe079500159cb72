// Ported from staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors_test.go and path_test.go.
import { describe, expect, it } from 'vitest';
import {
  aggregateMessage,
  duplicate,
  errorBody,
  errorString,
  forbidden,
  invalid,
  notFound,
  notSupported,
  required,
  tooLong,
  tooMany,
} from './errors.ts';
import { Path } from './path.ts';

describe('field.Path', () => {
  it.each([
    [Path.of('spec', 'containers').at(0).child('image'), 'spec.containers[0].image'],
    [Path.of('metadata').child('labels').key('app'), 'metadata.labels[app]'],
    [Path.of('root'), 'root'],
    [Path.of('root').at(1).at(2).key('k').child('x'), 'root[1][2][k].x'],
  ])('%s', (p, want) => expect(p.toString()).toBe(want));
});

describe('field.Error messages', () => {
  const p = Path.of('spec', 'containers').at(0).child('image');
  it.each([
    [required(p), 'spec.containers[0].image: Required value'],
    [required(p, 'must be set'), 'spec.containers[0].image: Required value: must be set'],
    [
      invalid(Path.of('metadata', 'name'), 'Foo', 'bad'),
      'metadata.name: Invalid value: "Foo": bad',
    ],
    [
      invalid(Path.of('spec', 'replicas'), -1, 'must be greater than or equal to 0'),
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    ],
    [invalid(Path.of('x'), true, 'nope'), 'x: Invalid value: true: nope'],
    [invalid(Path.of('x'), null, 'nope'), 'x: Invalid value: null: nope'],
    [invalid(Path.of('x'), ['a', 'b'], 'nope'), 'x: Invalid value: []string{"a", "b"}: nope'],
    [
      notSupported(Path.of('spec', 'restartPolicy'), 'Sometimes', ['Always', 'OnFailure', 'Never']),
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    ],
    [
      duplicate(Path.of('spec', 'containers').at(1).child('name'), 'web'),
      'spec.containers[1].name: Duplicate value: "web"',
    ],
    [notFound(Path.of('x'), 'y'), 'x: Not found: "y"'],
    [forbidden(Path.of('spec'), 'updates are forbidden'), 'spec: Forbidden: updates are forbidden'],
    [
      tooLong(Path.of('metadata', 'name'), 63),
      'metadata.name: Too long: may not be more than 63 bytes',
    ],
    [tooMany(Path.of('items'), 5, 3), 'items: Too many: 5: must have at most 3 items'],
  ])('%#', (e, want) => expect(errorString(e)).toBe(want));
  it('has bodies without the field, for Status causes', () => {
    expect(errorBody(required(p))).toBe('Required value');
  });
  it('aggregates like ErrorList.ToAggregate().Error()', () => {
    expect(aggregateMessage([])).toBe('');
    expect(aggregateMessage([required(p)])).toBe('spec.containers[0].image: Required value');
    expect(aggregateMessage([required(p), required(Path.of('a')), required(p)])).toBe(
      '[spec.containers[0].image: Required value, a: Required value]',
    );
  });
});
