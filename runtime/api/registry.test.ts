import { describe, expect, it } from 'vitest';
import {
  apiVersionOf,
  lookupResource,
  resourceFor,
  resourceForKind,
  resourcesInCategory,
} from './registry.ts';

describe('kind registry', () => {
  const lookups: [string, string, string][] = [
    ['po', 'pods', ''],
    ['pod', 'pods', ''],
    ['Pods', 'pods', ''],
    ['deploy', 'deployments', 'apps'],
    ['deployments.apps', 'deployments', 'apps'],
    ['deploy.v1.apps', 'deployments', 'apps'],
    ['rs', 'replicasets', 'apps'],
    ['svc', 'services', ''],
    ['ns', 'namespaces', ''],
    ['no', 'nodes', ''],
    ['ds', 'daemonsets', 'apps'],
    ['ev', 'events', ''],
    ['events.events.k8s.io', 'events', 'events.k8s.io'],
    ['cm', 'configmaps', ''],
    ['sa', 'serviceaccounts', ''],
    ['endpointslices', 'endpointslices', 'discovery.k8s.io'],
    ['leases', 'leases', 'coordination.k8s.io'],
    ['clusterrolebinding', 'clusterrolebindings', 'rbac.authorization.k8s.io'],
  ];
  it.each(lookups)('resolves %s', (typed, resource, group) => {
    const r = lookupResource(typed);
    expect(r?.resource).toBe(resource);
    expect(r?.group).toBe(group);
  });
  it('rejects unknown names', () => {
    expect(lookupResource('pdos')).toBeUndefined();
    expect(lookupResource('pods.apps')).toBeUndefined();
  });
  it('maps kinds to resources and apiVersions', () => {
    expect(resourceForKind('Deployment')?.resource).toBe('deployments');
    expect(resourceForKind('Event', 'events.k8s.io/v1')?.group).toBe('events.k8s.io');
    expect(resourceForKind('Deployment', 'v1')).toBeUndefined();
    expect(apiVersionOf(resourceFor('apps', 'replicasets')!)).toBe('apps/v1');
    expect(apiVersionOf(resourceFor('', 'pods')!)).toBe('v1');
    expect(resourceFor('', 'nodes')?.namespaced).toBe(false);
  });
  it('lists category all as kubectl get all does', () => {
    expect(resourcesInCategory('all').map((r) => r.resource)).toEqual([
      'pods',
      'services',
      'deployments',
      'replicasets',
      'daemonsets',
    ]);
  });
});
