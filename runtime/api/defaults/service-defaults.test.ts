// Server-side defaulting of a Service (pkg/apis/core/v1/defaults.go SetDefaults_Service): what
// `kubectl get svc -o yaml` shows on a real cluster for each type.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../types/meta.ts';
import { applyDefaults } from './defaults.ts';

const service = (spec: Record<string, unknown>): KubeObject & { spec: Record<string, unknown> } =>
  ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80 }], ...spec } }) as KubeObject & { spec: Record<string, unknown> };

describe('SetDefaults_Service', () => {
  it.each([
    ['ClusterIP', {}, { type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' }],
    ['NodePort', { type: 'NodePort' }, { type: 'NodePort', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster', externalTrafficPolicy: 'Cluster' }],
    ['LoadBalancer', { type: 'LoadBalancer' }, { type: 'LoadBalancer', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster', externalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true }],
    ['ClusterIP with external IPs', { externalIPs: ['203.0.113.5'] }, { type: 'ClusterIP', externalTrafficPolicy: 'Cluster', internalTrafficPolicy: 'Cluster' }],
    ['ExternalName', { type: 'ExternalName', externalName: 'db.example.com' }, { type: 'ExternalName', sessionAffinity: 'None' }],
    ['ClientIP affinity', { sessionAffinity: 'ClientIP' }, { sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } } }],
    ['a given policy is kept', { type: 'NodePort', externalTrafficPolicy: 'Local' }, { externalTrafficPolicy: 'Local' }],
  ] as [string, Record<string, unknown>, Record<string, unknown>][])('%s', (_name, spec, want) => {
    const s = service(spec);
    applyDefaults(s);
    expect(s.spec).toMatchObject(want);
    expect(s.spec.ports).toEqual([{ port: 80, protocol: 'TCP', targetPort: 80 }]);
    if (s.spec.type === 'ExternalName') expect(s.spec).not.toHaveProperty('internalTrafficPolicy');
    if (s.spec.type === 'ClusterIP' && !spec.externalIPs) expect(s.spec).not.toHaveProperty('externalTrafficPolicy');
  });

  it('drops sessionAffinityConfig when affinity is None', () => {
    const s = service({ sessionAffinity: 'None', sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } });
    applyDefaults(s);
    expect(s.spec).not.toHaveProperty('sessionAffinityConfig');
  });
});
