// kubectl get --raw: the API as it is on the wire. A resource path is the resource request it
// names (authorized as one), answered with the serializer's JSON; discovery documents and the
// health endpoints are non-resource paths.
import { describe, expect, it } from 'vitest';
import { createCluster } from './cluster.ts';

describe('kubectl get --raw', { timeout: 60_000 }, () => {
  it('reads objects and lists by their URL, in the JSON the API server writes', async () => {
    const cluster = createCluster({ seed: 21, workers: [{}] });
    await cluster.kubectl('create deployment web --image=nginx:1.27 --replicas=2');
    await cluster.advance(20_000);
    const list = await cluster.kubectl('get --raw /apis/apps/v1/namespaces/default/deployments');
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^\{"kind":"DeploymentList","apiVersion":"apps\/v1","metadata":\{"resourceVersion":"\d+"\},"items":\[\{"metadata":\{"name":"web","namespace":"default","uid":"/);
    expect(list.stdout.endsWith('}\n')).toBe(true);
    const one = JSON.parse((await cluster.kubectl('get --raw /apis/apps/v1/namespaces/default/deployments/web')).stdout) as Record<string, unknown>;
    expect(Object.keys(one).slice(0, 3)).toEqual(['kind', 'apiVersion', 'metadata']);
    expect(one).toMatchObject({ kind: 'Deployment', status: { readyReplicas: 2 } });
    // the same object kubectl shows, field for field
    expect(one).toEqual({ ...JSON.parse((await cluster.kubectl('get deployment web -o json')).stdout), kind: 'Deployment' });
    const pods = JSON.parse((await cluster.kubectl('get --raw /api/v1/namespaces/default/pods?labelSelector=app%3Dweb&limit=1')).stdout) as { items: unknown[]; metadata: { continue?: string } };
    expect(pods.items).toHaveLength(1);
    expect(pods.metadata.continue).toBeDefined();
    expect((await cluster.kubectl('get --raw /api/v1/nopes')).stderr).toBe('Error from server (NotFound): the server could not find the requested resource\n');
    expect((await cluster.kubectl('get --raw /api/v1/pods?watch=true')).exitCode).toBe(1);
  });

  it('serves discovery, and authorizes a resource path as the resource request it is', async () => {
    const cluster = createCluster({ seed: 22, topology: 'ha', workers: 0 });
    const api = JSON.parse((await cluster.kubectl('get --raw /api')).stdout) as { serverAddressByClientCIDRs: { serverAddress: string }[] };
    expect(api.serverAddressByClientCIDRs[0]!.serverAddress).toMatch(/^192\.168\.49\.[234]:6443$/);
    expect((await cluster.kubectl('get --raw /apis/apps/v1')).stdout).toContain('{"name":"deployments","singularName":"deployment","namespaced":true,"kind":"Deployment"');
    // no binding lets jane list kube-system's pods, whichever way she asks
    expect((await cluster.kubectl('get --raw /api/v1/namespaces/kube-system/pods --as=jane')).stderr).toBe(
      'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "kube-system"\n',
    );
    // system:public-info-viewer opens /healthz and /version to everyone, not /metrics
    expect((await cluster.kubectl('get --raw /healthz --as=jane')).stdout).toBe('ok');
    expect((await cluster.kubectl('get --raw /metrics --as=jane')).stderr).toBe('Error from server (Forbidden): forbidden: User "jane" cannot get path "/metrics"\n');
  });
});
