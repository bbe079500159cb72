// ResourceQuota and LimitRange end to end through cluster.kubectl() only: both apply from YAML,
// the LimitRange fills in requests and limits, the quota controller writes status.used (shown by
// `get quota` and `describe quota`), a pod over the quota is refused with the admission plugin's
// upstream message, and deleting a pod gives its share back.
import { describe, expect, it } from 'vitest';
import { createCluster } from './index.ts';

const MANIFESTS = `apiVersion: v1
kind: LimitRange
metadata:
  name: defaults
spec:
  limits:
  - type: Container
    defaultRequest: { cpu: 250m, memory: 64Mi }
    default: { cpu: 500m, memory: 128Mi }
    max: { cpu: "1" }
---
apiVersion: v1
kind: ResourceQuota
metadata:
  name: compute
spec:
  hard:
    pods: "2"
    requests.cpu: "1"
    limits.memory: 1Gi
`;

const pod = (name: string): string => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  containers:
  - name: app
    image: nginx:1.27
`;

describe('ResourceQuota and LimitRange through kubectl', { timeout: 90_000 }, () => {
  it('applies, counts usage, refuses the pod over quota, and releases on delete', async () => {
    const cluster = createCluster({ seed: 7, topology: 'single-node' });
    const kubectl = async (cmd: string, stdin?: string) => cluster.kubectl(cmd, stdin === undefined ? {} : { stdin });
    expect(await kubectl('apply -f -', MANIFESTS)).toEqual({ stdout: 'limitrange/defaults created\nresourcequota/compute created\n', stderr: '', exitCode: 0 });
    await cluster.advance(3_000);
    expect((await kubectl('get quota')).stdout).toMatch(/^NAME\s+AGE\s+REQUEST\s+LIMIT\ncompute\s+\S+\s+pods: 0\/2, requests.cpu: 0\/1\s+limits.memory: 0\/1Gi\n$/);
    expect((await kubectl('get limits')).stdout).toMatch(/^NAME\s+CREATED AT\ndefaults\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);

    for (const name of ['a', 'b']) expect((await kubectl('apply -f -', pod(name))).stdout).toBe(`pod/${name} created\n`);
    expect((await kubectl('get pod a -o jsonpath={.spec.containers[0].resources}')).stdout).toBe('{"limits":{"cpu":"500m","memory":"128Mi"},"requests":{"cpu":"250m","memory":"64Mi"}}');
    await cluster.advance(3_000);
    expect((await kubectl('get quota compute')).stdout).toMatch(/pods: 2\/2, requests.cpu: 500m\/1\s+limits.memory: 256Mi\/1Gi\n$/);
    expect(await kubectl('apply -f -', pod('c'))).toEqual({
      stdout: '',
      stderr: 'Error from server (Forbidden): error when creating "STDIN": pods "c" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=2, limited: pods=2\n',
      exitCode: 1,
    });
    expect((await kubectl('describe quota compute')).stdout).toBe([
      'Name:          compute',
      'Namespace:     default',
      'Resource       Used   Hard',
      '--------       ----   ----',
      'limits.memory  256Mi  1Gi',
      'pods           2      2',
      'requests.cpu   500m   1',
      '',
    ].join('\n'));
    expect((await kubectl('describe limits defaults')).stdout).toContain('Container   cpu       -    1    250m             500m           -\nContainer   memory    -    -    64Mi             128Mi          -\n');

    expect((await kubectl('delete pod a --wait=false')).exitCode).toBe(0);
    await cluster.advance(40_000);
    expect((await kubectl('get quota compute')).stdout).toMatch(/pods: 1\/2, requests.cpu: 250m\/1\s+limits.memory: 128Mi\/1Gi\n$/);
    expect((await kubectl('apply -f -', pod('c'))).stdout).toBe('pod/c created\n');
  });

  it('refuses an invalid quota and limit range with upstream field errors', async () => {
    const cluster = createCluster({ seed: 8, topology: 'single-node' });
    const bad = `apiVersion: v1
kind: ResourceQuota
metadata:
  name: bad
spec:
  hard:
    pods: "-1"
---
apiVersion: v1
kind: LimitRange
metadata:
  name: bad
spec:
  limits:
  - type: Container
    min: { cpu: "2" }
    max: { cpu: "1" }
`;
    const out = await cluster.kubectl('apply -f -', { stdin: bad });
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toContain('The ResourceQuota "bad" is invalid: spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0');
    // SetDefaults_LimitRangeItem gave the item default and defaultRequest cpu 1 (from max) first
    expect(out.stderr).toContain(
      'The LimitRange "bad" is invalid: \n* spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1\n' +
        '* spec.limits[0].defaultRequest[cpu]: Invalid value: "1": min value 2 is greater than default request value 1\n' +
        '* spec.limits[0].default[cpu]: Invalid value: "2": min value 2 is greater than default value 1\n',
    );
  });
});
