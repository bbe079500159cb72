// A ResourceQuota scoped to a PriorityClass, end to end through cluster.kubectl(): it counts only
// the pods of that class, so the third `high` pod is refused with upstream's "exceeded quota"
// message while a `low` pod is still admitted; an invalid scopeSelector is refused at validation.
import { describe, expect, it } from 'vitest';
import { createCluster } from './index.ts';

const classes = ['high', 'low'].map((name, i) => `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: ${name}
value: ${1000 - i * 900}
`).join('---\n');

const quota = (values?: string[]): string => `apiVersion: v1
kind: ResourceQuota
metadata:
  name: high-pods
spec:
  hard:
    pods: "2"
  scopeSelector:
    matchExpressions:
    - scopeName: PriorityClass
      operator: In
${values ? `      values: [${values.join(', ')}]\n` : ''}`;

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
    expect(await cluster.kubectl('apply -f -', { stdin: quota() })).toEqual({
      stdout: '',
      stderr: 'The ResourceQuota "high-pods" is invalid: spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is \'In\' or \'NotIn\' for scope selector\n',
      exitCode: 1,
    });
    expect(await cluster.kubectl('apply -f -', { stdin: quota(['high']) })).toEqual({ stdout: 'resourcequota/high-pods created\n', stderr: '', exitCode: 0 });
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
    // the quota controller counts only the pods in scope: the low pod is not in status.used
    await cluster.advance(3_000);
    expect((await cluster.kubectl('get quota high-pods -o jsonpath={.status.used.pods}')).stdout).toBe('2');
  });
});
