// The command layer against an in-memory fake API server: exact stdout/stderr for the
// transcripts a learner types in the book's terminal.
import { describe, expect, it } from 'vitest';
import type {
  CoreEvent,
  DaemonSet,
  Deployment,
  KubeObject,
  Node,
  Pod,
  PodDisruptionBudget,
  ReplicaSet,
  Service,
} from '../../api/index.ts';
import { rfc3339 } from '../../api/index.ts';
import { FakeTransport, statusError } from './fake-transport.ts';
import { runKubectl } from './kubectl.ts';
import type { KubectlResult } from './context.ts';

const S = 1000;
const NOW = 330 * S; // 5m30s after boot

function pod(
  name: string,
  extra: Partial<Pod> = {},
  labels: Record<string, string> = { app: 'web' },
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels },
    spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }], nodeName: 'node-1' },
    status: {
      phase: 'Running',
      podIP: '10.244.1.5',
      podIPs: [{ ip: '10.244.1.5' }],
      hostIP: '10.0.0.11',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [
        {
          name: 'nginx',
          ready: true,
          restartCount: 0,
          image: 'nginx:1.27',
          imageID: '',
          state: { running: { startedAt: rfc3339(2 * S) } },
        },
      ],
    },
    ...extra,
  };
}

function node(name: string, ready: boolean, labels: Record<string, string> = {}): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels },
    spec: {},
    status: {
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
      addresses: [{ type: 'InternalIP', address: '10.0.0.11' }],
      nodeInfo: {
        machineID: 'm',
        systemUUID: 'u',
        bootID: 'b',
        kernelVersion: '6.8.0',
        osImage: 'Ubuntu 24.04 LTS',
        containerRuntimeVersion: 'containerd://2.0.0',
        kubeletVersion: 'v1.33.0',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  };
}

function cluster(): FakeTransport {
  const t = new FakeTransport(() => NOW);
  t.seed('', 'namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'default' },
    status: { phase: 'Active' },
  } as KubeObject);
  t.seed('', 'nodes', node('node-1', true, { 'node-role.kubernetes.io/control-plane': '' }));
  t.seed('', 'nodes', node('node-2', false));
  t.seed('', 'pods', pod('web-1'), 10 * S);
  t.seed('', 'pods', pod('web-2', { status: { phase: 'Pending', conditions: [] } }), 300 * S);
  t.seed('', 'pods', {
    ...pod('dns', {}, { k8s: 'dns' }),
    metadata: { name: 'dns', namespace: 'kube-system', labels: { k8s: 'dns' } },
  });
  return t;
}

function kubectl(t: FakeTransport, line: string, stdin?: string, files?: Record<string, string>): KubectlResult {
  let result: KubectlResult | undefined;
  runKubectl(line, t, { nowMs: NOW, stdin, ...(files ? { files } : {}) }, (r) => (result = r));
  if (!result) throw new Error('kubectl did not finish synchronously with the fake transport');
  return result;
}

describe('kubectl get', () => {
  it('prints the pod table with real columns and ages', () => {
    expect(kubectl(cluster(), 'get pods').stdout).toBe(
      'NAME    READY   STATUS    RESTARTS   AGE\n' +
        'web-1   1/1     Running   0          5m20s\n' +
        'web-2   0/1     Pending   0          30s\n',
    );
  });
  it('-o wide adds IP, NODE, NOMINATED NODE, READINESS GATES', () => {
    expect(kubectl(cluster(), 'get pod web-1 -o wide').stdout).toBe(
      'NAME    READY   STATUS    RESTARTS   AGE     IP           NODE     NOMINATED NODE   READINESS GATES\n' +
        'web-1   1/1     Running   0          5m20s   10.244.1.5   node-1   <none>           <none>\n',
    );
  });
  it('-A adds NAMESPACE; -l filters; --show-labels adds LABELS', () => {
    expect(kubectl(cluster(), 'get po -A -l k8s=dns --show-labels').stdout).toBe(
      'NAMESPACE     NAME   READY   STATUS    RESTARTS   AGE     LABELS\n' +
        'kube-system   dns    1/1     Running   0          5m30s   k8s=dns\n',
    );
  });
  it('nodes: status, roles, version', () => {
    expect(kubectl(cluster(), 'get nodes').stdout).toBe(
      'NAME     STATUS     ROLES           AGE     VERSION\n' +
        'node-1   Ready      control-plane   5m30s   v1.33.0\n' +
        'node-2   NotReady   <none>          5m30s   v1.33.0\n',
    );
  });
  it('says "No resources found" on stderr', () => {
    const r = kubectl(cluster(), 'get deploy');
    expect([r.stdout, r.stderr, r.exitCode]).toEqual([
      '',
      'No resources found in default namespace.\n',
      0,
    ]);
    expect(kubectl(cluster(), 'get deploy -A').stderr).toBe('No resources found\n');
  });
  it('prints NotFound as kubectl does, with exit code 1', () => {
    const r = kubectl(cluster(), 'get pod nope');
    expect([r.stdout, r.stderr, r.exitCode]).toEqual([
      '',
      'Error from server (NotFound): pods "nope" not found\n',
      1,
    ]);
  });
  it('-o yaml of one missing object prints only the error; of several, the List of those found too (printGeneric)', () => {
    const t = cluster();
    expect(kubectl(t, 'get pod nope -o yaml')).toMatchObject({ stdout: '', stderr: 'Error from server (NotFound): pods "nope" not found\n', exitCode: 1 });
    expect(kubectl(t, 'get pod/nope -o json')).toMatchObject({ stdout: '', exitCode: 1 });
    expect(kubectl(t, 'get pod nope other -o yaml')).toMatchObject({ stdout: 'apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: ""\n', exitCode: 1 });
  });
  it('unknown resource type', () => {
    expect(kubectl(cluster(), 'get foos').stderr).toBe(
      'error: the server doesn\'t have a resource type "foos"\n',
    );
  });
  it('several types print kind/name tables separated by a blank line', () => {
    const t = cluster();
    t.seed('', 'services', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kubernetes', namespace: 'default' },
      spec: {
        type: 'ClusterIP',
        clusterIP: '10.96.0.1',
        clusterIPs: ['10.96.0.1'],
        ports: [{ port: 443, protocol: 'TCP' }],
      },
    } as Service);
    expect(kubectl(t, 'get pods,svc').stdout).toBe(
      'NAME        READY   STATUS    RESTARTS   AGE\n' +
        'pod/web-1   1/1     Running   0          5m20s\n' +
        'pod/web-2   0/1     Pending   0          30s\n' +
        '\n' +
        'NAME                 TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE\n' +
        'service/kubernetes   ClusterIP   10.96.0.1    <none>        443/TCP   5m30s\n',
    );
  });
  it('-o name, jsonpath, custom-columns, --sort-by, --no-headers', () => {
    const t = cluster();
    expect(kubectl(t, 'get pods -o name').stdout).toBe('pod/web-1\npod/web-2\n');
    expect(kubectl(t, "get pods -o jsonpath='{.items[*].metadata.name}'").stdout).toBe(
      'web-1 web-2',
    );
    expect(
      kubectl(
        t,
        `get pods -o jsonpath='{range .items[*]}{.metadata.name}{"\\t"}{.status.phase}{"\\n"}{end}'`,
      ).stdout,
    ).toBe('web-1\tRunning\nweb-2\tPending\n');
    expect(
      kubectl(t, 'get pods -o custom-columns=NAME:.metadata.name,IP:.status.podIP').stdout,
    ).toBe('NAME    IP\nweb-1   10.244.1.5\nweb-2   <none>\n');
    expect(kubectl(t, 'get pods --sort-by=.status.phase --no-headers').stdout).toBe(
      'web-2   0/1   Pending   0     30s\nweb-1   1/1   Running   0     5m20s\n',
    );
  });
  it('--sort-by: one sort over every item for -o formats, one per table, errors before any output', () => {
    const t = cluster();
    // -o name: all items in one List, sorted together (the SortingPrinter), not resource by resource
    expect(kubectl(t, 'get pods,nodes -o name --sort-by=.metadata.name').stdout).toBe(
      'node/node-1\nnode/node-2\npod/web-1\npod/web-2\n',
    );
    // tables: each resource's table must have the field somewhere
    const missing = kubectl(t, 'get pods,nodes --sort-by=.spec.nodeName');
    expect(missing).toEqual({
      stdout: '',
      stderr: 'error: couldn\'t find any field with path "{.spec.nodeName}" in the list of objects\n',
      exitCode: 1,
    });
    // values that cannot be compared: klog.Exitf in TableSorter.Less
    expect(kubectl(t, 'get pods --sort-by=.status.conditions')).toEqual({
      stdout: '',
      stderr:
        'F0101 00:05:30.000000   48213 sorter.go:378] Field {.status.conditions} in [][][]reflect.Value is an unsortable type: interface, err: unsortable type: []interface {}\n',
      exitCode: 1,
    });
  });
  it('-o yaml of one object prints it; of many prints a List', () => {
    const t = cluster();
    const one = kubectl(t, 'get ns default -o yaml').stdout;
    expect(one).toBe(
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  creationTimestamp: "2026-01-01T00:00:00Z"\n  name: default\n  resourceVersion: "2"\n  uid: uid-1\nstatus:\n  phase: Active\n',
    );
    const many = kubectl(t, 'get ns -o json').stdout;
    expect(
      many.startsWith(
        '{\n    "apiVersion": "v1",\n    "items": [\n        {\n            "apiVersion": "v1",\n            "kind": "Namespace",',
      ),
    ).toBe(true);
    expect(
      many.endsWith(
        '    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n',
      ),
    ).toBe(true);
  });
  it('get --raw /metrics', () => {
    expect(kubectl(cluster(), 'get --raw /metrics').stdout).toContain('apiserver_request_total');
  });
  it('rejects an unknown output format', () => {
    expect(kubectl(cluster(), 'get pods -o xml').stderr).toContain(
      'error: unable to match a printer suitable for the output format "xml"',
    );
  });
  it('requires a resource type', () => {
    expect(kubectl(cluster(), 'get').stderr).toContain(
      'You must specify the type of resource to get.',
    );
  });
  it('--as a user the fake forbids', () => {
    const t = cluster();
    t.deniedUsers.add('alice');
    expect(kubectl(t, 'get pods --as alice').stderr).toBe(
      'Error from server (Forbidden): pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"\n',
    );
  });
});

