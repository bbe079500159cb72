import { describe, expect, it } from 'vitest';
import type { KubeObject, Status } from '../api/index.ts';
import { ADMIN, createHarness } from './testing/harness.ts';

const pod = (name: string, extra: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] }, ...extra }) as KubeObject;
const status = (b: unknown): Status => b as Status;

describe('create / get / list round trip', () => {
  it('stores a pod under /registry/pods/<ns>/<name> with server-set fields', () => {
    const h = createHarness();
    const res = h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('web') });
    expect(res.code).toBe(201);
    const obj = res.body as KubeObject & { spec: Record<string, unknown>; status: Record<string, unknown> };
    expect(obj.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(obj.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(obj.metadata.generation).toBe(1);
    expect(obj.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    expect(obj.spec.serviceAccountName).toBe('default');
    expect(obj.spec.schedulerName).toBe('default-scheduler');
    expect(obj.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    const kv = h.etcd.store.get('/registry/pods/default/web');
    expect(kv).toBeDefined();
    expect(obj.metadata.resourceVersion).toBe(String(kv!.modRevision));
    expect(JSON.parse(kv!.value).metadata.resourceVersion).toBeUndefined();

    const got = h.admin({ verb: 'get', resource: 'pods', namespace: 'default', name: 'web' });
    expect(got.code).toBe(200);
    expect(got.body).toEqual(obj);

    const list = h.admin({ verb: 'list', resource: 'pods', namespace: 'default' });
    const l = list.body as { kind: string; items: KubeObject[]; metadata: { resourceVersion: string } };
    expect(l.kind).toBe('PodList');
    expect(l.items.map((i) => i.metadata.name)).toEqual(['web']);
    expect(l.items[0]!.kind).toBeUndefined();
  });

  it('nodes live under /registry/minions and deployments under /registry/deployments', () => {
    const h = createHarness();
    expect(h.admin({ verb: 'create', resource: 'nodes', body: { metadata: { name: 'n1' } } }).code).toBe(201);
    expect(h.etcd.store.get('/registry/minions/n1')).toBeDefined();
    const d = { metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
    expect(h.admin({ verb: 'create', group: 'apps', resource: 'deployments', namespace: 'default', body: d }).code).toBe(201);
    expect(h.etcd.store.get('/registry/deployments/default/web')).toBeDefined();
  });

  it('answers AlreadyExists and NotFound with the upstream texts', () => {
    const h = createHarness();
    h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('web') });
    const again = h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('web') });
    expect(again.code).toBe(409);
    expect(status(again.body).message).toBe('pods "web" already exists');
    const missing = h.admin({ verb: 'get', group: 'apps', resource: 'deployments', namespace: 'default', name: 'nope' });
    expect(missing.code).toBe(404);
    expect(status(missing.body).message).toBe('deployments.apps "nope" not found');
  });

  it('generateName appends five random characters', () => {
    const h = createHarness();
    const res = h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: { ...pod(''), metadata: { generateName: 'web-' } } });
    expect(res.code).toBe(201);
    expect((res.body as KubeObject).metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });
});

