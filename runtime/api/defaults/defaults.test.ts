// Defaulting, after pkg/apis/core/v1/defaults_test.go and pkg/apis/apps/v1/defaults_test.go.
import { describe, expect, it } from 'vitest';
import { defaultObject } from './defaults.ts';
import { defaultPullPolicy } from './pod.ts';
import type { KubeObject } from '../types/meta.ts';
import type { Pod, Service } from '../types/core.ts';
import type { DaemonSet, Deployment } from '../types/apps.ts';

describe('image pull policy (TestSetDefaultsImagePullPolicy)', () => {
  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.27', 'IfNotPresent'],
    ['registry.k8s.io:5000/pause', 'Always'],
    ['registry.k8s.io:5000/pause:3.10', 'IfNotPresent'],
    ['busybox@sha256:0123456789abcdef', 'IfNotPresent'],
    ['', 'Always'],
  ])('%j -> %s', (image, want) => expect(defaultPullPolicy(image)).toBe(want));
});

describe('Pod defaults', () => {
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web' },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'nginx:1.27',
          ports: [{ containerPort: 80 }],
          resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m' } },
          readinessProbe: { httpGet: { port: 80 } },
        },
      ],
    },
  };
  it('fills the spec the way the API server does', () => {
    const d = defaultObject(pod);
    expect(d.spec).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      terminationGracePeriodSeconds: 30,
      securityContext: {},
      enableServiceLinks: true,
    });
    expect(d.spec.containers[0]).toMatchObject({
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      ports: [{ containerPort: 80, protocol: 'TCP' }],
      resources: {
        limits: { cpu: '500m', memory: '128Mi' },
        requests: { cpu: '250m', memory: '128Mi' },
      },
      readinessProbe: {
        httpGet: { port: 80, path: '/', scheme: 'HTTP' },
        timeoutSeconds: 1,
        periodSeconds: 10,
        successThreshold: 1,
        failureThreshold: 3,
      },
    });
  });
  it("defaults requests to limits in a Pod, never in a template (SetDefaults_Pod's rule)", () => {
    const deployment = defaultObject({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: pod.spec } },
    } as Deployment);
    expect(deployment.spec.template.spec.containers[0]!.resources).toEqual({ limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m' } });
    expect(deployment.spec.template.spec.containers[0]!.readinessProbe).toMatchObject({ timeoutSeconds: 1, periodSeconds: 10 });
  });
  // SetDefaults_Probe: Go cannot tell 0 from unset (a 0 period once made the kubelet's probe timer throw)
  it.each([
    [{ periodSeconds: 0, timeoutSeconds: 0, successThreshold: 0, failureThreshold: 0 }, { periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 }],
    [{ periodSeconds: 3, timeoutSeconds: 2, successThreshold: 1, failureThreshold: 5 }, { periodSeconds: 3, timeoutSeconds: 2, successThreshold: 1, failureThreshold: 5 }],
    [{ periodSeconds: -1 }, { periodSeconds: -1, timeoutSeconds: 1 }],
  ])('a probe with %j gets %j', (given, want) => {
    const d = defaultObject({ ...pod, spec: { ...pod.spec, containers: [{ name: 'c', image: 'nginx', livenessProbe: { exec: { command: ['true'] }, ...given } }] } });
    expect(d.spec.containers[0]!.livenessProbe).toMatchObject(want);
  });
  it('does not touch its input and keeps explicit values', () => {
    const d = defaultObject({ ...pod, spec: { ...pod.spec, restartPolicy: 'Never' } });
    expect(d.spec.restartPolicy).toBe('Never');
    expect(pod.spec.restartPolicy).toBeUndefined();
  });
  it('sets hostPort on hostNetwork pods', () => {
    const d = defaultObject({ ...pod, spec: { ...pod.spec, hostNetwork: true } });
    expect(d.spec.containers[0]!.ports![0]!.hostPort).toBe(80);
  });
});