const DAEMONSET = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      containers:
      - name: agent
        image: busybox:1.36
`;

const CONFIGMAP_FOR_ROLLOUT =
  '{apiVersion: v1, kind: ConfigMap, metadata: {name: settings}, data: {a: b}}';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
---
{apiVersion: v1, kind: Service, metadata: {name: web}, spec: {selector: {app: web}, ports: [{port: 80}]}}
`;

describe('kubectl apply / create / delete', () => {
  it('creates, then reports unchanged, then configured', () => {
    const t = cluster();
    expect(kubectl(t, 'apply -f -', DEPLOYMENT).stdout).toBe(
      'deployment.apps/web created\nservice/web created\n',
    );
    const stored = t.objects.get('apps/deployments/default/web')!;
    expect(stored.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toBe(
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.27","name":"nginx"}]}}}}\n'.replace(
        ',"namespace":"default"',
        '',
      ),
    );
    expect(kubectl(t, 'apply -f -', DEPLOYMENT).stdout).toBe(
      'deployment.apps/web unchanged\nservice/web unchanged\n',
    );
    const r = kubectl(t, 'apply -f -', DEPLOYMENT.replace('replicas: 2', 'replicas: 3'));
    expect(r.stdout).toBe('deployment.apps/web configured\nservice/web unchanged\n');
    expect((t.objects.get('apps/deployments/default/web') as Deployment).spec.replicas).toBe(3);
  });
  it('keeps server-set fields when re-applying (unchanged stays unchanged)', () => {
    const t = cluster();
    kubectl(t, 'apply -f -', DEPLOYMENT);
    const live = t.objects.get('apps/deployments/default/web') as Deployment;
    live.spec.template.spec.containers[0]!.imagePullPolicy = 'IfNotPresent';
    live.status = { replicas: 2 };
    expect(kubectl(t, 'apply -f -', DEPLOYMENT).stdout).toBe(
      'deployment.apps/web unchanged\nservice/web unchanged\n',
    );
  });
  it('create fails with AlreadyExists the second time', () => {
    const t = cluster();
    kubectl(t, 'create -f -', DEPLOYMENT);
    const r = kubectl(t, 'create -f -', DEPLOYMENT);
    expect(r.stderr).toBe(
      'Error from server (AlreadyExists): error when creating "STDIN": deployments.apps "web" already exists\nError from server (AlreadyExists): error when creating "STDIN": services "web" already exists\n',
    );
    expect(r.exitCode).toBe(1);
  });
  it('apply reads and computes its patch again when the PATCH meets a Conflict (patcher.go maxPatchRetry), 5 times', () => {
    const t = cluster();
    kubectl(t, 'apply -f -', DEPLOYMENT);
    // the server answers Conflict to the first `conflicts` patches, as it would to a stale precondition
    const request = t.request.bind(t);
    let conflicts = 0;
    let gets = 0;
    t.request = (req, done) => {
      if (req.verb === 'get' && req.resource.resource === 'deployments') gets++;
      if (req.verb === 'patch' && req.resource.resource === 'deployments' && conflicts > 0) {
        conflicts--;
        return done({
          ok: false,
          status: statusError('Conflict', 409, 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again'),
        });
      }
      request(req, done);
    };
    const changed = DEPLOYMENT.replace('replicas: 2', 'replicas: 3');
    conflicts = 5;
    expect(kubectl(t, 'apply -f -', changed).stdout).toContain('deployment.apps/web configured\n');
    expect(gets).toBe(6);
    conflicts = 6;
    const again = kubectl(t, 'apply -f -', changed.replace('replicas: 3', 'replicas: 4'));
    expect(again.stderr).toContain('Error from server (Conflict): Operation cannot be fulfilled on deployments.apps "web"');
  });
  it('apply sends one strategic merge patch holding the change and the new annotation', () => {
    const t = cluster();
    kubectl(t, 'apply -f -', DEPLOYMENT);
    const live = t.objects.get('apps/deployments/default/web') as Deployment;
    // a field the server set (not in the file) and a label someone else added both survive
    live.spec.template.spec.containers[0]!.imagePullPolicy = 'IfNotPresent';
    live.metadata.labels = { owner: 'ops' };
    t.requests.length = 0;
    const changed = DEPLOYMENT.replace('image: nginx:1.27', 'image: nginx:1.28');
    expect(kubectl(t, 'apply -f -', changed).stdout).toBe('deployment.apps/web configured\nservice/web unchanged\n');
    const patch = t.requests.find((r) => r.verb === 'patch')!;
    expect(patch.query?.patchType).toBe('strategic');
    const body = patch.body as { metadata: { annotations: Record<string, string> }; spec: unknown };
    expect(Object.keys(body.metadata.annotations)).toEqual(['kubectl.kubernetes.io/last-applied-configuration']);
    expect(body.spec).toEqual({
      template: {
        spec: {
          '$setElementOrder/containers': [{ name: 'nginx' }],
          containers: [{ name: 'nginx', image: 'nginx:1.28' }],
        },
      },
    });
    const after = t.objects.get('apps/deployments/default/web') as Deployment;
    expect(after.metadata.labels).toEqual({ owner: 'ops' });
    expect(after.spec.template.spec.containers[0]).toEqual({ name: 'nginx', image: 'nginx:1.28', imagePullPolicy: 'IfNotPresent' });
  });

  it('names the file in the error when the manifest came from one (cmdutil.AddSourceToErr)', () => {
    const t = cluster();
    kubectl(t, 'create -f -', DEPLOYMENT);
    const files = { 'app.yaml': DEPLOYMENT };
    // apply finds both objects and configures them; create refuses them, naming the file
    expect(kubectl(t, 'apply -f app.yaml', undefined, files).exitCode).toBe(0);
    expect(kubectl(t, 'create -f app.yaml', undefined, files).stderr).toBe(
      'Error from server (AlreadyExists): error when creating "app.yaml": deployments.apps "web" already exists\nError from server (AlreadyExists): error when creating "app.yaml": services "web" already exists\n',
    );
  });
  it('--dry-run=client creates nothing', () => {
    const t = cluster();
    expect(kubectl(t, 'apply -f - --dry-run=client', DEPLOYMENT).stdout).toBe(
      'deployment.apps/web created (dry run)\nservice/web created (dry run)\n',
    );
    expect(t.objects.has('apps/deployments/default/web')).toBe(false);
  });
  it('--dry-run=server sends every write with dryRun=All and says so', () => {
    const t = cluster();
    expect(kubectl(t, 'apply -f - --dry-run=server', DEPLOYMENT).stdout).toBe(
      'deployment.apps/web created (server dry run)\nservice/web created (server dry run)\n',
    );
    const writes = t.requests.filter((r) => r.verb !== 'get' && r.verb !== 'list');
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.every((r) => r.query?.dryRun === 'All')).toBe(true);
  });
  it('reports YAML errors and missing kinds', () => {
    expect(
      kubectl(cluster(), 'apply -f -', 'apiVersion: v1\nmetadata: {name: x}\n').stderr,
    ).toContain("Object 'Kind' is missing");
    expect(kubectl(cluster(), 'apply -f -', 'a: [1, 2\n').stderr).toMatch(
      /^error: error parsing STDIN: error converting YAML to JSON: yaml: line \d+:/,
    );
  });
  it('create deployment --image builds the object kubectl builds', () => {
    const t = cluster();
    expect(
      kubectl(t, 'create deployment api --image=registry.k8s.io/echo:2.0 --replicas=2').stdout,
    ).toBe('deployment.apps/api created\n');
    const d = t.objects.get('apps/deployments/default/api') as Deployment;
    expect(d.spec.template.spec.containers).toEqual([
      { name: 'echo', image: 'registry.k8s.io/echo:2.0', resources: {} },
    ]);
    expect(d.spec.selector).toEqual({ matchLabels: { app: 'api' } });
    // what follows "--" is the container's command (create_deployment.go), with one image only
    kubectl(t, 'create deployment host --image=registry.k8s.io/e2e-test-images/agnhost:2.52 -- /agnhost serve-hostname --port=8080');
    expect((t.objects.get('apps/deployments/default/host') as Deployment).spec.template.spec.containers[0]?.command).toEqual(['/agnhost', 'serve-hostname', '--port=8080']);
    expect(kubectl(t, 'create deployment two --image=a --image=b -- sleep 1').stderr).toBe('error: cannot specify multiple --image options and command\n');
    expect(kubectl(t, 'create deployment a b --image=a').stderr).toBe("error: exactly one NAME is required, got 2\nSee 'kubectl create deployment -h' for help and examples\n");
  });
  it('create poddisruptionbudget (pdb) builds the budget create_pdb.go builds, with its refusals', () => {
    const t = cluster();
    expect(kubectl(t, 'create pdb web --selector=app=web --min-available=2').stdout).toBe('poddisruptionbudget.policy/web created\n');
    expect((t.objects.get('policy/poddisruptionbudgets/default/web') as PodDisruptionBudget).spec).toEqual({
      minAvailable: 2, selector: { matchLabels: { app: 'web' } },
    });
    kubectl(t, 'create poddisruptionbudget db --selector="tier in (db,cache),!canary" --max-unavailable=30%');
    expect((t.objects.get('policy/poddisruptionbudgets/default/db') as PodDisruptionBudget).spec).toEqual({
      maxUnavailable: '30%',
      selector: { matchExpressions: [{ key: 'canary', operator: 'DoesNotExist' }, { key: 'tier', operator: 'In', values: ['cache', 'db'] }] },
    });
    const refusals: [string, string][] = [
      ['create pdb x --min-available=1', 'error: a selector must be specified\n'],
      ['create pdb x --selector=a=b', 'error: one of min-available or max-unavailable must be specified\n'],
      ['create pdb x --selector=a=b --min-available=1 --max-unavailable=1', 'error: min-available and max-unavailable cannot be both specified\n'],
      ['create pdb x --selector=a=b --min-available=10Gb', 'error: invalid format specified for min-available\n'],
      ['create pdb x --selector=a!=b --max-unavailable=1', 'error: "!=" is not a valid label selector operator\n'],
    ];
    for (const [line, stderr] of refusals) expect(kubectl(t, line).stderr).toBe(stderr);
  });
  it('delete prints `pod "x" deleted`, and refuses a bare type', () => {
    const t = cluster();
    expect(kubectl(t, 'delete pod web-1').stdout).toBe('pod "web-1" deleted\n');
    expect(kubectl(t, 'delete pods').stderr).toBe(
      'error: resource(s) were provided, but no name was specified\n',
    );
    expect(kubectl(t, 'delete pods -l app=web').stdout).toBe('pod "web-2" deleted\n');
  });
  it('delete sends the DELETE without reading the object first (RequireObject(false))', () => {
    const t = cluster();
    t.deniedUsers.add('jane');
    const cases: [string, { stdout: string; stderr: string }][] = [
      [
        'delete pod web-1 --as=jane',
        {
          stdout: '',
          stderr:
            'Error from server (Forbidden): pods is forbidden: User "jane" cannot delete resource "pods" in API group "" in the namespace "default"\n',
        },
      ],
      ['delete pod nope', { stdout: '', stderr: 'Error from server (NotFound): pods "nope" not found\n' }],
      ['delete pod nope --ignore-not-found', { stdout: '', stderr: '' }],
      ['delete pod web-1 --dry-run=client', { stdout: 'pod "web-1" deleted (dry run)\n', stderr: '' }],
      ['delete pod web-1 --grace-period=0', { stdout: 'pod "web-1" deleted\n', stderr: '' }],
    ];
    for (const [line, expected] of cases) {
      const before = t.requests.length;
      const r = kubectl(t, line);
      expect({ stdout: r.stdout, stderr: r.stderr }, line).toEqual(expected);
      expect(t.requests.slice(before).map((q) => q.verb), line).not.toContain('get');
    }
    const lastDelete = t.requests.filter((q) => q.verb === 'delete').at(-1)!;
    expect(lastDelete.query).toEqual({ gracePeriodSeconds: 1 });
    expect(kubectl(t, 'delete pod web-2 --force').stdout).toBe('pod "web-2" force deleted\n');
  });
  it("generators wrap the create's error as each create_*.go does (plain text after 'error: ')", () => {
    const t = cluster();
    t.deniedUsers.add('jane');
    const forbidden = (what: string, group: string, resource: string, scope = ' in the namespace "default"'): string =>
      `${what} is forbidden: User "jane" cannot create resource "${resource}" in API group "${group}"${scope}`;
    const cases: [string, string][] = [
      ['create deployment web --image=nginx', `error: failed to create deployment: ${forbidden('deployments.apps', 'apps', 'deployments')}\n`],
      ['create configmap c --from-literal=a=b', `error: failed to create configmap: ${forbidden('configmaps', '', 'configmaps')}\n`],
      ['create secret generic s --from-literal=a=b', `error: failed to create secret: ${forbidden('secrets', '', 'secrets')}\n`],
      [
        'create secret docker-registry d --docker-username=u --docker-password=p --docker-server=r',
        `error: failed to create secret ${forbidden('secrets', '', 'secrets')}\n`,
      ],
      ['create serviceaccount sa', `error: failed to create serviceaccount: ${forbidden('serviceaccounts', '', 'serviceaccounts')}\n`],
      ['create quota q --hard=pods=1', `error: failed to create quota: ${forbidden('resourcequotas', '', 'resourcequotas')}\n`],
      [
        'create priorityclass high --value=1000',
        `error: failed to create priorityclass: ${forbidden('priorityclasses.scheduling.k8s.io', 'scheduling.k8s.io', 'priorityclasses', ' at the cluster scope')}\n`,
      ],
      [
        'create rolebinding rb --clusterrole=view --user=bob',
        `error: failed to create rolebinding: ${forbidden('rolebindings.rbac.authorization.k8s.io', 'rbac.authorization.k8s.io', 'rolebindings')}\n`,
      ],
      [
        'create clusterrolebinding crb --clusterrole=view --user=bob',
        `error: failed to create clusterrolebinding: ${forbidden('clusterrolebindings.rbac.authorization.k8s.io', 'rbac.authorization.k8s.io', 'clusterrolebindings', ' at the cluster scope')}\n`,
      ],
      ['create service clusterip svc --tcp=80', `error: failed to create ClusterIP service: ${forbidden('services', '', 'services')}\n`],
      ['create service nodeport np --tcp=80', `error: failed to create NodePort service: ${forbidden('services', '', 'services')}\n`],
      [
        'create pdb web --selector=app=web --min-available=1',
        `error: failed to create poddisruptionbudgets: ${forbidden('poddisruptionbudgets.policy', 'policy', 'poddisruptionbudgets')}\n`,
      ],
      // create_role.go, create_clusterrole.go and create_namespace.go return the Status as it is
      [
        'create role r --verb=get --resource=pods',
        `Error from server (Forbidden): ${forbidden('roles.rbac.authorization.k8s.io', 'rbac.authorization.k8s.io', 'roles')}\n`,
      ],
      ['create namespace team', `Error from server (Forbidden): ${forbidden('namespaces', '', 'namespaces', ' at the cluster scope')}\n`],
    ];
    for (const [line, stderr] of cases) expect(kubectl(t, `${line} --as=jane`).stderr, line).toBe(stderr);
    kubectl(t, 'create deployment web --image=nginx');
    expect(kubectl(t, 'create deployment web --image=nginx').stderr).toBe(
      'error: failed to create deployment: deployments.apps "web" already exists\n',
    );
  });
  it('create, apply and replace send --validate as fieldValidation (Strict by default) with their field manager', () => {
    const t = cluster();
    const sent = (line: string, stdin?: string): unknown => {
      const before = t.requests.length;
      kubectl(t, line, stdin);
      return t.requests.slice(before).filter((q) => q.verb !== 'get').map((q) => [q.verb, q.query]);
    };
    const applyCreate = ['create', { fieldManager: 'kubectl-client-side-apply', fieldValidation: 'Strict' }];
    expect(sent('apply -f -', DEPLOYMENT)).toEqual([applyCreate, applyCreate]); // the Deployment and the Service
    expect(sent('apply -f - --validate=warn', DEPLOYMENT.replace('replicas: 2', 'replicas: 4'))).toEqual([
      ['patch', { patchType: 'strategic', fieldManager: 'kubectl-client-side-apply', fieldValidation: 'Warn' }],
    ]);
    const put = ['update', { fieldManager: 'kubectl-replace', fieldValidation: 'Ignore' }];
    expect(sent('replace -f - --validate=false', DEPLOYMENT)).toEqual([put, put]);
    expect(sent('create configmap c --validate')).toEqual([['create', { fieldManager: 'kubectl-create', fieldValidation: 'Strict' }]]);
    expect(sent('create deployment d --image=nginx --validate=ignore')).toEqual([['create', { fieldManager: 'kubectl-create', fieldValidation: 'Ignore' }]]);
    const bad = kubectl(t, 'create -f - --validate=maybe', DEPLOYMENT);
    expect(bad.stderr).toBe('error: invalid - validate option "maybe"; must be one of: strict (or true), warn, ignore (or false)\n');
  });
  it('delete --force warns', () => {
    expect(kubectl(cluster(), 'delete pod web-1 --force').stderr).toContain(
      'Warning: Immediate deletion does not wait',
    );
  });
});

