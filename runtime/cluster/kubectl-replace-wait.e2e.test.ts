// kubectl replace (replace.go: a whole-object PUT, --force deletes and creates) and
// kubectl wait --for=create (CreateWait: until the named object exists).
import { describe, expect, it } from 'vitest';
import { createCluster } from './cluster.ts';

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  color: blue\n';
const POD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n';

describe('kubectl replace', { timeout: 60_000 }, () => {
  it('replaces the whole object, refuses what an update may not change, and --force deletes and creates', async () => {
    const cluster = createCluster({ seed: 61, workers: [{}] });
    expect(await cluster.kubectl('replace -f -', { stdin: CM })).toEqual({ stdout: '', stderr: 'Error from server (NotFound): error when replacing "STDIN": configmaps "app" not found\n', exitCode: 1 });
    await cluster.kubectl('apply -f -', { stdin: CM });
    expect((await cluster.kubectl('replace -f -', { stdin: CM.replace('blue', 'red') })).stdout).toBe('configmap/app replaced\n');
    expect((await cluster.kubectl('get cm app -o jsonpath={.data.color}')).stdout).toBe('red');
    await cluster.kubectl('apply -f -', { stdin: POD });
    await cluster.advance(20_000);
    const withPort = POD.replace('image: nginx:1.27', 'image: nginx:1.27\n    ports:\n    - containerPort: 80');
    const refused = await cluster.kubectl('replace -f -', { stdin: withPort });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/^The Pod "web" is invalid: \n\* spec\.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds\n\* spec: Forbidden: pod updates may not change fields other than /);
    expect(refused.stderr).toContain('+ \t\t\tPorts:         []core.ContainerPort{{ContainerPort: 80, Protocol: "TCP"}},\n');
    const uid = (await cluster.kubectl('get pod web -o jsonpath={.metadata.uid}')).stdout;
    expect(await cluster.kubectl('replace --force -f -', { stdin: withPort })).toEqual({ stdout: 'pod "web" deleted\npod/web replaced\n', stderr: '', exitCode: 0 });
    expect((await cluster.kubectl('get pod web -o jsonpath={.metadata.uid}')).stdout).not.toBe(uid);
    expect((await cluster.kubectl('replace')).stderr).toBe('error: must specify --filename to replace\n');
  });
});

describe('kubectl wait --for=create', { timeout: 60_000 }, () => {
  it('returns once the object exists, at once if it does, and times out if it never comes', async () => {
    const cluster = createCluster({ seed: 62, workers: 0 });
    const admin = cluster.internals.restClient('test-admin');
    cluster.internals.kernel.setTimer(4_000, () => admin.request({ verb: 'create', group: '', resource: 'configmaps', namespace: 'default', body: { metadata: { name: 'late' } } }, () => undefined));
    const start = cluster.now();
    expect(await cluster.kubectl('wait --for=create configmap/late --timeout=20s')).toEqual({ stdout: 'configmap/late condition met\n', stderr: '', exitCode: 0 });
    expect(cluster.now() - start).toBeGreaterThanOrEqual(4_000);
    expect(cluster.now() - start).toBeLessThan(6_000);
    expect((await cluster.kubectl('wait --for=create configmaps late')).stdout).toBe('configmap/late condition met\n');
    expect(await cluster.kubectl('wait --for=create cm/never --timeout=2s')).toEqual({ stdout: '', stderr: 'error: timed out waiting for the condition on configmaps/never\n', exitCode: 1 });
  });
});
