// A ResourceQuota scoped to a PriorityClass, end to end through cluster.kubectl(): it counts only
// the pods of that class, so the third `high` pod is refused with upstream's "exceeded quota"
// message while a `low` pod is still admitted; an invalid scopeSelector is refused at validation.
// The quota itself is written through a REST client: kubectl cannot map kind ResourceQuota yet
// (runtime/api's kind registry does not list it; the API server serves it through an adapter).
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from './index.ts';

/** POSTs a ResourceQuota in default; the response's code and message. */
function createQuota(cluster: Cluster, body: unknown): { code: number; message: string } {
  let out: { code: number; message: string } | undefined;
  cluster.internals.restClient('quota-admin').request(
    { verb: 'create', group: '', resource: 'resourcequotas', namespace: 'default', body },
    (res) => { out = { code: res.code, message: (res.body as { message?: string }).message ?? '' }; },
  );
  expect(cluster.internals.driveUntil(() => out !== undefined, 30_000)).toBe(true);
  return out!;
}

const classes = ['high', 'low'].map((name, i) => `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: ${name}
value: ${1000 - i * 900}
`).join('---\n');

const quota = (values?: string[]): unknown => ({
  apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'high-pods', namespace: 'default' },
  spec: { hard: { pods: '2' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', ...(values ? { values } : {}) }] } },
});

const pod = (name: string, className: string): string => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  priorityClassName: ${className}
  containers:
  - name: app
    image: nginx:1.27
`;

describe('ResourceQuota scoped to a PriorityClass', { timeout: 60_000 }, () => {
  it('refuses the third high pod, admits a low one, and validates the scopeSelector', async () => {
    const cluster = createCluster({ seed: 5, topology: 'single-node' });
    expect((await cluster.kubectl('apply -f -', { stdin: classes })).exitCode).toBe(0);
    expect(createQuota(cluster, quota())).toEqual({
      code: 422,
      message: 'ResourceQuota "high-pods" is invalid: spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is \'In\' or \'NotIn\' for scope selector',
    });
    expect(createQuota(cluster, quota(['high'])).code).toBe(201);
    for (const name of ['high-1', 'high-2']) {
      expect((await cluster.kubectl('apply -f -', { stdin: pod(name, 'high') })).stdout).toBe(`pod/${name} created\n`);
    }
    const third = await cluster.kubectl('apply -f -', { stdin: pod('high-3', 'high') });
    expect(third).toEqual({
      stdout: '',
      stderr: 'Error from server (Forbidden): error when creating "STDIN": pods "high-3" is forbidden: exceeded quota: high-pods, requested: pods=1, used: pods=2, limited: pods=2\n',
      exitCode: 1,
    });
    expect(await cluster.kubectl('apply -f -', { stdin: pod('low-1', 'low') })).toEqual({ stdout: 'pod/low-1 created\n', stderr: '', exitCode: 0 });
  });
});