describe('kubectl edits', () => {
  it('scale, label, cordon, taint, set image', () => {
    const t = cluster();
    kubectl(t, 'apply -f -', DEPLOYMENT);
    expect(kubectl(t, 'scale deploy/web --replicas=5').stdout).toBe('deployment.apps/web scaled\n');
    expect((t.objects.get('apps/deployments/default/web') as Deployment).spec.replicas).toBe(5);
    expect(kubectl(t, 'scale deploy/web').stderr).toBe(
      'error: required flag(s) "replicas" not set\n',
    );
    expect(kubectl(t, 'label pod web-1 tier=front').stdout).toBe('pod/web-1 labeled\n');
    expect(kubectl(t, 'label pod web-1 tier=back').stderr).toBe(
      "error: 'tier' already has a value (front), and --overwrite is false\n",
    );
    expect(kubectl(t, 'label pod web-1 tier-').stdout).toBe('pod/web-1 unlabeled\n');
    expect(kubectl(t, 'cordon node-1').stdout).toBe('node/node-1 cordoned\n');
    expect(kubectl(t, 'cordon node-1').stdout).toBe('node/node-1 already cordoned\n');
    expect(kubectl(t, 'get node node-1 --no-headers').stdout).toBe(
      'node-1   Ready,SchedulingDisabled   control-plane   5m30s   v1.33.0\n',
    );
    expect(kubectl(t, 'uncordon node-1').stdout).toBe('node/node-1 uncordoned\n');
    expect(kubectl(t, 'taint nodes node-2 dedicated=gpu:NoSchedule').stdout).toBe(
      'node/node-2 tainted\n',
    );
    expect((t.objects.get('/nodes//node-2') as Node).spec?.taints).toEqual([
      { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
    ]);
    expect(kubectl(t, 'taint nodes node-2 dedicated=cpu:NoSchedule').stderr).toBe(
      'error: node node-2 already has dedicated taint(s) with same effect(s) and --overwrite is false\n',
    );
    expect(kubectl(t, 'taint nodes node-2 dedicated:NoSchedule-').stdout).toBe(
      'node/node-2 untainted\n',
    );
    expect(kubectl(t, 'set image deployment/web nginx=nginx:1.28').stdout).toBe(
      'deployment.apps/web image updated\n',
    );
    expect(kubectl(t, 'set image deployment/web php=php:8').stderr).toBe(
      'error: unable to find container named "php"\n',
    );
  });
  it('each edit is the patch upstream sends: label a merge patch, taint/cordon/set image a strategic one, scale the scale subresource', () => {
    const t = cluster();
    kubectl(t, 'apply -f -', DEPLOYMENT);
    const sent = (line: string): unknown => {
      t.requests.length = 0;
      kubectl(t, line);
      const p = t.requests.find((r) => r.verb === 'patch')!;
      return { type: p.query?.patchType, subresource: p.subresource, body: p.body };
    };
    expect(sent('label pod web-1 tier=front')).toEqual({ type: 'merge', subresource: undefined, body: { metadata: { labels: { tier: 'front' } } } });
    expect(sent('label pod web-1 tier-')).toEqual({ type: 'merge', subresource: undefined, body: { metadata: { labels: { tier: null } } } });
    expect(sent('scale deploy/web --replicas=4')).toEqual({ type: 'merge', subresource: 'scale', body: { spec: { replicas: 4 } } });
    expect(sent('cordon node-1')).toEqual({ type: 'strategic', subresource: undefined, body: { spec: { unschedulable: true } } });
    expect(sent('taint nodes node-2 k=v:NoExecute')).toEqual({
      type: 'strategic',
      subresource: undefined,
      body: { spec: { taints: [{ key: 'k', value: 'v', effect: 'NoExecute' }] } },
    });
    expect(sent('set image deployment/web nginx=nginx:1.29')).toEqual({
      type: 'strategic',
      subresource: undefined,
      body: { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'nginx' }], containers: [{ name: 'nginx', image: 'nginx:1.29' }] } } } },
    });
  });
});

