// Strict decoding's field lists (api/known-fields.ts) against a whole running cluster: every body
// any component or kubectl sends for the kinds described field by field decodes with no unknown
// field (so Warn, the default, never drops one of our own fields), and every stored object of those
// kinds consists of known fields only (so defaulting and the strategies add nothing unknown).
import { describe, expect, it, vi } from 'vitest';
import { kindSchema, unknownFields, type ResourceInfo } from '../api/index.ts';
import { createCluster } from '../index.ts';
import { ok } from './kubectl-ok.test-helper.ts';

const seen: string[] = [];
vi.mock('../apiserver/encoding.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../apiserver/encoding.ts')>();
  return {
    ...original,
    decodeBody: (body: unknown, r: ResourceInfo, fieldValidation?: 'Strict' | 'Warn' | 'Ignore', patch?: unknown) => {
      const result = original.decodeBody(body, r, fieldValidation, patch);
      if (kindSchema(r.group, r.kind)) {
        if (!result.ok && /unknown field/.test(result.status.message ?? '')) seen.push(`${r.kind}: ${result.status.message ?? ''}`);
        if (result.ok) for (const w of result.warnings) seen.push(`${r.kind}: ${w}`);
      }
      return result;
    },
  };
});

const WORKLOAD = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, labels: { app: web } }
spec:
  replicas: 2
  revisionHistoryLimit: 5
  strategy: { type: RollingUpdate, rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web }, annotations: { team: a } }
    spec:
      terminationGracePeriodSeconds: 5
      tolerations: [{ key: example.com/x, operator: Exists, effect: NoSchedule }]
      affinity:
        nodeAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 1
            preference: { matchExpressions: [{ key: kubernetes.io/os, operator: In, values: [linux] }] }
      volumes:
      - { name: conf, configMap: { name: web-conf } }
      - { name: cache, emptyDir: {} }
      containers:
      - name: web
        image: nginx:1.27
        ports: [{ containerPort: 80, name: http }]
        env:
        - { name: MODE, value: prod }
        - name: POD
          valueFrom: { fieldRef: { fieldPath: metadata.name } }
        envFrom: [{ configMapRef: { name: web-conf } }]
        resources: { requests: { cpu: 100m, memory: 64Mi }, limits: { memory: 128Mi } }
        readinessProbe: { httpGet: { path: /, port: 80 }, periodSeconds: 5 }
        livenessProbe: { tcpSocket: { port: 80 }, initialDelaySeconds: 5 }
        volumeMounts: [{ name: conf, mountPath: /etc/web }, { name: cache, mountPath: /cache }]
---
apiVersion: v1
kind: ConfigMap
metadata: { name: web-conf }
data: { MODE: prod }
---
apiVersion: v1
kind: Service
metadata: { name: web }
spec:
  selector: { app: web }
  ports: [{ port: 80, targetPort: http, protocol: TCP }]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: { name: agent }
spec:
  selector: { matchLabels: { app: agent } }
  template:
    metadata: { labels: { app: agent } }
    spec:
      containers: [{ name: agent, image: nginx:1.27 }]
`;

describe('strict decoding field lists against a running cluster', { timeout: 120_000 }, () => {
  it('no body sent for the described kinds has an unknown field, and no stored object does', async () => {
    const cluster = createCluster({ seed: 5, workers: [{ images: [{ names: ['nginx:1.27'], sizeBytes: 72_000_000 }] }, { images: [] }] });
    await ok(cluster, 'apply -f -', WORKLOAD);
    await ok(cluster, 'create role pod-reader --verb=get,list --resource=pods');
    await ok(cluster, 'create rolebinding read --role=pod-reader --user=jane --serviceaccount=default:default');
    await ok(cluster, 'create secret generic db --from-literal=password=x');
    await ok(cluster, 'run one --image=nginx:1.27 --labels=run=one');
    await cluster.advance(40_000);
    await ok(cluster, 'set image deployment/web web=nginx:1.28');
    await ok(cluster, 'scale deployment web --replicas=3');
    await cluster.advance(40_000);
    await ok(cluster, 'apply -f -', WORKLOAD.replace('replicas: 2', 'replicas: 1'));
    await cluster.advance(20_000);
    expect(seen).toEqual([]);
    const kinds = 'pods,deployments,replicasets,daemonsets,services,configmaps,secrets,roles,clusterroles,rolebindings,clusterrolebindings';
    const list = JSON.parse(await ok(cluster, `get ${kinds} -A -o json`)) as { items: Record<string, unknown>[] };
    const found: string[] = [];
    for (const item of list.items) {
      const [group] = String(item.apiVersion).includes('/') ? String(item.apiVersion).split('/') : [''];
      const schema = kindSchema(group ?? '', String(item.kind));
      expect(schema, String(item.kind)).toBeDefined();
      for (const u of unknownFields(item, schema!)) found.push(`${String(item.kind)} ${String((item.metadata as { name?: string }).name)}: ${u.path}`);
    }
    expect(found).toEqual([]);
    expect(list.items.length).toBeGreaterThan(50);
  });

  it('kubectl apply of a manifest with a typo fails as 1.33 does (strict by default); --validate=warn creates it with a warning', async () => {
    const cluster = createCluster({ seed: 6, workers: [{ images: [] }] });
    const typo = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replica: 3
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers: [{ name: web, image: nginx:1.27 }]
`;
    const strict = await cluster.kubectl('apply -f typo.yaml', { files: { 'typo.yaml': typo } });
    expect([strict.stdout, strict.stderr, strict.exitCode]).toEqual([
      '',
      'Error from server (BadRequest): error when creating "typo.yaml": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"\n',
      1,
    ]);
    const warned = await cluster.kubectl('apply -f typo.yaml --validate=warn', { files: { 'typo.yaml': typo } });
    expect([warned.stdout, warned.stderr, warned.exitCode]).toEqual(['deployment.apps/web created\n', 'Warning: unknown field "spec.replica"\n', 0]);
    // the existing object: the three-way patch is refused on "patch" (applyPatchToObject)
    const patched = await cluster.kubectl('apply -f typo.yaml', { files: { 'typo.yaml': typo.replace('replica: 3', 'replicas: 2').replace('image: nginx:1.27', 'image: nginx:1.27, imagee: x') } });
    expect(patched.exitCode).toBe(1);
    expect(patched.stderr).toMatch(/^The request is invalid: patch: Invalid value: "map\[metadata:map\[annotations:map\[kubectl\.kubernetes\.io\/last-applied-configuration:\{\\"apiVersion\\":.* spec:map\[replica:<nil> replicas:2 template:.*\]": strict decoding error: unknown field "spec\.template\.spec\.containers\[0\]\.imagee"\n$/s);
  });
});