describe('validation', () => {
  it('returns 422 Invalid with one cause per field error', () => {
    const h = createHarness();
    const res = h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: { metadata: { name: 'Bad_Name' }, spec: { containers: [{ name: 'app' }] } } });
    expect(res.code).toBe(422);
    const s = status(res.body);
    expect(s.reason).toBe('Invalid');
    expect(s.message).toMatch(/^Pod "Bad_Name" is invalid: \[metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
    expect(s.details?.causes?.map((c) => c.field)).toEqual(['metadata.name', 'spec.containers[0].image']);
    expect(h.etcd.store.get('/registry/pods/default/Bad_Name')).toBeUndefined();
  });

  it('rejects a deployment whose selector does not match its template', () => {
    const h = createHarness();
    const d = { metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
    const res = h.admin({ verb: 'create', group: 'apps', resource: 'deployments', namespace: 'default', body: d });
    expect(res.code).toBe(422);
    expect(status(res.body).message).toBe('Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`');
  });

  it('rejects unknown fields under fieldValidation=Strict and drops them otherwise', () => {
    const h = createHarness();
    const strict = h.admin({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { metadata: { name: 'c' }, dta: {} }, query: { fieldValidation: 'Strict' } });
    expect(strict.code).toBe(400);
    expect(status(strict.body).message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "dta"');
    const warn = h.admin({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { metadata: { name: 'c' }, dta: {} } });
    expect(warn.code).toBe(201);
    expect(warn.warnings).toEqual(['unknown field "dta"']);
    expect((warn.body as unknown as Record<string, unknown>).dta).toBeUndefined();
  });

  // sigs.k8s.io/json UnmarshalStrict's paths, in document order, wrapped by transformDecodeError
  it.each([
    [
      'deployments', 'apps',
      { metadata: { name: 'web' }, spec: { replica: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } } },
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"',
    ],
    [
      'deployments', 'apps',
      { metadata: { name: 'web', lables: {} }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, containers: [], spec: { containers: [{ name: 'web', image: 'nginx', imagePullPolice: 'Always', ports: [{ containerPort: 80, hostport: 1 }] }] } } } },
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "metadata.lables", unknown field "spec.template.containers", unknown field "spec.template.spec.containers[0].imagePullPolice", unknown field "spec.template.spec.containers[0].ports[0].hostport"',
    ],
    [
      'pods', '',
      { metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'nginx', resources: { request: { cpu: '1' } } }], nodeselector: {} } },
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].resources.request", unknown field "spec.nodeselector"',
    ],
    [
      'services', '',
      { metadata: { name: 's' }, spec: { selector: { app: 'web' }, ports: [{ port: 80, target: 8080 }] } },
      'Service in version "v1" cannot be handled as a Service: strict decoding error: unknown field "spec.ports[0].target"',
    ],
    [
      'rolebindings', 'rbac.authorization.k8s.io',
      { metadata: { name: 'rb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', user: 'jane' }] },
      'RoleBinding in version "v1" cannot be handled as a RoleBinding: strict decoding error: unknown field "subjects[0].user"',
    ],
  ])('strict decoding of %s finds nested unknown fields (%#)', (resource, group, body, message) => {
    const h = createHarness();
    const strict = h.admin({ verb: 'create', group, resource, namespace: 'default', body, query: { fieldValidation: 'Strict' } });
    expect(strict.code).toBe(400);
    expect(status(strict.body).message).toBe(message);
  });

  it('Warn drops nested unknown fields with one warning each; a known manifest passes Strict untouched', () => {
    const h = createHarness();
    const body = { metadata: { name: 'web' }, spec: { replica: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx', imagee: 'x' }] } } } };
    const warn = h.admin({ verb: 'create', group: 'apps', resource: 'deployments', namespace: 'default', body, query: { fieldValidation: 'Warn' } });
    expect(warn.code).toBe(201);
    expect(warn.warnings).toEqual(['unknown field "spec.replica"', 'unknown field "spec.template.spec.containers[0].imagee"']);
    const created = warn.body as unknown as { spec: { replicas?: number; replica?: number; template: { spec: { containers: Record<string, unknown>[] } } } };
    expect(created.spec.replica).toBeUndefined();
    expect(created.spec.template.spec.containers[0]!.imagee).toBeUndefined();
    // what a controller reads back and writes again is all known fields
    const again = h.admin({ verb: 'update', group: 'apps', resource: 'deployments', namespace: 'default', name: 'web', body: warn.body, query: { fieldValidation: 'Strict' } });
    expect(again.code).toBe(200);
  });

  it('reports wrong types as a 400 decoding error', () => {
    const h = createHarness();
    const res = h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: { metadata: { name: 5 } } });
    expect(res.code).toBe(400);
    expect(status(res.body).message).toBe('Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string');
  });
});

