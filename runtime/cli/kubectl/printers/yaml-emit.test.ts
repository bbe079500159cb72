// go-yaml v2 output as kubectl prints -o yaml: sorting, quoting, block styles, folding.
import { describe, expect, it } from 'vitest';
import { goYamlKeyCompare, toYAML } from './yaml-emit.ts';

describe('toYAML', () => {
  it('prints a pod as kubectl does', () => {
    const pod = {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: {
        name: 'web',
        labels: { app: 'web', 'app.kubernetes.io/name': 'web' },
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': '{"apiVersion":"v1"}\n',
        },
        creationTimestamp: '2026-01-01T00:00:00Z',
        resourceVersion: '42',
      },
      spec: {
        containers: [
          { name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }], args: [] },
        ],
        tolerations: [{ operator: 'Exists' }],
      },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null }],
      },
    };
    expect(toYAML(pod)).toBe(
      [
        'apiVersion: v1',
        'kind: Pod',
        'metadata:',
        '  annotations:',
        '    kubectl.kubernetes.io/last-applied-configuration: |',
        '      {"apiVersion":"v1"}',
        '  creationTimestamp: "2026-01-01T00:00:00Z"',
        '  labels:',
        '    app: web',
        '    app.kubernetes.io/name: web',
        '  name: web',
        '  resourceVersion: "42"',
        'spec:',
        '  containers:',
        '  - args: []',
        '    image: nginx:1.27',
        '    name: nginx',
        '    ports:',
        '    - containerPort: 80',
        '  tolerations:',
        '  - operator: Exists',
        'status:',
        '  conditions:',
        '  - lastProbeTime: null',
        '    status: "True"',
        '    type: Ready',
        '  phase: Running',
        '',
      ].join('\n'),
    );
  });
  it.each([
    ['', '""'],
    ['true', '"true"'],
    ['yes', '"yes"'],
    ['On', '"On"'],
    ['null', '"null"'],
    ['~', '"~"'],
    ['1', '"1"'],
    ['0x1F', '"0x1F"'],
    ['1.5', '"1.5"'],
    ['1e3', '"1e3"'],
    ['12:30', '"12:30"'],
    ['2026-01-01', '"2026-01-01"'],
    ['*', "'*'"],
    ['- x', "'- x'"],
    ['a: b', "'a: b'"],
    ['a #b', "'a #b'"],
    [' lead', "' lead'"],
    ["it's", "it's"],
    ['{x}', "'{x}'"],
    ['100m', '100m'],
    ['nginx:1.27', 'nginx:1.27'],
    ['a,b', 'a,b'],
    ['10.0.0.1', '10.0.0.1'],
    ['line\nnext', '|-\n  line\n  next'],
  ])('string %j', (input, want) => expect(toYAML({ k: input })).toBe(`k: ${want}\n`));
  it('empty maps and lists, nested lists', () => {
    expect(toYAML({ a: {}, b: [], c: [[1, 2], []] })).toBe(
      'a: {}\nb: []\nc:\n- - 1\n  - 2\n- []\n',
    );
  });
  it('folds long plain text past column 80 like go-yaml', () => {
    const message =
      'Deployment does not have minimum availability because the pods are still being pulled from the registry.';
    expect(toYAML({ status: { message } })).toBe(
      'status:\n  message: Deployment does not have minimum availability because the pods are still\n    being pulled from the registry.\n',
    );
  });
  it('sorts keys like go-yaml: digit runs by value, non-letters before letters', () => {
    expect(['a10', 'a2', 'b', 'a-b', 'ab', 'A'].sort(goYamlKeyCompare)).toEqual([
      'A',
      'a-b',
      'a2',
      'a10',
      'ab',
      'b',
    ]);
  });
});