describe('kubectl patch', () => {
  const images = (t: FakeTransport): string[] =>
    (t.objects.get('apps/deployments/default/web') as Deployment).spec.template.spec.containers.map(
      (c) => `${c.name}=${c.image}`,
    );
  const twoContainers = DEPLOYMENT.replace(
    '        image: nginx:1.27\n',
    '        image: nginx:1.27\n      - name: log\n        image: fluentd\n',
  );
  it('a strategic merge patch (the default) merges containers by name; the same patch again is "(no change)"', () => {
    const t = cluster();
    kubectl(t, 'apply -f -', twoContainers);
    const p = `patch deployment web -p '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.28"}]}}}}'`;
    expect(kubectl(t, p).stdout).toBe('deployment.apps/web patched\n');
    expect(images(t)).toEqual(['nginx=nginx:1.28', 'log=fluentd']);
    expect(t.requests.at(-1)).toMatchObject({ verb: 'patch', query: { patchType: 'strategic' } });
    expect(kubectl(t, p).stdout).toBe('deployment.apps/web patched (no change)\n');
  });
  it('--type merge replaces the list; YAML flow style is accepted (yaml.ToJSON)', () => {
    const t = cluster();
    kubectl(t, 'apply -f -', twoContainers);
    const r = kubectl(t, `patch deploy/web --type merge -p '{spec: {template: {spec: {containers: [{name: nginx, image: "nginx:1.28"}]}}}}'`);
    expect(r.stdout).toBe('deployment.apps/web patched\n');
    expect(images(t)).toEqual(['nginx=nginx:1.28']);
  });
  it('--type json applies RFC 6902 operations', () => {
    const t = cluster();
    kubectl(t, 'apply -f -', DEPLOYMENT);
    const r = kubectl(t, `patch deployment web --type=json -p '[{"op":"replace","path":"/spec/replicas","value":5}]'`);
    expect(r.stdout).toBe('deployment.apps/web patched\n');
    expect((t.objects.get('apps/deployments/default/web') as Deployment).spec.replicas).toBe(5);
  });
  it('--dry-run=client patches the object read and sends nothing; -o prints the result', () => {
    const t = cluster();
    kubectl(t, 'apply -f -', DEPLOYMENT);
    t.requests.length = 0;
    const r = kubectl(t, `patch deployment web -p '{"spec":{"replicas":4}}' --dry-run=client`);
    expect(r.stdout).toBe('deployment.apps/web patched (dry run)\n');
    expect(t.requests.map((q) => q.verb)).toEqual(['get']);
    const printed = kubectl(t, `patch deployment web -p '{"spec":{"replicas":4}}' -o jsonpath={.spec.replicas}`);
    expect(printed.stdout).toBe('4');
  });
  it("patch.go's errors: no patch, an unknown type, a patch that does not parse, a missing object", () => {
    const t = cluster();
    kubectl(t, 'apply -f -', DEPLOYMENT);
    expect(kubectl(t, 'patch deployment web').stderr).toBe(
      'error: must specify --patch or --patch-file containing the contents of the patch\n',
    );
    expect(kubectl(t, `patch deployment web --type apply -p '{}'`).stderr).toBe(
      'error: --type must be one of [json merge strategic], not "apply"\n',
    );
    expect(kubectl(t, `patch deployment web -p '{"spec":'`).stderr).toMatch(
      /^error: unable to parse "\{\\"spec\\":": yaml: line \d+: /,
    );
    const missing = kubectl(t, `patch deployment nope -p '{"spec":{}}'`);
    expect(missing.stderr).toBe('Error from server (NotFound): deployments.apps "nope" not found\n');
    expect(missing.exitCode).toBe(1);
  });
});

