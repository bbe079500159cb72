// kubectl rollout pause|resume, annotate, run, expose, version, cluster-info and top on a whole
// simulated cluster, with the texts real kubectl v1.33 prints.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Deployment, Pod, ReplicaSet, Service } from '../../api/index.ts';
import { createCluster, type Cluster } from '../../cluster/index.ts';

async function run(cluster: Cluster, args: string): Promise<{ out: string; err: string; code: number }> {
  const r = await cluster.kubectl(args);
  return { out: r.stdout, err: r.stderr, code: r.exitCode };
}

const json = async <T>(cluster: Cluster, args: string): Promise<T> => JSON.parse((await run(cluster, `${args} -o json`)).out) as T;

describe('kubectl rollout pause / resume and the change-cause', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = createCluster({ seed: 5, topology: 'single-node', workers: 2 });
    await run(cluster, 'create deployment web --image=nginx:1.27 --replicas=2');
    await cluster.advance(20_000);
  });

  it('pauses: a template change makes no new ReplicaSet until resumed', async () => {
    expect(await run(cluster, 'rollout pause deployment/web')).toEqual({ out: 'deployment.apps/web paused\n', err: '', code: 0 });
    expect(await run(cluster, 'rollout pause deployment/web')).toEqual({ out: '', err: 'error: deployments.apps "web" is already paused\n', code: 1 });
    await run(cluster, 'set image deployment/web nginx=nginx:1.28');
    await run(cluster, 'annotate deployment/web kubernetes.io/change-cause="nginx 1.28"');
    await cluster.advance(20_000);
    expect((await json<{ items: ReplicaSet[] }>(cluster, 'get rs')).items).toHaveLength(1);
    const d = await json<Deployment>(cluster, 'get deployment web');
    expect(d.spec.paused).toBe(true);
    expect(d.status?.conditions?.find((c) => c.type === 'Progressing')?.reason).toBe('DeploymentPaused');

    expect(await run(cluster, 'rollout resume deployment web')).toEqual({ out: 'deployment.apps/web resumed\n', err: '', code: 0 });
    expect(await run(cluster, 'rollout resume deployment web')).toEqual({ out: '', err: 'error: deployments.apps "web" is not paused\n', code: 1 });
    await cluster.advance(30_000);
    expect((await json<Deployment>(cluster, 'get deployment web')).spec.paused).toBeUndefined();
    expect((await run(cluster, 'rollout status deployment/web')).out).toBe('deployment "web" successfully rolled out\n');
  });

  it("copies the deployment's change-cause to its ReplicaSet, which rollout history shows", async () => {
    expect((await run(cluster, 'rollout history deployment/web')).out).toBe(
      'deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         nginx 1.28\n\n',
    );
    // annotated after its ReplicaSet exists: the controller updates that ReplicaSet (getNewReplicaSet)
    await run(cluster, 'annotate deployment/web kubernetes.io/change-cause="nginx 1.28, annotated later" --overwrite');
    await cluster.advance(5_000);
    expect((await run(cluster, 'rollout history deployment/web')).out).toBe(
      'deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         nginx 1.28, annotated later\n\n',
    );
  });

  it('refuses kinds it cannot pause', async () => {
    expect(await run(cluster, 'rollout pause daemonset/kindnet -n kube-system')).toEqual({
      out: '',
      err: 'error: daemonsets.apps "kindnet" pausing is not supported\n',
      code: 1,
    });
  });

  it('annotates: refuses to overwrite a different value without --overwrite, removes with key-', async () => {
    expect((await run(cluster, 'annotate deployment web team=a')).out).toBe('deployment.apps/web annotated\n');
    expect(await run(cluster, 'annotate deployment web team=b')).toEqual({
      out: '',
      err: "error: --overwrite is false but found the following declared annotation(s): 'team' already has a value (a)\n",
      code: 1,
    });
    expect((await run(cluster, 'annotate deployment web team=a')).code).toBe(0);
    expect((await run(cluster, 'annotate deployment web team=b --overwrite')).out).toBe('deployment.apps/web annotated\n');
    expect((await json<Deployment>(cluster, 'get deployment web')).metadata.annotations?.team).toBe('b');
    expect((await run(cluster, 'annotate deployment web team-')).out).toBe('deployment.apps/web annotated\n');
    expect((await json<Deployment>(cluster, 'get deployment web')).metadata.annotations?.team).toBeUndefined();
    expect((await run(cluster, 'annotate deployment web')).err).toBe('error: at least one annotation update is required\n');
    expect((await run(cluster, 'annotate deployment web x=1 x-')).err).toBe(
      'error: can not both modify and remove the following annotation(s) in the same command: x\n',
    );
  });
});

