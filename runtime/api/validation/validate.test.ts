// Per-kind validation messages, after pkg/apis/core/validation/validation_test.go and
// pkg/apis/apps/validation/validation_test.go; the full Status text is what kubectl prints.
import { describe, expect, it } from 'vitest';
import { defaultObject } from '../defaults/defaults.ts';
import { errorString } from '../field/errors.ts';
import { newInvalid } from '../status.ts';
import { validateObject } from './validate.ts';
import type { KubeObject } from '../types/meta.ts';

const messages = (obj: KubeObject): string[] => validateObject(defaultObject(obj)).map(errorString);
const pod = (spec: object, metadata: object = { name: 'web', namespace: 'default' }): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata, spec }) as KubeObject;
const deployment = (spec: object): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec,
  }) as KubeObject;
const template = (labels: object, containers: object[] = [{ name: 'web', image: 'nginx' }]) => ({
  metadata: { labels },
  spec: { containers },
});

describe('Pod', () => {
  it('accepts a minimal pod', () => {
    expect(messages(pod({ containers: [{ name: 'web', image: 'nginx' }] }))).toEqual([]);
  });
  it.each([
    ['no containers', pod({ containers: [] }), ['spec.containers: Required value']],
    [
      'no image',
      pod({ containers: [{ name: 'web' }] }),
      ['spec.containers[0].image: Required value'],
    ],
    [
      'bad container name',
      pod({ containers: [{ name: 'Web', image: 'nginx' }] }),
      [
        `spec.containers[0].name: Invalid value: "Web": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
    ],
    [
      'duplicate names',
      pod({
        containers: [
          { name: 'a', image: 'x' },
          { name: 'a', image: 'y' },
        ],
      }),
      ['spec.containers[1].name: Duplicate value: "a"'],
    ],
    [
      'requests above limits',
      pod({
        containers: [
          { name: 'a', image: 'x', resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } },
        ],
      }),
      [
        'spec.containers[0].resources.requests[cpu]: Invalid value: "2": must be less than or equal to cpu limit of 1',
      ],
    ],
    [
      'port out of range',
      pod({ containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 70000 }] }] }),
      [
        'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      ],
    ],
    [
      'restart policy',
      pod({ restartPolicy: 'Sometimes', containers: [{ name: 'a', image: 'x' }] }),
      [
        'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      ],
    ],
    [
      'no name',
      pod({ containers: [{ name: 'a', image: 'x' }] }, { namespace: 'default' }),
      ['metadata.name: Required value: name or generateName is required'],
    ],
    [
      'no namespace',
      pod({ containers: [{ name: 'a', image: 'x' }] }, { name: 'web' }),
      ['metadata.namespace: Required value'],
    ],
    [
      'bad label value',
      pod(
        { containers: [{ name: 'a', image: 'x' }] },
        { name: 'web', namespace: 'default', labels: { app: 'web!' } },
      ),
      [
        `metadata.labels: Invalid value: "web!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      ],
    ],
    [
      'bad quantity',
      pod({ containers: [{ name: 'a', image: 'x', resources: { requests: { memory: '1 Gi' } } }] }),
      [
        `spec.containers[0].resources.requests[memory]: Invalid value: "1 Gi": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
      ],
    ],
    // ValidateVolumes and ValidateVolumeMounts (names and paths): a pod whose mounts were not a
    // list was once stored, and its kubelet threw iterating them
    [
      'volume mounts that are not a list',
      pod({ containers: [{ name: 'a', image: 'x', volumeMounts: { name: 'v' } }] }),
      ['spec.containers[0].volumeMounts: Invalid value: map[string]string{"name":"v"}: expected an array'],
    ],
    [
      'a mount of no volume, without a path',
      pod({ volumes: [{ name: 'data', emptyDir: {} }], containers: [{ name: 'a', image: 'x', volumeMounts: [{ name: 'dat' }] }] }),
      ['spec.containers[0].volumeMounts[0].name: Not found: "dat"', 'spec.containers[0].volumeMounts[0].mountPath: Required value'],
    ],
    [
      'volumes without a name, twice the same name, two mounts on one path',
      pod({
        volumes: [{ emptyDir: {} }, { name: 'v', emptyDir: {} }, { name: 'v', emptyDir: {} }],
        containers: [{ name: 'a', image: 'x', volumeMounts: [{ name: 'v', mountPath: '/d' }, { name: 'v', mountPath: '/d' }] }],
      }),
      ['spec.volumes[0].name: Required value', 'spec.volumes[2].name: Duplicate value: "v"', 'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/d": must be unique'],
    ],
  ])('%s', (_name, obj, want) => {
    expect(messages(obj)).toEqual(want);
  });
  it('accepts generateName prefixes ending in a dash', () => {
    expect(
      messages(
        pod(
          { containers: [{ name: 'a', image: 'x' }] },
          { generateName: 'web-', namespace: 'default' },
        ),
      ),
    ).toEqual([]);
  });
  it('builds the Status kubectl shows', () => {
    const obj = pod(
      { containers: [{ name: 'web' }, { name: 'web', image: 'x' }] },
      { name: 'Web', namespace: 'default' },
    );
    const errs = validateObject(defaultObject(obj));
    expect(newInvalid({ group: '', kind: 'Pod' }, 'Web', errs).message).toBe(
      `Pod "Web" is invalid: [metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.containers[0].image: Required value, spec.containers[1].name: Duplicate value: "web"]`,
    );
  });
});

describe('Deployment', () => {
  it('accepts a matching selector', () => {
    expect(
      messages(
        deployment({
          selector: { matchLabels: { app: 'web' } },
          template: template({ app: 'web' }),
        }),
      ),
    ).toEqual([]);
  });
  it.each([
    [
      'selector does not match',
      { selector: { matchLabels: { app: 'web' } }, template: template({ app: 'api' }) },
      [
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"api"}: `selector` does not match template `labels`',
      ],
    ],
    ['no selector', { template: template({ app: 'web' }) }, ['spec.selector: Required value']],
    [
      'empty selector',
      { selector: {}, template: template({ app: 'web' }) },
      [
        'spec.selector: Invalid value: &v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
      ],
    ],
    [
      'negative replicas',
      {
        replicas: -1,
        selector: { matchLabels: { app: 'web' } },
        template: template({ app: 'web' }),
      },
      ['spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'both 0',
      {
        selector: { matchLabels: { app: 'web' } },
        template: template({ app: 'web' }),
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '0%' } },
      },
      [
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0',
      ],
    ],
    [
      'template restartPolicy',
      {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { restartPolicy: 'Never', containers: [{ name: 'a', image: 'x' }] },
        },
      },
      ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
    ],
    [
      'over 100%',
      {
        selector: { matchLabels: { app: 'web' } },
        template: template({ app: 'web' }),
        strategy: { rollingUpdate: { maxUnavailable: '150%' } },
      },
      [
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
      ],
    ],
  ])('%s', (_name, spec, want) => {
    expect(messages(deployment(spec))).toEqual(want);
  });
});

describe('other kinds', () => {
  it('Service names are DNS-1035 labels and ports are checked', () => {
    const svc = {
      kind: 'Service',
      metadata: { name: '1web', namespace: 'default' },
      spec: { ports: [{ port: 0 }] },
    } as KubeObject;
    expect(messages(svc)).toEqual([
      `metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
    ]);
  });
  it('Namespaces are cluster-scoped', () => {
    expect(messages({ kind: 'Namespace', metadata: { name: 'a', namespace: 'b' } })).toEqual([
      'metadata.namespace: Forbidden: not allowed on this type',
    ]);
  });
  it('RBAC rules and bindings', () => {
    expect(
      messages({
        kind: 'Role',
        metadata: { name: 'r', namespace: 'default' },
        rules: [{ verbs: [] }],
      } as KubeObject),
    ).toEqual([
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
    ]);
    expect(
      messages({
        kind: 'ClusterRoleBinding',
        metadata: { name: 'b' },
        roleRef: { kind: 'Role', name: 'r' },
        subjects: [{ kind: 'ServiceAccount', name: 'sa' }],
      } as KubeObject),
    ).toEqual([
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      'subjects[0].namespace: Required value',
    ]);
  });
  // []string fields: a rule's resources of another type were once stored, and describe threw on them
  it.each([
    [{ verbs: [5], apiGroups: [''], resources: ['pods'] }, ['rules[0].verbs[0]: Invalid value: 5: expected a string']],
    [{ verbs: ['get'], apiGroups: [null], resources: [{}], resourceNames: [true] }, ['rules[0].apiGroups[0]: Invalid value: null: expected a string', 'rules[0].resources[0]: Invalid value: map[string]string{}: expected a string', 'rules[0].resourceNames[0]: Invalid value: true: expected a string']],
  ])('a Role rule %j', (rule, want) => {
    expect(messages({ kind: 'Role', metadata: { name: 'r', namespace: 'default' }, rules: [rule] } as KubeObject)).toEqual(want);
  });
  it('container command and args are lists of strings', () => {
    expect(messages(pod({ containers: [{ name: 'a', image: 'x', command: ['sh', 1], args: [false] }] }))).toEqual([
      'spec.containers[0].command[1]: Invalid value: 1: expected a string',
      'spec.containers[0].args[0]: Invalid value: false: expected a string',
    ]);
  });
  it('ConfigMap keys', () => {
    expect(
      messages({
        kind: 'ConfigMap',
        metadata: { name: 'c', namespace: 'default' },
        data: { 'a b': '1' },
      } as KubeObject),
    ).toEqual([
      `data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ]);
  });
  it('rejects non-objects and unknown kinds as values', () => {
    expect(validateObject(42).map(errorString)).toEqual([
      '<nil>: Invalid value: 42: object must be a JSON object',
    ]);
    expect(validateObject({ kind: 'Widget' }).map(errorString)).toEqual([
      'kind: Invalid value: "Widget": no validation rules for this kind',
    ]);
  });
});