describe('kubectl rollout', () => {
  function rolledOut(t: FakeTransport): Deployment {
    kubectl(t, 'apply -f -', DEPLOYMENT);
    const d = t.objects.get('apps/deployments/default/web') as Deployment;
    d.metadata.annotations = {
      ...d.metadata.annotations,
      'deployment.kubernetes.io/revision': '2',
    };
    d.status = { observedGeneration: 1, replicas: 2, updatedReplicas: 2, availableReplicas: 1 };
    for (const [rev, image] of [
      ['1', 'nginx:1.26'],
      ['2', 'nginx:1.27'],
    ] as const) {
      t.seed('apps', 'replicasets', {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name: `web-${rev}`,
          namespace: 'default',
          annotations: { 'deployment.kubernetes.io/revision': rev },
          ownerReferences: [
            {
              apiVersion: 'apps/v1',
              kind: 'Deployment',
              name: 'web',
              uid: d.metadata.uid!,
              controller: true,
            },
          ],
        },
        spec: {
          replicas: rev === '2' ? 2 : 0,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web', 'pod-template-hash': rev } },
            spec: { containers: [{ name: 'nginx', image }] },
          },
        },
        status: { replicas: rev === '2' ? 2 : 0 },
      } as ReplicaSet);
    }
    return d;
  }
  it('status texts', () => {
    const t = cluster();
    rolledOut(t);
    expect(kubectl(t, 'rollout status deployment/web').stdout).toBe(
      'Waiting for deployment "web" rollout to finish: 1 of 2 updated replicas are available...\n',
    );
  });
  it('history, undo, restart', () => {
    const t = cluster();
    rolledOut(t);
    expect(kubectl(t, 'rollout history deployment/web').stdout).toBe(
      'deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n',
    );
    expect(kubectl(t, 'rollout undo deployment/web').stdout).toBe(
      'deployment.apps/web rolled back\n',
    );
    // rollback.go getDeploymentPatch: a JSON patch replacing the template and the annotations
    const undo = t.requests.at(-1)!;
    expect(undo).toMatchObject({ verb: 'patch', query: { patchType: 'json' } });
    expect((undo.body as { op: string; path: string }[]).map((o) => `${o.op} ${o.path}`)).toEqual([
      'replace /spec/template',
      'replace /metadata/annotations',
    ]);
    expect(
      (t.objects.get('apps/deployments/default/web') as Deployment).spec.template.spec
        .containers[0]!.image,
    ).toBe('nginx:1.26');
    expect(kubectl(t, 'rollout undo deployment/web --to-revision=7').stderr).toBe(
      'error: unable to find specified revision 7 in history\n',
    );
    expect(kubectl(t, 'rollout restart deployment/web').stdout).toBe(
      'deployment.apps/web restarted\n',
    );
    expect(
      (t.objects.get('apps/deployments/default/web') as Deployment).spec.template.metadata
        ?.annotations,
    ).toEqual({
      'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:05:30Z',
    });
  });
});

describe('kubectl describe, logs, auth, drain', () => {
  it('describes a pod with its events', () => {
    const t = cluster();
    const ev: CoreEvent = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web-1.1', namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'web-1', namespace: 'default', uid: 'uid-4' },
      reason: 'Scheduled',
      message: 'Successfully assigned default/web-1 to node-1',
      source: { component: 'default-scheduler' },
      firstTimestamp: rfc3339(10 * S),
      lastTimestamp: rfc3339(10 * S),
      count: 1,
      type: 'Normal',
    };
    const pulled: CoreEvent = {
      ...ev,
      metadata: { name: 'web-1.2', namespace: 'default' },
      reason: 'BackOff',
      type: 'Warning',
      message: 'Back-off pulling image',
      source: { component: 'kubelet' },
      firstTimestamp: rfc3339(30 * S),
      lastTimestamp: rfc3339(270 * S),
      count: 3,
    };
    t.seed('', 'events', ev);
    t.seed('', 'events', pulled);
    const out = kubectl(t, 'describe pod web-1').stdout;
    expect(out).toBe(
      [
        // Name..IP form one tabwriter block (no Service Account line here, so 'Annotations:' sets the width).
        'Name:         web-1',
        'Namespace:    default',
        'Node:         node-1/10.0.0.11',
        'Labels:       app=web',
        'Annotations:  <none>',
        'Status:       Running',
        'IP:           10.244.1.5',
        'IPs:',
        '  IP:  10.244.1.5',
        'Containers:',
        '  nginx:',
        '    Container ID:   ',
        '    Image:          nginx:1.27',
        '    Image ID:       ',
        '    Port:           <none>',
        '    Host Port:      <none>',
        '    State:          Running',
        '      Started:      Thu, 01 Jan 2026 00:00:02 +0000',
        '    Ready:          True',
        '    Restart Count:  0',
        '    Environment:    <none>',
        '    Mounts:         <none>',
        'Conditions:',
        // Conditions rows continue into Volumes..Tolerations: one block, as in Go's tabwriter.
        '  Type           Status',
        '  Ready          True ',
        'Volumes:         <none>',
        'QoS Class:       BestEffort',
        'Node-Selectors:  <none>',
        'Tolerations:     <none>',
        'Events:',
        '  Type     Reason     Age               From               Message',
        '  ----     ------     ----              ----               -------',
        '  Normal   Scheduled  5m20s             default-scheduler  Successfully assigned default/web-1 to node-1',
        '  Warning  BackOff    60s (x3 over 5m)  kubelet            Back-off pulling image',
        '',
      ].join('\n'),
    );
  });
  it('describe with no events prints "Events:  <none>"', () => {
    expect(kubectl(cluster(), 'describe ns default').stdout).toBe(
      'Name:         default\nLabels:       <none>\nAnnotations:  <none>\nStatus:       Active\n\nNo resource quota.\n\nNo LimitRange resource.\n',
    );
  });
  it('logs, auth can-i', () => {
    const t = cluster();
    t.logs.set('default/web-1/nginx', 'hello\n');
    expect(kubectl(t, 'logs web-1').stdout).toBe('hello\n');
    expect(kubectl(t, 'auth can-i list pods').stdout).toBe('yes\n');
    t.deniedUsers.add('bob');
    const r = kubectl(t, 'auth can-i delete nodes --as bob');
    expect([r.stdout, r.exitCode]).toEqual(['no\n', 1]);
    const body = t.requests.at(-1)!.body as {
      spec: { resourceAttributes: Record<string, string> };
    };
    // cani.go RunAccessCheck sends the namespace as it is, for a cluster-scoped resource too
    expect(body.spec.resourceAttributes).toEqual({
      namespace: 'default',
      verb: 'delete',
      group: '',
      resource: 'nodes',
      subresource: '',
      name: '',
    });
  });
  it("auth can-i warns as cani.go's resourceFor and Validate do (never about '*')", () => {
    const t = cluster();
    const cases: [string, string][] = [
      ["auth can-i '*' '*'", ''],
      ['auth can-i list pods', ''],
      ['auth can-i impersonate users', ''],
      ['auth can-i list widgets', "Warning: the server doesn't have a resource type 'widgets'\n\n"],
      ['auth can-i list widgets.example.com', "Warning: the server doesn't have a resource type 'widgets' in group 'example.com'\n\n"],
      ['auth can-i list nodes', "Warning: resource 'nodes' is not namespace scoped\n\n"],
      ['auth can-i list nodes -A', ''],
      ['auth can-i get priorityclasses', "Warning: resource 'priorityclasses' is not namespace scoped in group 'scheduling.k8s.io'\n\n"],
      ['auth can-i frobnicate pods', "Warning: verb 'frobnicate' is not a known verb\n\n"],
      ['auth can-i fetch /healthz', "Warning: verb 'fetch' is not a known verb\n\n"],
    ];
    for (const [line, stderr] of cases) expect(kubectl(t, line).stderr, line).toBe(stderr);
    kubectl(t, "auth can-i '*' '*'");
    const attributes = (t.requests.at(-1)!.body as { spec: { resourceAttributes: Record<string, string> } }).spec.resourceAttributes;
    expect(attributes).toMatchObject({ verb: '*', group: '', resource: '*', namespace: 'default' });
  });
  it('drain refuses bare pods without --force, then evicts', () => {
    const t = cluster();
    const refused = kubectl(t, 'drain node-1');
    expect(refused.stdout).toBe('node/node-1 cordoned\n');
    expect(refused.stderr).toContain(
      'cannot delete Pods that declare no controller (use --force to override): default/web-1, default/web-2, kube-system/dns',
    );
    const forced = kubectl(t, 'drain node-1 --force');
    expect(forced.stdout).toBe(
      'node/node-1 already cordoned\nevicting pod default/web-1\npod/web-1 evicted\nevicting pod default/web-2\npod/web-2 evicted\nevicting pod kube-system/dns\npod/dns evicted\nnode/node-1 drained\n',
    );
  });
});