describe('kubectl run and expose', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = createCluster({ seed: 6, topology: 'single-node', workers: 1 });
    await run(cluster, 'create deployment web --image=nginx:1.27 --replicas=2 --port=80');
    await cluster.advance(15_000);
  });

  it('runs a pod labelled run=<name>, with the words after -- as its args', async () => {
    expect(await run(cluster, 'run box --image=busybox --restart=Never -- sleep 3600')).toEqual({ out: 'pod/box created\n', err: '', code: 0 });
    const pod = await json<Pod>(cluster, 'get pod box');
    expect(pod.metadata.labels).toEqual({ run: 'box' });
    expect(pod.spec.restartPolicy).toBe('Never');
    expect(pod.spec.containers).toMatchObject([{ name: 'box', image: 'busybox', args: ['sleep', '3600'] }]);
    expect((await run(cluster, 'run nope')).err).toBe('error: required flag(s) "image" not set\n');
  });

  it('prints the pod it would create with --dry-run=client -o yaml', async () => {
    const r = await run(cluster, 'run nginx --image=nginx --port=80 --dry-run=client -o yaml');
    expect(r.out).toBe(
      'apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n    run: nginx\n  name: nginx\nspec:\n  containers:\n  - image: nginx\n    name: nginx\n    ports:\n    - containerPort: 80\n    resources: {}\n  dnsPolicy: ClusterFirst\n  restartPolicy: Always\nstatus: {}\n',
    );
    expect((await run(cluster, 'get pod nginx')).code).toBe(1);
  });

  it("exposes a deployment: its selector, its labels, the template's port", async () => {
    expect(await run(cluster, 'expose deployment web')).toEqual({ out: 'service/web exposed\n', err: '', code: 0 });
    const svc = await json<Service>(cluster, 'get service web');
    expect(svc.metadata.labels).toEqual({ app: 'web' });
    expect(svc.spec.selector).toEqual({ app: 'web' });
    expect(svc.spec.ports).toEqual([{ port: 80, protocol: 'TCP', targetPort: 80 }]);
    expect(svc.spec.type).toBe('ClusterIP');
  });

  it('exposes with --port, --target-port, --name and --type; refuses what it cannot expose', async () => {
    expect((await run(cluster, 'expose deployment web --port=8080 --target-port=80 --name=web-np --type=NodePort')).out).toBe('service/web-np exposed\n');
    const svc = await json<Service>(cluster, 'get service web-np');
    expect(svc.spec.ports?.[0]).toMatchObject({ port: 8080, targetPort: 80, protocol: 'TCP' });
    expect(svc.spec.ports?.[0]?.nodePort).toBeGreaterThanOrEqual(30000);
    expect(await run(cluster, 'expose node worker-1 --port=80')).toEqual({ out: '', err: 'error: cannot expose a Node\n', code: 1 });
    await run(cluster, 'create deployment noport --image=nginx:1.27');
    expect((await run(cluster, 'expose deployment noport')).err).toBe("error: couldn't find port via --port flag or introspection\n");
  });

  it('run --expose creates the Service, then the Pod; the Service finds it', async () => {
    expect((await run(cluster, 'run api --image=nginx --port=80 --expose')).out).toBe('service/api created\npod/api created\n');
    await cluster.advance(10_000);
    const slices = await json<{ items: { endpoints?: unknown[] }[] }>(cluster, 'get endpointslices -l kubernetes.io/service-name=api');
    expect(slices.items[0]?.endpoints).toHaveLength(1);
  });
});

describe('kubectl version, cluster-info and top', () => {
  const cluster = createCluster({ seed: 7, topology: 'ha', workers: 1 });

  it('prints the client, kustomize and server versions', async () => {
    expect(await run(cluster, 'version')).toEqual({ out: 'Client Version: v1.33.0\nKustomize Version: v5.6.0\nServer Version: v1.33.0\n', err: '', code: 0 });
    expect((await run(cluster, 'version --client')).out).toBe('Client Version: v1.33.0\nKustomize Version: v5.6.0\n');
  });

  it("names the control plane's URL (the load balancer in front of the API servers) and the cluster services (CoreDNS)", async () => {
    expect((await run(cluster, 'cluster-info')).out).toBe(
      'Kubernetes control plane is running at https://control-plane.cluster.local:6443\n' +
        'CoreDNS is running at https://control-plane.cluster.local:6443/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy\n' +
        "\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n",
    );
  });

  it('has no Metrics API (no metrics-server, as on kubeadm and kind clusters)', async () => {
    expect(await run(cluster, 'top nodes')).toEqual({ out: '', err: 'error: Metrics API not available\n', code: 1 });
    expect((await run(cluster, 'top pod -A')).err).toBe('error: Metrics API not available\n');
  });
});
