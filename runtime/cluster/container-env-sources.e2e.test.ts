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
    - name: MEM_LIMIT_MI
      valueFrom: {resourceFieldRef: {resource: limits.memory, divisor: 1Mi}}
    - name: CPU_LIMIT
      valueFrom: {resourceFieldRef: {resource: limits.cpu}}
    resources:
      limits: {memory: 64Mi}
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
      // resourceFieldRef: the limit in the divisor's units; no cpu limit reads as the node's allocatable cpu
      'MEM_LIMIT_MI=64', `CPU_LIMIT=${(await cluster.kubectl("get node -l '!node-role.kubernetes.io/control-plane' -o jsonpath={.items[0].status.allocatable.cpu}")).stdout}`,
    ]));
    expect(env.some((l) => l.startsWith('OPTIONAL='))).toBe(false);
  });
});

const VOLUME_POD = `apiVersion: v1
kind: Pod
metadata:
  name: vol
spec:
  containers:
  - name: app
    image: busybox:1.36
    command: [sleep, "3600"]
    volumeMounts:
    - {name: cfg, mountPath: /etc/app}
    - {name: creds, mountPath: /etc/creds, readOnly: true}
  volumes:
  - name: cfg
    configMap: {name: settings}
  - name: creds
    secret: {secretName: db, items: [{key: password, path: pw.txt}]}
`;

describe('configMap, secret and service account volumes', { timeout: 60_000 }, () => {
  it('waits in ContainerCreating with FailedMount events for a missing ConfigMap, then mounts every file', async () => {
    const cluster = createCluster({ seed: 52, workers: [{}] });
    expect((await cluster.kubectl('create secret generic db --from-literal=password=s3cr3t')).exitCode).toBe(0);
    expect((await cluster.kubectl('apply -f -', { stdin: VOLUME_POD })).exitCode).toBe(0);
    await cluster.advance(150_000);
    expect((await cluster.kubectl('get pod vol')).stdout).toMatch(/^NAME +READY +STATUS +RESTARTS +AGE\nvol +0\/1 +ContainerCreating +0 +/);
    const failed = JSON.parse((await cluster.kubectl('get events --field-selector involvedObject.name=vol,reason=FailedMount -o json')).stdout) as { items: { message: string; count: number }[] };
    expect(failed.items.map((e) => e.message)).toEqual([
      'MountVolume.SetUp failed for volume "cfg" : configmap "settings" not found',
      'Unable to attach or mount volumes: unmounted volumes=[cfg], unattached volumes=[], failed to process volumes=[]: timed out waiting for the condition',
    ]);
    // nestedpendingoperations' back-off: 0.5, 1, 2, 4 ... 64 s, then 2m2s, within 150 s
    expect(failed.items[0]!.count).toBe(9);
    expect((await cluster.kubectl('get pod vol -o jsonpath={.status.podIP}')).stdout).toBe(''); // no sandbox yet

    expect((await cluster.kubectl('create configmap settings --from-literal=color=blue')).exitCode).toBe(0);
    await cluster.advance(130_000);
    expect((await cluster.kubectl('get pod vol -o jsonpath={.status.phase}')).stdout).toBe('Running');
    expect((await cluster.kubectl('exec vol -- cat /etc/app/color /etc/creds/pw.txt')).stdout).toBe('blues3cr3t');
    expect((await cluster.kubectl('exec vol -- cat /etc/creds/password')).stderr).toContain("cat: can't open '/etc/creds/password': No such file or directory");
    // the kube-api-access volume every pod gets: namespace, the cluster CA, a bound token
    expect((await cluster.kubectl('exec vol -- cat /var/run/secrets/kubernetes.io/serviceaccount/namespace')).stdout).toBe('default');
    const ca = (await cluster.kubectl("get cm kube-root-ca.crt -o jsonpath='{.data.ca\\.crt}'")).stdout;
    expect((await cluster.kubectl('exec vol -- cat /var/run/secrets/kubernetes.io/serviceaccount/ca.crt')).stdout).toBe(ca);
    const token = (await cluster.kubectl('exec vol -- cat /var/run/secrets/kubernetes.io/serviceaccount/token')).stdout;
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: 'system:serviceaccount:default:default', iss: 'https://kubernetes.default.svc.cluster.local', 'kubernetes.io': { namespace: 'default', pod: { name: 'vol' } } });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3607);
    // the API server issued it (TokenRequest bound to the pod): it authenticates as the pod's account
    expect((await cluster.kubectl(`auth whoami --token=${token} -o jsonpath={.status.userInfo.username}`)).stdout).toBe('system:serviceaccount:default:default');
    expect((await cluster.kubectl(`get secrets --token=${token}`)).stderr).toBe('Error from server (Forbidden): secrets is forbidden: User "system:serviceaccount:default:default" cannot list resource "secrets" in API group "" in the namespace "default"\n');
  });
});

const LIVE_POD = `apiVersion: v1
kind: Pod
metadata:
  name: live
spec:
  containers:
  - name: app
    image: busybox:1.36
    command: [sleep, "3600"]
    env:
    - name: COLOR
      valueFrom: {configMapKeyRef: {name: settings, key: color}}
    volumeMounts:
    - {name: cfg, mountPath: /etc/app}
    - {name: cfg, mountPath: /etc/pinned/color, subPath: color}
  volumes:
  - name: cfg
    configMap: {name: settings}
`;

describe('a changed ConfigMap reaches mounted files, not the environment or subPath mounts', { timeout: 60_000 }, () => {
  it('the next pod sync (within 90 s) rewrites the volume; a deleted ConfigMap leaves the files and says FailedMount', async () => {
    const cluster = createCluster({ seed: 53, workers: [{}] });
    expect((await cluster.kubectl('create configmap settings --from-literal=color=blue --from-literal=size=10')).exitCode).toBe(0);
    expect((await cluster.kubectl('apply -f -', { stdin: LIVE_POD })).exitCode).toBe(0);
    await cluster.advance(20_000);
    const files = async (): Promise<string> => (await cluster.kubectl('exec live -- sh -c "cat /etc/app/color; echo; cat /etc/pinned/color; echo; printenv COLOR; ls /etc/app"')).stdout;
    expect(await files()).toBe('blue\nblue\nblue\ncolor\nsize\n');

    const update = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {color: green, shape: round}\n`;
    expect((await cluster.kubectl('replace -f -', { stdin: update })).exitCode).toBe(0);
    await cluster.advance(5_000);
    expect(await files()).toBe('blue\nblue\nblue\ncolor\nsize\n'); // not yet: the pod has not been synced since
    await cluster.advance(90_000);
    // the volume shows the new data (size gone, shape new); the subPath file and the variable do not change
    expect(await files()).toBe('green\nblue\nblue\ncolor\nshape\n');

    expect((await cluster.kubectl('delete configmap settings')).exitCode).toBe(0);
    await cluster.advance(95_000);
    expect(await files()).toBe('green\nblue\nblue\ncolor\nshape\n');
    const failed = (await cluster.kubectl('get events --field-selector involvedObject.name=live,reason=FailedMount -o jsonpath={.items[*].message}')).stdout;
    expect(failed).toBe('MountVolume.SetUp failed for volume "cfg" : configmap "settings" not found');
  });
});