describe('argument errors reach the terminal unchanged', () => {
  it.each([
    ['kubectl frobnicate', 'error: unknown command "frobnicate" for "kubectl"\n'],
    [
      'kubectl get pods --bogus',
      "error: unknown flag: --bogus\nSee 'kubectl get --help' for usage.\n",
    ],
  ])('%s', (line, stderr) => {
    const r = kubectl(cluster(), line);
    expect([r.stderr, r.exitCode]).toEqual([stderr, 1]);
  });
});

describe('watching (get -w, rollout status) over the transport stream', () => {
  function start(
    t: FakeTransport,
    line: string,
  ): { result: () => KubectlResult | undefined; close: () => void } {
    let result: KubectlResult | undefined;
    let close: (() => void) | undefined;
    runKubectl(
      line,
      t,
      { nowMs: NOW, watchForMs: 60_000, after: (_ms, cb) => (close = cb) },
      (r) => (result = r),
    );
    return { result: () => result, close: () => close!() };
  }

  it('get -w prints one aligned row per change until the window closes', () => {
    const t = cluster();
    const run = start(t, 'get pods -w');
    expect(run.result()).toBeUndefined();
    const p = t.objects.get('/pods/default/web-2') as Pod;
    t.modify('', 'pods', {
      ...p,
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'nginx',
            ready: true,
            restartCount: 0,
            image: '',
            imageID: '',
            state: { running: {} },
          },
        ],
      },
    } as Pod);
    kubectl(t, 'delete pod web-1');
    run.close();
    expect(run.result()!.stdout).toBe(
      'NAME    READY   STATUS    RESTARTS   AGE\n' +
        'web-1   1/1     Running   0          5m20s\n' +
        'web-2   0/1     Pending   0          30s\n' +
        'web-2   1/1     Running   0          30s\n' +
        'web-1   1/1     Running   0          5m20s\n',
    );
  });

  it('get -w watches from the list resourceVersion: the listed objects are not sent again as ADDED', () => {
    const cases: [string, string][] = [
      [
        'get pods -w',
        'NAME    READY   STATUS    RESTARTS   AGE\nweb-1   1/1     Running   0          5m20s\nweb-2   0/1     Pending   0          30s\n',
      ],
      [
        'get pods -w --output-watch-events',
        'EVENT   NAME    READY   STATUS    RESTARTS   AGE\nADDED   web-1   1/1     Running   0          5m20s\nADDED   web-2   0/1     Pending   0          30s\n',
      ],
      ['get pods --watch-only', ''],
      // one named object: watched from "0" by metadata.name, its synthetic ADDED suppressed
      ['get pod web-1 -w', 'NAME    READY   STATUS    RESTARTS   AGE\nweb-1   1/1     Running   0          5m20s\n'],
    ];
    for (const [line, stdout] of cases) {
      const t = cluster();
      const run = start(t, line);
      run.close();
      expect(run.result()!.stdout, line).toBe(stdout);
    }
    const t = cluster();
    const run = start(t, 'get pod web-2 -w');
    kubectl(t, 'delete pod web-2');
    run.close();
    expect(run.result()!.stdout).toBe(
      'NAME    READY   STATUS    RESTARTS   AGE\nweb-2   0/1     Pending   0          30s\nweb-2   0/1     Pending   0          30s\n',
    );
  });

  it('--watch-only --output-watch-events prints the header with the first event', () => {
    const t = cluster();
    const run = start(t, 'get pods --watch-only --output-watch-events');
    kubectl(t, 'delete pod web-2');
    run.close();
    expect(run.result()!.stdout).toBe(
      'EVENT     NAME    READY   STATUS    RESTARTS   AGE\nDELETED   web-2   0/1     Pending   0          30s\n',
    );
  });

  it('rollout status follows the deployment until it is rolled out', () => {
    const t = cluster();
    kubectl(t, 'apply -f -', DEPLOYMENT);
    const d = t.objects.get('apps/deployments/default/web') as Deployment;
    t.modify('apps', 'deployments', {
      ...d,
      status: { observedGeneration: 1, replicas: 1, updatedReplicas: 1, availableReplicas: 0 },
    } as Deployment);
    const run = start(t, 'rollout status deploy/web');
    const step = (s: Deployment['status']): void =>
      t.modify('apps', 'deployments', {
        ...(t.objects.get('apps/deployments/default/web') as Deployment),
        status: s,
      } as Deployment);
    step({ observedGeneration: 1, replicas: 2, updatedReplicas: 2, availableReplicas: 1 });
    step({ observedGeneration: 1, replicas: 2, updatedReplicas: 2, availableReplicas: 1 });
    step({ observedGeneration: 1, replicas: 2, updatedReplicas: 2, availableReplicas: 2 });
    expect(run.result()!.stdout).toBe(
      'Waiting for deployment "web" rollout to finish: 1 out of 2 new replicas have been updated...\n' +
        'Waiting for deployment "web" rollout to finish: 1 of 2 updated replicas are available...\n' +
        'deployment "web" successfully rolled out\n',
    );
  });

  it('rollout status follows a daemon set until every node runs the new pod', () => {
    const t = cluster();
    kubectl(t, 'apply -f -', DAEMONSET);
    const ds = (): DaemonSet => t.objects.get('apps/daemonsets/default/agent') as DaemonSet;
    t.modify('apps', 'daemonsets', {
      ...ds(),
      status: {
        observedGeneration: 1,
        desiredNumberScheduled: 2,
        currentNumberScheduled: 2,
        numberMisscheduled: 0,
        numberReady: 1,
        updatedNumberScheduled: 1,
        numberAvailable: 1,
      },
    } as DaemonSet);
    const run = start(t, 'rollout status ds/agent');
    const step = (s: Partial<NonNullable<DaemonSet['status']>>): void =>
      t.modify('apps', 'daemonsets', { ...ds(), status: { ...ds().status!, ...s } } as DaemonSet);
    step({ updatedNumberScheduled: 2, numberAvailable: 1 });
    step({ numberAvailable: 2 });
    expect(run.result()!.stdout).toBe(
      'Waiting for daemon set "agent" rollout to finish: 1 out of 2 new pods have been updated...\n' +
        'Waiting for daemon set "agent" rollout to finish: 1 of 2 updated pods are available...\n' +
        'daemon set "agent" successfully rolled out\n',
    );
  });

  it('rollout status refuses kinds without a status viewer, and OnDelete daemon sets', () => {
    const t = cluster();
    kubectl(
      t,
      'apply -f -',
      DAEMONSET.replace('spec:\n', 'spec:\n  updateStrategy: { type: OnDelete }\n'),
    );
    expect(kubectl(t, 'rollout status ds/agent').stderr).toBe(
      'error: rollout status is only available for RollingUpdate strategy type\n',
    );
    kubectl(t, 'apply -f -', CONFIGMAP_FOR_ROLLOUT);
    expect(kubectl(t, 'rollout status configmap/settings').stderr).toBe(
      'error: no status viewer has been implemented for ConfigMap\n',
    );
  });

  it('-w on several types is refused', () => {
    expect(kubectl(cluster(), 'get pods,svc -w').stderr).toBe(
      'error: you may only specify a single resource type\n',
    );
  });
});

