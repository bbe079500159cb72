// The cluster through its front door: real manifests from the Kubernetes docs go in with
// `kubectl apply`, come back in the API's shape, and errors read as kubectl prints them.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../index.ts';

const manifest = (file: string): string => readFileSync(new URL(`./testdata/${file}`, import.meta.url), 'utf8');
const MANIFESTS = [
  'namespace-dev.yaml', 'nginx-deployment.yaml', 'frontend-replicaset.yaml', 'my-service.yaml',
  'pod-resources.yaml', 'pod-with-toleration.yaml', 'pod-with-node-affinity.yaml',
];
const UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON printed by kubectl, probed field by field
type Json = Record<string, any>;

async function json(cluster: Cluster, args: string): Promise<Json> {
  const r = await cluster.kubectl(`${args} -o json`);
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout) as Json;
}

describe('kubectl against a single-node cluster', { timeout: 60_000 }, () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = createCluster({ seed: 7, topology: 'single-node' });
    const applied = await cluster.kubectl('apply -f -', { stdin: MANIFESTS.map(manifest).join('---\n') });
    expect(applied).toEqual({
      stdout: [
        'namespace/development created', 'deployment.apps/nginx-deployment created', 'replicaset.apps/frontend created',
        'service/my-service created', 'pod/frontend created', 'pod/nginx created', 'pod/with-node-affinity created', '',
      ].join('\n'),
      stderr: '',
      exitCode: 0,
    });
  });

  it('registers the control-plane node with its role, allocatable and a Ready condition', async () => {
    const node = await json(cluster, 'get node cp-1');
    expect(node.metadata.labels['node-role.kubernetes.io/control-plane']).toBe('');
    expect(node.spec.taints).toBeUndefined(); // single-node: the control plane also runs pods (minikube)
    expect(node.status.allocatable).toMatchObject({ cpu: '4', memory: '8Gi', pods: '110' });
    expect(node.status.conditions.find((c: { type: string }) => c.type === 'Ready').status).toBe('True');
    expect((await cluster.kubectl('get nodes')).stdout).toBe(
      // 3s: boot waits for the kube-proxy and kindnet DaemonSet pods (each with a 400 ms sandbox) after the node registers;
      // then 0.8 s more: the apply's 14 requests (a GET and a POST per object) go through kubectl's token bucket
      // (client-go's 5 QPS, burst 10), so the last 4 wait about 200 ms each
      'NAME   STATUS   ROLES           AGE   VERSION\ncp-1   Ready    control-plane   4s    v1.33.0\n',
    );
  });

  it('describe node lists the kubelet\'s, kube-proxy\'s and the node controller\'s events about the node', async () => {
    const own = createCluster({ seed: 8, topology: 'single-node' });
    await own.advance(10_000); // the node controller's first passes
    const out = (await own.kubectl('describe node cp-1')).stdout;
    const events = out.slice(out.indexOf('Events:')).split('\n').slice(3).filter((l) => l.trim() !== '');
    // NodeDescriber searches twice: the node controller refers to the node by its uid, the kubelet
    // and kube-proxy by its name; "From" is each event's source
    const rows = events.map((l) => l.trim().split(/\s{2,}/)).map(([type, reason, , from, message]) => [type, reason, from, message ?? '']);
    expect(rows).toEqual(expect.arrayContaining([
      ['Normal', 'Starting', 'kubelet', 'Starting kubelet.'],
      ['Normal', 'NodeAllocatableEnforced', 'kubelet', 'Updated Node Allocatable limit across pods'],
      ['Normal', 'NodeHasSufficientMemory', 'kubelet', 'Node cp-1 status is now: NodeHasSufficientMemory'],
      ['Normal', 'NodeHasNoDiskPressure', 'kubelet', 'Node cp-1 status is now: NodeHasNoDiskPressure'],
      ['Normal', 'NodeHasSufficientPID', 'kubelet', 'Node cp-1 status is now: NodeHasSufficientPID'],
      ['Normal', 'NodeReady', 'kubelet', 'Node cp-1 status is now: NodeReady'],
      ['Normal', 'Starting', 'kube-proxy', ''],
      ['Normal', 'RegisteredNode', 'node-controller', 'Node cp-1 event: Registered Node cp-1 in Controller'],
    ]));
    expect(rows).toHaveLength(8);
  });

  it('reads the Deployment back in the API shape, with server-side defaults', async () => {
    const d = await json(cluster, 'get deployment nginx-deployment');
    expect(d.apiVersion).toBe('apps/v1');
    expect(d.metadata.uid).toMatch(UID);
    expect(d.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(d.metadata.generation).toBe(1);
    expect(d.metadata.creationTimestamp).toMatch(RFC3339);
    expect(d.metadata.namespace).toBe('default');
    expect(d.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
    expect(d.spec.revisionHistoryLimit).toBe(10);
    expect(d.spec.progressDeadlineSeconds).toBe(600);
    const c = d.spec.template.spec.containers[0];
    expect(c).toMatchObject({ imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', ports: [{ containerPort: 80, protocol: 'TCP' }] });
    expect(d.spec.template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler' });
  });

  it('schedules the pods as they come (QoS, admission tolerations, the affinity as written); an unsatisfiable affinity stays Pending', async () => {
    const frontend = await json(cluster, 'get pod frontend');
    expect(frontend.spec.nodeName).toBe('cp-1');
    expect(frontend.status).toMatchObject({ phase: 'Pending', qosClass: 'Burstable', hostIP: '192.168.49.2' });
    expect(frontend.status.conditions.find((c: Json) => c.type === 'PodScheduled').status).toBe('True');
    expect(frontend.spec.containers[0].resources).toEqual({ requests: { memory: '64Mi', cpu: '250m' }, limits: { memory: '128Mi', cpu: '500m' } });
    const nginx = await json(cluster, 'get pod nginx');
    expect(nginx.spec.tolerations).toEqual([
      { key: 'example-key', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    const affinity = await json(cluster, 'get pod with-node-affinity');
    expect(affinity.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values)
      .toEqual(['antarctica-east1', 'antarctica-west1']);
    expect(affinity.spec.nodeName).toBeUndefined();
    expect(affinity.status.conditions).toEqual([expect.objectContaining({
      type: 'PodScheduled', status: 'False', reason: 'Unschedulable',
      message: "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
    })]);
    const pods = (await cluster.kubectl('get pods')).stdout.split('\n');
    expect(pods.filter((l) => l.startsWith('frontend-') || l.startsWith('nginx-deployment-'))).toHaveLength(6); // the controllers made them
    expect(pods).toContain('with-node-affinity                 0/1     Pending             0          0s');
  });

  it('shows the namespace, the Service and the ReplicaSet in get tables', async () => {
    // two simulated minutes later the images that exist run; the made-up ones back off pulling
    await cluster.advance(120_000);
    // 2m1s: the apply's objects were created up to ~0.8 s before the throttled apply ended (see above),
    // and the commands of the tests before this one took a few hundred ms more: all are over 121 s old
    expect((await cluster.kubectl('get ns development')).stdout).toBe('NAME          STATUS   AGE\ndevelopment   Active   2m1s\n');
    expect((await cluster.kubectl('get rs frontend')).stdout).toBe('NAME       DESIRED   CURRENT   READY   AGE\nfrontend   3         3         0       2m1s\n');
    expect((await cluster.kubectl('get pod frontend nginx')).stdout).toBe([
      'NAME       READY   STATUS             RESTARTS   AGE',
      'frontend   0/2     ImagePullBackOff   0          2m1s',
      'nginx      1/1     Running            0          2m1s',
      '',
    ].join('\n'));
    const svc = await json(cluster, 'get svc my-service');
    expect(svc.spec).toMatchObject({ type: 'ClusterIP', sessionAffinity: 'None', ports: [{ protocol: 'TCP', port: 80, targetPort: 9376 }] });
    expect(svc.spec.clusterIP).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/); // from 10.96.0.0/12
    expect(svc.spec.clusterIPs).toEqual([svc.spec.clusterIP]);
  });

  it.each([
    ['a missing pod', 'get pod nope', 'Error from server (NotFound): pods "nope" not found\n'],
    ['a missing namespace', 'get deployment web -n nowhere', 'Error from server (NotFound): deployments.apps "web" not found\n'],
  ])('prints NotFound for %s', async (_name, args, stderr) => {
    expect(await cluster.kubectl(args)).toEqual({ stdout: '', stderr, exitCode: 1 });
  });

  it('rejects an invalid pod with the field path and reason', async () => {
    const bad = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: bad\nspec:\n  containers:\n  - name: c\n';
    expect(await cluster.kubectl('create -f -', { stdin: bad })).toEqual({
      stdout: '', stderr: 'The Pod "bad" is invalid: spec.containers[0].image: Required value\n', exitCode: 1,
    });
  });

  it('lets apply change a pod\'s image but not its resources (ValidatePodUpdate)', async () => {
    const frontend = manifest('pod-resources.yaml');
    const newImage = frontend.replace('app:v4', 'app:v5');
    expect(await cluster.kubectl('apply -f -', { stdin: newImage })).toEqual({ stdout: 'pod/frontend configured\n', stderr: '', exitCode: 0 });
    const moreMemory = newImage.replace('memory: "128Mi"', 'memory: "256Mi"');
    const refused = await cluster.kubectl('apply -f -', { stdin: moreMemory });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/^The Pod "frontend" is invalid: spec: Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`,/);
    // followed by go-cmp's diff of the specs, as upstream
    expect(refused.stderr).toContain('\n  core.PodSpec{\n');
    expect(refused.stderr).toContain('\n- \t\t\t\t\ts"memory": {i: resource.int64Amount{value: 134217728}, s: "128Mi", Format: "BinarySI"},\n');
    expect(refused.stderr).toContain('\n+ \t\t\t\t\ts"memory": {i: resource.int64Amount{value: 268435456}, s: "256Mi", Format: "BinarySI"},\n');
  });

  it('forbids a user without rights to delete in kube-system (impersonated with --as)', async () => {
    const r = await cluster.kubectl('delete pod frontend -n kube-system --as jane');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^Error from server \(Forbidden\): pods "frontend" is forbidden: User "jane" cannot (get|delete) resource "pods" in API group "" in the namespace "kube-system"\n$/);
    expect(await cluster.kubectl('auth can-i delete pods -n kube-system --as jane')).toEqual({ stdout: 'no\n', stderr: '', exitCode: 1 });
    expect(await cluster.kubectl('auth can-i delete pods -n kube-system')).toEqual({ stdout: 'yes\n', stderr: '', exitCode: 0 });
    // a group grants it: system:masters may do anything
    expect((await cluster.kubectl('auth can-i delete pods -n kube-system --as jane --as-group system:masters')).stdout).toBe('yes\n');
    // --list: a SelfSubjectRulesReview, printed as cani.go does
    const listed = (await cluster.kubectl('auth can-i --list')).stdout.split('\n');
    expect(listed.slice(0, 6)).toEqual([
      'Resources                                       Non-Resource URLs   Resource Names   Verbs',
      '*.*                                             []                  []               [*]',
      '                                                [*]                 []               [*]',
      'selfsubjectreviews.authentication.k8s.io        []                  []               [create]',
      'selfsubjectaccessreviews.authorization.k8s.io   []                  []               [create]',
      'selfsubjectrulesreviews.authorization.k8s.io    []                  []               [create]',
    ]);
    expect((await cluster.kubectl('auth can-i --list --as jane')).stdout).not.toContain('*.*');
  });

  it('admin.conf is kubeadm:cluster-admins, which RBAC grants through a binding kubeadm init made', async () => {
    const c = createCluster({ seed: 2 });
    expect(await c.kubectl('auth whoami')).toEqual({
      stdout: 'ATTRIBUTE   VALUE\nUsername    kubernetes-admin\nGroups      [kubeadm:cluster-admins system:authenticated]\n', stderr: '', exitCode: 0,
    });
    expect((await c.kubectl('auth whoami --as jane --as-group devs -o jsonpath={.status.userInfo.groups}')).stdout).toBe('["devs","system:authenticated"]');
    // the reviews are create-only: no route for other verbs
    expect((await c.kubectl('get selfsubjectreviews')).stderr).toBe('Error from server (MethodNotAllowed): the server does not allow this method on the requested resource\n');
    const review = await c.kubectl('create -f - -o jsonpath={.status.allowed}', { stdin: 'apiVersion: authorization.k8s.io/v1\nkind: SelfSubjectAccessReview\nspec:\n  resourceAttributes:\n    verb: delete\n    resource: pods\n    namespace: kube-system\n' });
    expect(review.stdout).toBe('true');
    expect((await c.kubectl('get clusterrolebinding kubeadm:cluster-admins -o jsonpath={.roleRef.name}/{.subjects[0].name}')).stdout).toBe('cluster-admin/kubeadm:cluster-admins');
    // the binding is all that stands behind the admin: deleting it locks kubectl out, as upstream
    expect((await c.kubectl('delete clusterrolebinding kubeadm:cluster-admins')).exitCode).toBe(0);
    await c.advance(1_000);
    const locked = await c.kubectl('get pods');
    expect(locked.exitCode).toBe(1);
    expect(locked.stderr).toBe('Error from server (Forbidden): pods is forbidden: User "kubernetes-admin" cannot list resource "pods" in API group "" in the namespace "default"\n');
  });

  it('serves /metrics with the request latency histogram of what we just did', async () => {
    const r = await cluster.kubectl('get --raw /metrics');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('# TYPE apiserver_request_duration_seconds histogram');
    expect(r.stdout).toMatch(/apiserver_request_duration_seconds_count\{[^}]*resource="pods",scope="namespace",subresource="",verb="POST",version="v1"\} 18/); // 3 by kubectl, 6 by the ReplicaSet controller for the manifests and 2 for CoreDNS, 1 invalid, 4 mirror pods by the kubelet, 2 by the DaemonSet controller (kube-proxy, kindnet)
  });
});

describe('topologies', { timeout: 60_000 }, () => {
  it('ha: three tainted control-plane nodes and three workers behind a load balancer', async () => {
    const cluster = createCluster({ topology: 'ha', seed: 3 });
    expect((await cluster.kubectl('get nodes')).stdout).toBe([
      'NAME       STATUS   ROLES           AGE   VERSION',
      'cp-1       Ready    control-plane   3s    v1.33.0',
      'cp-2       Ready    control-plane   3s    v1.33.0',
      'cp-3       Ready    control-plane   3s    v1.33.0',
      'worker-1   Ready    <none>          3s    v1.33.0',
      'worker-2   Ready    <none>          3s    v1.33.0',
      'worker-3   Ready    <none>          3s    v1.33.0',
      '',
    ].join('\n'));
    const cp = await json(cluster, 'get node cp-2');
    expect(cp.spec.taints).toEqual([{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
    expect(cluster.internals.controlPlane.loadBalancer?.healthyBackends()).toEqual(['kube-apiserver-cp-1', 'kube-apiserver-cp-2', 'kube-apiserver-cp-3']);
    expect((await cluster.etcdctl('member list')).stdout.split('\n').filter((l) => l.includes('started'))).toHaveLength(3);
  });

  it('managed: only workers are visible, each as its WorkerSpec says; etcd is out of reach', async () => {
    const cluster = createCluster({
      topology: 'managed',
      workers: [
        { name: 'gpu-1', cpu: '8', memory: '32Gi', labels: { accelerator: 'nvidia' }, taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }] },
        { cpu: '2', memory: '4Gi', pods: 30, images: [{ names: ['nginx:1.14.2'], sizeBytes: 44_000_000 }] },
      ],
    });
    expect((await cluster.kubectl('get nodes -o name')).stdout).toBe('node/gpu-1\nnode/worker-2\n');
    const gpu = await json(cluster, 'get node gpu-1');
    expect(gpu.metadata.labels.accelerator).toBe('nvidia');
    expect(gpu.spec.taints).toEqual([{ key: 'gpu', value: 'true', effect: 'NoSchedule' }]);
    expect(gpu.status.allocatable).toMatchObject({ cpu: '8', memory: '32Gi' });
    const small = await json(cluster, 'get node worker-2');
    expect(small.status.allocatable.pods).toBe('30');
    // the kubelet reports what its container runtime holds, digests and registry sizes included
    expect(small.status.images).toEqual([{ names: [expect.stringMatching(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/), 'docker.io/library/nginx:1.14.2'], sizeBytes: 72_000_000 }]);
    expect((await cluster.etcdctl('member list')).exitCode).toBe(1);
  });

  it('refuses options it cannot build, naming the problem', () => {
    expect(() => createCluster({ topology: 'single-node', etcdMembers: 3 })).toThrow(/single-node cluster has one etcd member/);
    expect(() => createCluster({ workers: [{ name: 'cp-1' }] })).toThrow(/two machines are named "cp-1"/);
  });
});
