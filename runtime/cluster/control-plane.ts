// Starts the control plane of a plan on the kernel: the etcd members (stacked: one per control-plane
// machine), an API server replica on every control-plane machine, each with its own etcd client
// (kube-apiserver --etcd-servers lists every member; the client fails over), and the load balancer
// when there is more than one replica. Every component is a named process so faults can stop it.
import type { Kernel, ProcessContext } from '../kernel/index.ts';
import { createEtcdCluster, type EtcdClient, type EtcdCluster } from '../etcd/index.ts';
import {
  DEFAULT_ADMISSION_PLUGINS, startApiServerReplica, startBootstrapController, startLoadBalancer, type ApiServer, type ApiServerReplica, type LoadBalancer,
} from '../apiserver/index.ts';
import { ClusterIpAllocator, NodePortAllocator } from '../network/index.ts';
import { serviceIpAllocation } from './service-ips.ts';
import { serviceNodePortAllocation } from './service-node-ports.ts';
import { apiServerSecurePort } from './static-pods.ts';
import type { ClusterPlan } from './options.ts';

/** How the cluster stops, starts and finds each component process. */
export interface Component {
  name: string;
  machine?: string;
  kind: 'etcd' | 'kube-apiserver' | 'load-balancer' | 'kubelet' | 'kube-proxy' | 'kube-scheduler' | 'kube-controller-manager' | 'node-lifecycle-controller'
    | 'cloud-controller-manager';
  isUp(): boolean;
  stop(): void;
  start(): void;
  /** Network endpoints this component uses right now (its own, plus e.g. its etcd client). */
  endpoints(): string[];
  /** What else dies when the whole machine stops (the kubelet's containers). */
  onMachineStop?(): void;
}

export interface ControlPlane {
  etcd: EtcdCluster;
  replicas: ApiServerReplica[];
  loadBalancer?: LoadBalancer;
  components: Map<string, Component>;
  /** The replicas' pipelines that are running now. */
  liveServers(): ApiServer[];
}

/** The adminstrator's client certificate, as in kubeadm's admin.conf. */
export const ADMIN_CREDENTIALS = { clientCert: { commonName: 'kubernetes-admin', organizations: ['system:masters'] } };

export function startControlPlane(kernel: Kernel, plan: ClusterPlan): ControlPlane {
  const etcd = createEtcdCluster(kernel, {
    members: plan.etcdMembers.length as 1 | 3 | 5,
    names: plan.etcdMembers,
    clusterToken: 'kubernetes-etcd',
  });
  const components = new Map<string, Component>();
  for (const m of plan.machines) {
    if (!m.etcdMember) continue;
    const name = m.etcdMember;
    components.set(name, {
      name, machine: m.name, kind: 'etcd',
      isUp: () => kernel.process(name)?.up ?? false,
      stop: () => kernel.crash(name),
      start: () => {
        if (!kernel.process(name)?.up) kernel.process(name)?.start();
      },
      endpoints: () => [name],
    });
  }
  // one allocator for every replica, as the real one is one bitmap in etcd (service-ips.ts);
  // node ports first, so a refused port does not leave a cluster IP taken (service-node-ports.ts)
  const admissionPlugins = [
    ...DEFAULT_ADMISSION_PLUGINS,
    serviceNodePortAllocation(new NodePortAllocator(kernel.forkRng('service-node-ports'))),
    serviceIpAllocation(new ClusterIpAllocator(kernel.forkRng('service-cluster-ips'))),
  ];
  const etcdClientOf = new Map<string, string>();
  const replicas: ApiServerReplica[] = [];
  for (const m of plan.machines) {
    if (!m.apiServer) continue;
    const name = m.apiServer;
    let incarnation: { ctx: ProcessContext; client: EtcdClient } | undefined;
    const replica = startApiServerReplica(kernel, {
      name,
      admissionPlugins,
      etcdClient: (ctx: ProcessContext) => {
        const clientName = `${name}/etcd-client-${ctx.incarnation}`;
        etcdClientOf.set(name, clientName);
        const client = etcd.client({ name: clientName, isLive: () => ctx.isLive() });
        incarnation = { ctx, client };
        return client;
      },
      // the kubernetes Service and its endpoints (bootstrap-controller.ts), in each incarnation
      onStart: (server) => {
        const now = incarnation;
        if (!now) return;
        server.onReady(() => startBootstrapController({
          server, etcd: now.client, clock: now.ctx, isLive: now.ctx.isLive, advertiseIP: m.internalIP, securePort: apiServerSecurePort(plan),
        }));
      },
    });
    replicas.push(replica);
    components.set(name, {
      name, machine: m.name, kind: 'kube-apiserver',
      isUp: () => kernel.process(name)?.up ?? false,
      stop: () => replica.stop(),
      start: () => replica.start(),
      endpoints: () => [name, ...(etcdClientOf.has(name) ? [etcdClientOf.get(name)!] : [])],
    });
  }
  let loadBalancer: LoadBalancer | undefined;
  if (plan.loadBalancer) {
    const name = plan.loadBalancer;
    loadBalancer = startLoadBalancer(kernel, { name, backends: plan.apiServers });
    components.set(name, {
      name, kind: 'load-balancer',
      isUp: () => kernel.process(name)?.up ?? false,
      stop: () => kernel.crash(name),
      start: () => {
        if (!kernel.process(name)?.up) kernel.process(name)?.start();
      },
      endpoints: () => [name],
    });
  }
  return {
    etcd, replicas, components,
    ...(loadBalancer ? { loadBalancer } : {}),
    liveServers: () => replicas.flatMap((r) => {
      const s = r.current();
      return s ? [s] : [];
    }),
  };
}