describe('kubectl api-versions', () => {
  it('lists the served group/versions, sorted, core v1 last', () => {
    expect(kubectl(cluster(), 'api-versions').stdout).toBe([
      'apps/v1', 'authentication.k8s.io/v1', 'authorization.k8s.io/v1', 'coordination.k8s.io/v1', 'discovery.k8s.io/v1',
      'events.k8s.io/v1', 'networking.k8s.io/v1', 'policy/v1', 'rbac.authorization.k8s.io/v1', 'scheduling.k8s.io/v1', 'v1', '',
    ].join('\n'));
  });
});

describe('kubectl api-resources', () => {
  it('lists what discovery serves by group name (core first), then by name, as sortableResource does', () => {
    const out = kubectl(cluster(), 'api-resources').stdout.split('\n');
    expect(out.slice(0, 4)).toEqual([
      'NAME                       SHORTNAMES   APIVERSION                     NAMESPACED   KIND',
      'componentstatuses          cs           v1                             false        ComponentStatus',
      'configmaps                 cm           v1                             true         ConfigMap',
      'endpoints                  ep           v1                             true         Endpoints',
    ]);
    expect(out).toContain('deployments                deploy       apps/v1                        true         Deployment');
    // groups by name: authentication before authorization before coordination ... scheduling last
    const groups = out.slice(1, -1).map((l) => l.split(/\s+/).find((c) => /^[a-z.0-9]*\/?v1$/.test(c))!);
    expect(groups.indexOf('authentication.k8s.io/v1')).toBeLessThan(groups.indexOf('authorization.k8s.io/v1'));
    expect(groups.indexOf('coordination.k8s.io/v1')).toBeLessThan(groups.indexOf('discovery.k8s.io/v1'));
    expect(groups.at(-1)).toBe('scheduling.k8s.io/v1');
  });
  it('-o name, --namespaced=false and -o wide (sorted verbs, categories)', () => {
    expect(kubectl(cluster(), 'api-resources --namespaced=false -o name').stdout).toBe(
      'componentstatuses\nnamespaces\nnodes\nselfsubjectreviews.authentication.k8s.io\nselfsubjectaccessreviews.authorization.k8s.io\nselfsubjectrulesreviews.authorization.k8s.io\nipaddresses.networking.k8s.io\nservicecidrs.networking.k8s.io\nclusterrolebindings.rbac.authorization.k8s.io\nclusterroles.rbac.authorization.k8s.io\npriorityclasses.scheduling.k8s.io\n',
    );
    const wide = kubectl(cluster(), 'api-resources -o wide').stdout.split('\n');
    expect(wide[0]).toMatch(/^NAME\s+SHORTNAMES\s+APIVERSION\s+NAMESPACED\s+KIND\s+VERBS\s+CATEGORIES$/);
    expect(wide.find((l) => l.startsWith('componentstatuses'))).toMatch(/ComponentStatus\s+\[get list\]\s*$/);
    expect(wide.find((l) => l.startsWith('pods '))).toMatch(/Pod\s+\[create delete deletecollection get list patch update watch\]\s+all$/);
  });
});

describe('logs of a workload and jsonpath errors', () => {
  it('logs deploy/web picks the first pod and says how many matched', () => {
    const t = cluster();
    kubectl(t, 'apply -f -', DEPLOYMENT);
    t.logs.set('default/web-1/nginx', 'from web-1\n');
    const r = kubectl(t, 'logs deploy/web');
    expect([r.stdout, r.stderr]).toEqual(['from web-1\n', 'Found 2 pods, using pod/web-1\n']);
  });
  it('logs -l reads every matching pod (tail 10 unless asked), --prefix marks each line, --all-containers reads them all', () => {
    const t = cluster();
    t.logs.set('default/web-1/nginx', 'a1\na2\n');
    t.logs.set('default/web-2/nginx', 'b1\n');
    const r = kubectl(t, 'logs -l app=web --prefix');
    expect(r.stdout).toBe('[pod/web-1/nginx] a1\n[pod/web-1/nginx] a2\n[pod/web-2/nginx] b1\n');
    const logCalls = t.requests.filter((q) => q.subresource === 'log');
    expect(logCalls.map((q) => q.query)).toEqual([{ container: 'nginx', tailLines: 10 }, { container: 'nginx', tailLines: 10 }]);
    expect(kubectl(t, 'logs -l app=web --tail=1').stdout).toBe('a1\na2\nb1\n');
    expect(t.requests.filter((q) => q.subresource === 'log').at(-1)?.query?.tailLines).toBe(1);
    expect(kubectl(t, 'logs -l app=none')).toEqual({ stdout: '', stderr: 'No resources found in default namespace.\n', exitCode: 0 });
    expect(kubectl(t, 'logs web-1 -l app=web').stderr).toBe("error: only a selector (-l) or a POD name is allowed\nSee 'kubectl logs -h' for help and examples\n");
    const base = pod('two');
    t.seed('', 'pods', { ...base, spec: { ...base.spec, initContainers: [{ name: 'init', image: 'busybox' }], containers: [{ name: 'a', image: 'nginx' }, { name: 'b', image: 'nginx' }] } } as Pod);
    t.logs.set('default/two/init', 'i\n');
    t.logs.set('default/two/a', 'x\n');
    t.logs.set('default/two/b', 'y\n');
    expect(kubectl(t, 'logs two')).toEqual({ stdout: 'x\n', stderr: 'Defaulted container "a" out of: a, b, init (init)\n', exitCode: 0 });
    expect(kubectl(t, 'logs two --all-containers --prefix').stdout).toBe('[pod/two/init] i\n[pod/two/a] x\n[pod/two/b] y\n');
  });
  it("an out-of-range index prints kubectl's template error", () => {
    const r = kubectl(cluster(), "get deploy -o jsonpath='{.items[0].metadata.name}'");
    expect(r.stderr.split('\n')[0]).toBe(
      'error: error executing jsonpath "{.items[0].metadata.name}": Error executing template: array index out of bounds: index 0, length 0. Printing more information for debugging the template:',
    );
    expect(r.exitCode).toBe(1);
  });
  it('an unclosed action is a parse error', () => {
    expect(kubectl(cluster(), "get pods -o jsonpath='{.items'").stderr).toBe(
      'error: error parsing jsonpath {.items, unclosed action\n',
    );
  });
  // the commands that print an object they wrote: a template's error is an answer, not an exception
  const COLUMNS_ERROR = "error: unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'\n";
  it.each([
    ['create configmap c --from-literal=a=b -o custom-columns=A:{', COLUMNS_ERROR],
    ['create rolebinding rb --clusterrole=view --user=bob -o custom-columns=A:{', COLUMNS_ERROR],
    ["patch pod web-1 -p '{}' -o custom-columns=A:{", COLUMNS_ERROR],
    ['create configmap c2 -o jsonpath={.x', 'error: error parsing jsonpath {.x, unclosed action\n'],
  ])('%s', (line, stderr) => {
    const r = kubectl(cluster(), line);
    expect(r.stderr).toBe(stderr);
    expect(r.exitCode).toBe(1);
  });
});

