import { describe, expect, it } from 'vitest';
import { discoveryDocument } from './discovery.ts';

type ResourceList = { groupVersion: string; resources: { name: string; kind: string; verbs: string[]; group?: string; version?: string; shortNames?: string[] }[] };

describe('discovery documents', () => {
  it('/api lists the core version and where to reach the server', () => {
    expect(discoveryDocument('/api', '192.168.49.2:6443')).toEqual({
      kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '192.168.49.2:6443' }],
    });
  });

  it('/apis lists the groups in priority order, each with its preferred version', () => {
    const list = discoveryDocument('/apis', 'x') as { groups: { name: string; preferredVersion: { groupVersion: string } }[] };
    const names = list.groups.map((g) => g.name);
    expect(names.slice(0, 2)).toEqual(['apps', 'authentication.k8s.io']);
    expect(names.indexOf('networking.k8s.io')).toBeLessThan(names.indexOf('policy'));
    expect(names.indexOf('policy')).toBeLessThan(names.indexOf('rbac.authorization.k8s.io'));
    expect(list.groups.find((g) => g.name === 'apps')?.preferredVersion).toEqual({ groupVersion: 'apps/v1', version: 'v1' });
    expect(discoveryDocument('/apis/apps', 'x')).toEqual({ kind: 'APIGroup', apiVersion: 'v1', name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }], preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } });
  });

  it("lists a version's resources sorted by path, each subresource after its resource, with its own kind", () => {
    const core = discoveryDocument('/api/v1', 'x') as ResourceList;
    const names = core.resources.map((r) => r.name);
    expect(names).toEqual([...names].sort());
    expect(names.slice(names.indexOf('pods'), names.indexOf('pods') + 3)).toEqual(['pods', 'pods/attach', 'pods/binding']);
    expect(core.resources.find((r) => r.name === 'pods')).toMatchObject({ kind: 'Pod', shortNames: ['po'], verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] });
    expect(core.resources.find((r) => r.name === 'pods/log')).toEqual({ name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] });
    expect(core.resources.find((r) => r.name === 'pods/eviction')).toMatchObject({ kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] });
    const apps = discoveryDocument('/apis/apps/v1', 'x') as ResourceList;
    expect(apps.groupVersion).toBe('apps/v1');
    expect(apps.resources.find((r) => r.name === 'deployments/scale')).toMatchObject({ kind: 'Scale', group: 'autoscaling', version: 'v1' });
  });

  it('is undefined for anything else', () => {
    for (const path of ['/apis/nope', '/apis/apps/v2', '/api/v2', '/healthz', '/apis/apps/v1/deployments']) expect(discoveryDocument(path, 'x'), path).toBeUndefined();
  });
});
