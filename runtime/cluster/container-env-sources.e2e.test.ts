// A container's environment from ConfigMaps, Secrets and the downward API, as the kubelet makes it
// when it creates the container (kubelet_pods.go makeEnvironmentVariables): a missing source keeps
// the container from being created (CreateContainerConfigError), and it starts once the source exists.
import { describe, expect, it } from 'vitest';
import { createCluster } from './cluster.ts';

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: app
  labels: {tier: web}
spec:
  containers:
  - name: app
    image: busybox:1.36
    command: [sleep, "3600"]
    envFrom:
    - configMapRef: {name: settings}
      prefix: CFG_
    - secretRef: {name: absent, optional: true}
    env:
    - name: DB_PASSWORD
      valueFrom: {secretKeyRef: {name: db, key: password}}
    - name: GREETING
      value: "hello $(CFG_color) $$(not) $(MISSING)"
    - name: MY_POD
      valueFrom: {fieldRef: {fieldPath: metadata.name}}
    - name: TIER
      valueFrom: {fieldRef: {fieldPath: "metadata.labels['tier']"}}
    - name: OPTIONAL
      valueFrom: {configMapKeyRef: {name: settings, key: nope, optional: true}}
`;

describe('environment variables from ConfigMaps, Secrets and the pod', { timeout: 60_000 }, () => {
  it('waits in CreateContainerConfigError for a missing Secret, then starts with every value resolved', async () => {
    const cluster = createCluster({ seed: 51, workers: [{}] });
    expect((await cluster.kubectl('create configmap settings --from-literal=color=blue --from-literal=size=10')).exitCode).toBe(0);
    expect((await cluster.kubectl('apply -f -', { stdin: POD })).exitCode).toBe(0);
    await cluster.advance(30_000);
    expect((await cluster.kubectl('get pod app')).stdout).toMatch(/^NAME +READY +STATUS +RESTARTS +AGE\napp +0\/1 +CreateContainerConfigError +0 +/);
    const events = (await cluster.kubectl('get events --field-selector involvedObject.name=app,reason=Failed -o jsonpath={.items[*].message}')).stdout;
    expect(events).toBe('Error: secret "db" not found');
    // the kubelet tries again after its back-off (10 to 15 s), not on every pod update
    const count = Number((await cluster.kubectl('get events --field-selector involvedObject.name=app,reason=Failed -o jsonpath={.items[0].count}')).stdout);
    expect(count).toBeGreaterThanOrEqual(2);
    expect(count).toBeLessThanOrEqual(3);

    expect((await cluster.kubectl('create secret generic db --from-literal=user=admin')).exitCode).toBe(0);
    await cluster.advance(20_000);
    expect((await cluster.kubectl('get pod app -o jsonpath={.status.containerStatuses[0].state.waiting.message}')).stdout).toBe("couldn't find key password in Secret default/db");

    expect((await cluster.kubectl('delete secret db')).exitCode).toBe(0);
    expect((await cluster.kubectl('create secret generic db --from-literal=password=s3cr3t')).exitCode).toBe(0);
    await cluster.advance(20_000);
    expect((await cluster.kubectl('get pod app -o jsonpath={.status.phase}')).stdout).toBe('Running');
    const env = (await cluster.kubectl('exec app -- env')).stdout.split('\n');
    expect(env).toEqual(expect.arrayContaining([
      'CFG_color=blue', 'CFG_size=10', 'DB_PASSWORD=s3cr3t', 'GREETING=hello blue $(not) $(MISSING)', 'MY_POD=app', 'TIER=web',
    ]));
    expect(env.some((l) => l.startsWith('OPTIONAL='))).toBe(false);
  });
});
