// The API server validates every kind with runtime/api's rules (pkg/apis/<group>/validation): an
// invalid manifest of any kind is refused with Kubernetes' field paths, not just Pods and the apps.
import { describe, expect, it } from 'vitest';
import { createCluster } from './cluster.ts';

const CASES: [string, string, string][] = [
  ['a ConfigMap key', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  "bad key!": x\n',
    `The ConfigMap "c" is invalid: data[bad key!]: Invalid value: "bad key!": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')\n`],
  ['a Service port', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n  - port: 99999\n',
    'The Service "s" is invalid: \n* spec.ports[0].port: Invalid value: 99999: must be between 1 and 65535, inclusive\n* spec.ports[0].targetPort: Invalid value: 99999: must be between 1 and 65535, inclusive\n'],
  ['a Role rule', 'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: r\nrules:\n- verbs: []\n',
    'The Role "r" is invalid: \n* rules[0].verbs: Required value: verbs must contain at least one value\n* rules[0].apiGroups: Required value: resource rules must supply at least one api group\n* rules[0].resources: Required value: resource rules must supply at least one resource\n'],
  ['a RoleBinding subject', 'apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: rb\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: r\nsubjects:\n- kind: User\n',
    'The RoleBinding "rb" is invalid: subjects[0].name: Required value\n'],
  ['a Node taint', 'apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nspec:\n  taints:\n  - key: a\n    effect: Bogus\n',
    'The Node "n1" is invalid: spec.taints[0].effect: Unsupported value: "Bogus": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"\n'],
  ['a container port', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: nginx\n    ports:\n    - containerPort: 70000\n',
    'The Pod "p" is invalid: spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive\n'],
];

describe('server-side validation of every kind', { timeout: 60_000 }, () => {
  it.each(CASES)('refuses %s with its field path, and stores nothing', async (_what, manifest, error) => {
    const cluster = createCluster({ seed: 31, workers: 0 });
    const r = await cluster.kubectl('apply -f -', { stdin: manifest });
    expect(r).toEqual({ stdout: '', stderr: error, exitCode: 1 });
    const kind = /kind: (\w+)/.exec(manifest)![1]!.toLowerCase();
    const name = /name: (\S+)/.exec(manifest)![1]!;
    expect((await cluster.kubectl(`get ${kind} ${name}`)).exitCode).toBe(1);
  });
});