describe('apps defaults', () => {
  it('Deployment: replicas 1, RollingUpdate 25%/25%, history 10, deadline 600', () => {
    const d = defaultObject<Deployment>({
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { spec: { containers: [{ name: 'web', image: 'nginx' }] } },
      },
    });
    expect(d.spec).toMatchObject({
      replicas: 1,
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
      },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
    expect(d.spec.template.spec.containers[0]!.imagePullPolicy).toBe('Always');
  });
  it('Recreate gets no rollingUpdate', () => {
    const d = defaultObject<Deployment>({
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        strategy: { type: 'Recreate' },
        selector: {},
        template: { spec: { containers: [] } },
      },
    });
    expect(d.spec.strategy).toEqual({ type: 'Recreate' });
  });
  it('DaemonSet: RollingUpdate maxUnavailable 1 maxSurge 0', () => {
    const d = defaultObject<DaemonSet>({
      kind: 'DaemonSet',
      metadata: { name: 'x' },
      spec: { selector: {}, template: { spec: { containers: [] } } },
    });
    expect(d.spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
    });
    expect(d.spec.revisionHistoryLimit).toBe(10);
  });
});

describe('core defaults', () => {
  it('Service: ClusterIP, None affinity, TCP, targetPort = port', () => {
    const s = defaultObject<Service>({
      kind: 'Service',
      metadata: { name: 'web' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80 }, { port: 443, targetPort: 'https' }] },
    });
    expect(s.spec).toMatchObject({
      type: 'ClusterIP',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      ports: [
        { port: 80, protocol: 'TCP', targetPort: 80 },
        { port: 443, protocol: 'TCP', targetPort: 'https' },
      ],
    });
    expect(s.spec.externalTrafficPolicy).toBeUndefined();
  });
  it('Namespace: label, finalizer, phase', () => {
    const ns = defaultObject({ kind: 'Namespace', metadata: { name: 'team-a' } });
    expect(ns).toMatchObject({
      metadata: { labels: { 'kubernetes.io/metadata.name': 'team-a' } },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  });
  it('RoleBinding subjects and roleRef get their API groups', () => {
    const rb = defaultObject({
      kind: 'RoleBinding',
      metadata: { name: 'x' },
      roleRef: { kind: 'Role', name: 'r', apiGroup: '' },
      subjects: [
        { kind: 'User', name: 'bob' },
        { kind: 'ServiceAccount', name: 'default', namespace: 'default' },
      ],
    });
    expect(rb).toMatchObject({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io' }, { apiGroup: '' }],
    });
  });
  it('never throws on malformed input', () => {
    for (const spec of [
      null,
      'x',
      3,
      { containers: 'nope' },
      { containers: [null, 'x', { ports: 'p', resources: { limits: 'l' } }] },
    ]) {
      expect(() => defaultObject({ kind: 'Pod', metadata: {}, spec } as never)).not.toThrow();
      expect(() =>
        defaultObject({
          kind: 'Deployment',
          metadata: {},
          spec: { strategy: 'x', template: spec },
        } as never),
      ).not.toThrow();
    }
  });
});

describe('quantities in container resources are stored canonically', () => {
  it.each([
    [64, '64'],
    ['0.5', '500m'],
    ['1.5Gi', '1536Mi'],
    ['1000m', '1'],
    [0.25, '250m'],
  ])('%j is stored as %j', (input, stored) => {
    const pod = defaultObject({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: {
        containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: input } } }],
      },
    } as unknown as KubeObject) as unknown as {
      spec: { containers: { resources: { requests: { cpu: unknown } } }[] };
    };
    expect(pod.spec.containers[0]!.resources.requests.cpu).toBe(stored);
  });

  it('leaves a value that does not parse for validation to report', () => {
    const pod = defaultObject({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: 'lots' } } }] },
    } as unknown as KubeObject) as unknown as {
      spec: { containers: { resources: { limits: { cpu: unknown } } }[] };
    };
    expect(pod.spec.containers[0]!.resources.limits.cpu).toBe('lots');
  });
});