describe('apply after create, and more describers', () => {
  it('warns when the live object has no last-applied annotation, unless created with --save-config', () => {
    const t = cluster();
    kubectl(t, 'create -f -', DEPLOYMENT);
    const r = kubectl(t, 'apply -f -', DEPLOYMENT);
    expect(r.stderr).toBe(
      'Warning: resource deployments/web is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n' +
        'Warning: resource services/web is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n',
    );
    expect(r.stdout).toBe('deployment.apps/web configured\nservice/web configured\n');
    const u = cluster();
    kubectl(u, 'create -f - --save-config', DEPLOYMENT);
    expect(kubectl(u, 'apply -f -', DEPLOYMENT)).toEqual({
      stdout: 'deployment.apps/web unchanged\nservice/web unchanged\n',
      stderr: '',
      exitCode: 0,
    });
  });

  it('describes a deployment with its new ReplicaSet', () => {
    const t = cluster();
    kubectl(t, 'apply -f -', DEPLOYMENT);
    const d = t.objects.get('apps/deployments/default/web') as Deployment;
    t.modify('apps', 'deployments', {
      ...d,
      metadata: {
        ...d.metadata,
        annotations: { ...d.metadata.annotations, 'deployment.kubernetes.io/revision': '1' },
      },
      status: {
        replicas: 2,
        updatedReplicas: 2,
        availableReplicas: 2,
        conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' }],
      },
    } as Deployment);
    t.seed('apps', 'replicasets', {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'web-5d9c',
        namespace: 'default',
        annotations: { 'deployment.kubernetes.io/revision': '1' },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'web',
            uid: d.metadata.uid!,
            controller: true,
          },
        ],
      },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } } },
      status: { replicas: 2 },
    } as ReplicaSet);
    const out = kubectl(t, 'describe deploy web').stdout;
    expect(out).toContain(
      '\nReplicas:               2 desired | 2 updated | 2 total | 2 available | 0 unavailable\n',
    );
    expect(out).toContain('\nRollingUpdateStrategy:  25% max unavailable, 25% max surge\n');
    expect(out).toContain(
      '\nPod Template:\n  Labels:  app=web\n  Containers:\n   nginx:\n    Image:         nginx:1.27\n',
    );
    expect(out).toContain(
      // the condition rows share a tabwriter block with OldReplicaSets/NewReplicaSet/Events, as upstream
      '\nConditions:\n  Type           Status  Reason\n  ----           ------  ------\n  Available      True    MinimumReplicasAvailable\n',
    );
    expect(out).toContain('\nNewReplicaSet:   web-5d9c (2/2 replicas created)\n');
    expect(out.endsWith('Events:          <none>\n')).toBe(true);
  });

  it('describes environment variables by their source, resolving the fields of the pod (describeContainerEnvVars)', () => {
    const t = cluster();
    const env = [
      { name: 'PLAIN', value: 'a\nb' },
      { name: 'NODE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
      { name: 'APP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['app']" } } },
      { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory' } } },
      { name: 'CPU_M', valueFrom: { resourceFieldRef: { resource: 'requests.cpu', divisor: '1m' } } },
      { name: 'CFG', valueFrom: { configMapKeyRef: { name: 'settings', key: 'mode' } } },
      { name: 'PASS', valueFrom: { secretKeyRef: { name: 'db', key: 'password', optional: true } } },
    ];
    const base = pod('envs');
    t.seed('', 'pods', { ...base, spec: { ...base.spec, containers: [{ name: 'nginx', image: 'nginx:1.27', env, resources: { requests: { cpu: '250m' } } }] } } as Pod);
    const out = kubectl(t, 'describe pod envs').stdout;
    // a multi-line value continues under the value column
    expect(out).toMatch(/\n {4}Environment:\n {6}PLAIN: +a\n {6} +b\n/);
    expect(out).toMatch(/\n {6}NODE: +node-1 \(v1:spec\.nodeName\)\n/);
    expect(out).toMatch(/\n {6}APP: +web \(v1:metadata\.labels\['app'\]\)\n/);
    expect(out).toMatch(/\n {6}MEM: +node allocatable \(limits\.memory\)\n/);
    // in the divisor's units: 250m is 250 millicores
    expect(out).toMatch(/\n {6}CPU_M: +250 \(requests\.cpu\)\n/);
    expect(out).toMatch(/\n {6}CFG: +<set to the key 'mode' of config map 'settings'> +Optional: false\n/);
    expect(out).toMatch(/\n {6}PASS: +<set to the key 'password' in secret 'db'> +Optional: true\n/);
  });

  it('describes the service account token volume source by source (printProjectedVolumeSource)', () => {
    const t = cluster();
    const base = pod('sa');
    const volume = {
      name: 'kube-api-access-x2b7k',
      projected: {
        defaultMode: 420,
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
          { secret: { name: 'extra', optional: true } },
        ],
      },
    };
    t.seed('', 'pods', { ...base, spec: { ...base.spec, volumes: [volume] } } as Pod);
    const out = kubectl(t, 'describe pod sa').stdout;
    // the source lines share a tabwriter block with QoS Class and what follows, as in real output
    expect(out).toContain(
      'Volumes:\n' +
        '  kube-api-access-x2b7k:\n' +
        '    Type:                    Projected (a volume that contains injected data from multiple sources)\n' +
        '    TokenExpirationSeconds:  3607\n' +
        '    ConfigMapName:           kube-root-ca.crt\n' +
        '    ConfigMapOptional:       <nil>\n' +
        '    DownwardAPI:             true\n' +
        '    SecretName:              extra\n' +
        '    SecretOptionalName:      true\n' +
        'QoS Class:                   BestEffort\n',
    );
  });

  it('describes a node: its lease, its pods as a share of allocatable, the allocated totals', () => {
    const t = cluster();
    const base = node('node-3', true);
    t.seed('', 'nodes', { ...base, status: { ...base.status, capacity: { cpu: '2', memory: '4Gi', pods: '110' }, allocatable: { cpu: '2', memory: '4Gi', pods: '110' } } } as Node);
    t.seed('coordination.k8s.io', 'leases', {
      apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
      metadata: { name: 'node-3', namespace: 'kube-node-lease' },
      spec: { holderIdentity: 'node-3', leaseDurationSeconds: 40, renewTime: '2026-01-01T00:05:21.000000Z' },
    } as KubeObject);
    const app = pod('app');
    const resources = { requests: { cpu: '250m', memory: '64Mi' }, limits: { memory: '128Mi' } };
    t.seed('', 'pods', { ...app, spec: { ...app.spec, nodeName: 'node-3', containers: [{ name: 'app', image: 'nginx:1.27', resources }, { name: 'side', image: 'busybox', resources: { requests: { cpu: '50m' } } }] } } as Pod, 60 * S);
    t.seed('', 'pods', { ...pod('done'), spec: { ...pod('done').spec, nodeName: 'node-3' }, status: { phase: 'Succeeded' } } as Pod);
    const out = kubectl(t, 'describe node node-3').stdout;
    expect(out).toContain('Unschedulable:      false\nLease:\n  HolderIdentity:  node-3\n  AcquireTime:     <unset>\n  RenewTime:       Thu, 01 Jan 2026 00:05:21 +0000\n');
    // one tabwriter block from System Info through the pod rows; the empty column after Name is upstream's
    expect(out).toContain(
      'Non-terminated Pods:          (1 in total)\n' +
        '  Namespace                   Name    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age\n' +
        '  ---------                   ----    ------------  ----------  ---------------  -------------  ---\n' +
        '  default                     app     300m (15%)    0 (0%)      64Mi (1%)        128Mi (3%)     4m30s\n' +
        'Allocated resources:\n' +
        '  (Total limits may be over 100 percent, i.e., overcommitted.)\n' +
        // the note line has no tab: the totals are a tabwriter block of their own, Events with them
        '  Resource           Requests    Limits\n' +
        '  --------           --------    ------\n' +
        '  cpu                300m (15%)  0 (0%)\n' +
        '  memory             64Mi (1%)   128Mi (3%)\n' +
        '  ephemeral-storage  0 (0%)      0 (0%)\n' +
        'Events:              <none>\n',
    );
  });

  it('describes a node whose allocatable is unknown as kubectl does (Go turns 0/0 into the smallest int64)', () => {
    const out = kubectl(cluster(), 'describe node node-1').stdout;
    expect(out).not.toContain('Lease:');
    expect(out).toContain('\n  kube-system                 dns      0 (-9223372036854775808%)  0 (-9223372036854775808%)');
    expect(out).toContain('\n  cpu                0 (0%)    0 (0%)\n');
  });
});