describe('optimistic concurrency', () => {
  it('409 Conflict on a stale resourceVersion, success on the current one', () => {
    const h = createHarness();
    const created = h.admin({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { metadata: { name: 'c' }, data: { a: '1' } } }).body as KubeObject;
    const first = h.admin({ verb: 'update', resource: 'configmaps', namespace: 'default', name: 'c', body: { ...created, data: { a: '2' } } });
    expect(first.code).toBe(200);
    const stale = h.admin({ verb: 'update', resource: 'configmaps', namespace: 'default', name: 'c', body: { ...created, data: { a: '3' } } });
    expect(stale.code).toBe(409);
    expect(status(stale.body).message).toBe('Operation cannot be fulfilled on configmaps "c": the object has been modified; please apply your changes to the latest version and try again');
    expect(status(stale.body).reason).toBe('Conflict');
  });

  it('bumps generation on spec changes only, and status writes keep the spec', () => {
    const h = createHarness();
    const d = { metadata: { name: 'web' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
    const base = { verb: 'update' as const, group: 'apps', resource: 'deployments', namespace: 'default', name: 'web' };
    const created = h.admin({ ...base, verb: 'create', name: undefined, body: d }).body as KubeObject & { spec: { replicas: number } };
    const labelled = h.admin({ ...base, body: { ...created, metadata: { ...created.metadata, labels: { a: 'b' } } } }).body as KubeObject;
    expect(labelled.metadata.generation).toBe(1);
    const scaled = h.admin({ ...base, body: { ...labelled, spec: { ...created.spec, replicas: 3 } } }).body as KubeObject;
    expect(scaled.metadata.generation).toBe(2);
    const st = h.admin({ ...base, subresource: 'status', body: { ...scaled, spec: { ...created.spec, replicas: 9 }, status: { observedGeneration: 2, replicas: 3 } } });
    expect(st.code).toBe(200);
    const after = st.body as KubeObject & { spec: { replicas: number }; status: { observedGeneration: number } };
    expect(after.spec.replicas).toBe(3);
    expect(after.status.observedGeneration).toBe(2);
    expect(after.metadata.generation).toBe(2);
  });

  it('the scale subresource reads and writes spec.replicas', () => {
    const h = createHarness();
    const d = { metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
    h.admin({ verb: 'create', group: 'apps', resource: 'deployments', namespace: 'default', body: d });
    const scale = h.admin({ verb: 'get', group: 'apps', resource: 'deployments', namespace: 'default', name: 'web', subresource: 'scale' }).body as unknown as { kind: string; spec: { replicas: number }; status: { selector: string } };
    expect(scale.kind).toBe('Scale');
    expect(scale.spec.replicas).toBe(2);
    expect(scale.status.selector).toBe('app=web');
    const patched = h.admin({ verb: 'patch', group: 'apps', resource: 'deployments', namespace: 'default', name: 'web', subresource: 'scale', body: { spec: { replicas: 5 } } });
    expect(patched.code).toBe(200);
    const dep = h.admin({ verb: 'get', group: 'apps', resource: 'deployments', namespace: 'default', name: 'web' }).body as KubeObject & { spec: { replicas: number } };
    expect(dep.spec.replicas).toBe(5);
    expect(dep.metadata.generation).toBe(2);
  });
});

describe('deletion', () => {
  it('an object with finalizers gets deletionTimestamp and goes when the last finalizer is removed', () => {
    const h = createHarness();
    const ref = { resource: 'configmaps', namespace: 'default', name: 'c' };
    h.admin({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { metadata: { name: 'c', finalizers: ['example.com/hold'] } } });
    const del = h.admin({ verb: 'delete', ...ref });
    expect(del.code).toBe(200);
    expect((del.body as KubeObject).metadata.deletionTimestamp).toBeDefined();
    expect(h.etcd.store.get('/registry/configmaps/default/c')).toBeDefined();
    const again = h.admin({ verb: 'delete', ...ref });
    expect((again.body as KubeObject).metadata.deletionTimestamp).toBe((del.body as KubeObject).metadata.deletionTimestamp);
    const released = h.admin({ verb: 'patch', ...ref, body: { metadata: { finalizers: null } } });
    expect(released.code).toBe(200);
    expect(h.etcd.store.get('/registry/configmaps/default/c')).toBeUndefined();
    expect(h.admin({ verb: 'get', ...ref }).code).toBe(404);
  });

  it('a scheduled pod is deleted gracefully; gracePeriodSeconds=0 finishes it', () => {
    const h = createHarness();
    h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('web') });
    const bind = h.admin({ verb: 'create', resource: 'pods', namespace: 'default', name: 'web', subresource: 'binding', body: { metadata: { name: 'web' }, target: { kind: 'Node', name: 'n1' } } });
    expect(bind.code).toBe(201);
    const rebind = h.admin({ verb: 'create', resource: 'pods', namespace: 'default', name: 'web', subresource: 'binding', body: { target: { name: 'n2' } } });
    expect(status(rebind.body).message).toBe('Operation cannot be fulfilled on pods/binding "web": pod web is already assigned to node "n1"');
    const del = h.admin({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'web' });
    const m = (del.body as KubeObject).metadata;
    expect(m.deletionGracePeriodSeconds).toBe(30);
    expect(m.generation).toBe(2);
    expect(h.etcd.store.get('/registry/pods/default/web')).toBeDefined();
    h.admin({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'web', query: { gracePeriodSeconds: 0 } });
    expect(h.etcd.store.get('/registry/pods/default/web')).toBeUndefined();
  });

  it('a namespace goes Terminating, refuses new content, and cannot be deleted if immortal', () => {
    const h = createHarness();
    h.admin({ verb: 'create', resource: 'namespaces', body: { metadata: { name: 'team' } } });
    h.admin({ verb: 'create', resource: 'serviceaccounts', namespace: 'team', body: { metadata: { name: 'default' } } });
    const del = h.admin({ verb: 'delete', resource: 'namespaces', name: 'team' });
    expect((del.body as KubeObject & { status: { phase: string } }).status.phase).toBe('Terminating');
    h.kernel.runFor(10);
    const refused = h.admin({ verb: 'create', resource: 'configmaps', namespace: 'team', body: { metadata: { name: 'c' } } });
    expect(refused.code).toBe(403);
    expect(status(refused.body).message).toBe('configmaps "c" is forbidden: unable to create new content in namespace team because it is being terminated');
    const sys = h.admin({ verb: 'delete', resource: 'namespaces', name: 'kube-system' });
    expect(status(sys.body).message).toBe('namespaces "kube-system" is forbidden: this namespace may not be deleted');
    const fin = h.admin({ verb: 'update', resource: 'namespaces', name: 'team', subresource: 'finalize', body: { metadata: { name: 'team' }, spec: { finalizers: [] } } });
    expect(fin.code).toBe(200);
    expect(h.etcd.store.get('/registry/namespaces/team')).toBeUndefined();
  });

  it('creating in a missing namespace is a 404 for the namespace', () => {
    const h = createHarness();
    const res = h.admin({ verb: 'create', resource: 'configmaps', namespace: 'ghost', body: { metadata: { name: 'c' } } });
    expect(res.code).toBe(404);
    expect(status(res.body).message).toBe('namespaces "ghost" not found');
  });
});

describe('metrics and audit', () => {
  it('exposes apiserver_request_total by code and the duration histogram', () => {
    const h = createHarness();
    h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('web') });
    h.admin({ verb: 'get', resource: 'pods', namespace: 'default', name: 'nope' });
    const res = h.admin({ verb: 'get', path: '/metrics' });
    expect(res.code).toBe(200);
    const text = res.body as string;
    expect(text).toContain('apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="pods",scope="namespace",subresource="",verb="POST",version="v1"} 1');
    expect(text).toContain('apiserver_request_total{code="404",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="",verb="GET",version="v1"} 1');
    expect(text).toMatch(/apiserver_request_duration_seconds_bucket\{component="apiserver",dry_run="",group="",resource="pods",scope="namespace",subresource="",verb="POST",version="v1",le="0\.005"\} 1/);
    expect(text).toContain('le="+Inf"} 1');
  });

  it('records each stage of a create in order', () => {
    const h = createHarness();
    h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('web') });
    const e = h.server.audit.list().at(-1)!;
    expect(e.requestURI).toBe('/api/v1/namespaces/default/pods');
    expect(e.annotations['authorization.k8s.io/decision']).toBe('allow');
    // the harness's admin is in system:masters, allowed before RBAC is asked: no reason (builtin.go)
    expect(e.annotations['authorization.k8s.io/reason']).toBe('');
    const names = e.stages.map((s) => `${s.stage}${s.stage.endsWith('Admission') ? `:${s.detail}` : ''}`);
    expect(names).toEqual([
      'RequestReceived', 'Authentication', 'Authorization',
      'MutatingAdmission:LimitRanger', 'MutatingAdmission:ServiceAccount', 'MutatingAdmission:TaintNodesByCondition', 'MutatingAdmission:Priority', 'MutatingAdmission:DefaultTolerationSeconds',
      'Validation',
      'ValidatingAdmission:NamespaceLifecycle', 'ValidatingAdmission:LimitRanger', 'ValidatingAdmission:ServiceAccount', 'ValidatingAdmission:NodeRestriction', 'ValidatingAdmission:Priority', 'ValidatingAdmission:ResourceQuota',
      'Storage', 'ResponseComplete',
    ]);
    expect(e.stages.at(-2)!.detail).toMatch(/^etcd txn create \/registry\/pods\/default\/web at revision \d+$/);
  });
});

void ADMIN;
