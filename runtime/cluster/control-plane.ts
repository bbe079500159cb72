// Starts the control plane of a plan on the kernel: the etcd members (stacked: one per control-plane
// machine), an API server replica on every control-plane machine, each with its own etcd client
// (stacked: only its own machine's member, as kubeadm configures it), and the load balancer
// when there is more than one replica. Every component is a named process so faults can stop it.
import type { Kernel, ProcessContext } from '../kernel/index.ts';
import { createEtcdCluster, type EtcdClient, type EtcdCluster } from '../etcd/index.ts';
import { rfc3339 } from '../api/index.ts';
import {
  DEFAULT_ADMISSION_PLUGINS, rangeAllocationStorage, SERVICE_NODE_PORTS_KEY, startApiServerReplica, startBootstrapController, startLoadBalancer,
  type ApiServer, type ApiServerReplica, type ComponentCheck, type LoadBalancer,
} from '../apiserver/index.ts';
import { DEFAULT_NODE_PORT_RANGE, ServiceIpRange } from '../network/index.ts';
import { serviceAllocation } from './service-allocation.ts';
import { ensureDefaultServiceCIDR } from './service-cidr.ts';
import { ServiceIpAllocator } from './service-ips.ts';
import { apiServerSecurePort } from './static-pods.ts';
import type { ClusterPlan, MachinePlan } from './options.ts';

/** How the cluster stops, starts and finds each component process. */
export interface Component {
  name: string;
  machine?: string;
  kind: 'etcd' | 'kube-apiserver' | 'load-balancer' | 'kubelet' | 'kube-proxy' | 'kube-scheduler' | 'kube-controller-manager'
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

/** kube-apiserver --service-cluster-ip-range (kubeadm's default). */
export const SERVICE_CIDR = '10.96.0.0/12';

/**
 * A replica's Service allocators (service-allocation.ts): cluster IPs through its loopback client,
 * node ports through its etcd client, each incarnation's own; the state is all in etcd.
 */
function serviceAllocationOf(kernel: Kernel, name: string, incarnation: () => { ctx: ProcessContext; client: EtcdClient; server?: ApiServer } | undefined) {
  const rng = kernel.forkRng(`service-allocators/${name}`);
  const live = () => {
    const now = incarnation();
    return now?.ctx.isLive() ? now : undefined;
  };
  return serviceAllocation({
    ips: new ServiceIpAllocator({ loopback: () => live()?.server, range: new ServiceIpRange(SERVICE_CIDR), rng }),
    nodePorts: () => {
      const now = live();
      return now && rangeAllocationStorage(now.client, SERVICE_NODE_PORTS_KEY, () => rfc3339(now.ctx.now()));
    },
    portRange: DEFAULT_NODE_PORT_RANGE,
    rng,
  });
}

/**
 * componentstatuses' servers to validate (GetServersToValidate): this machine's controller manager
 * and scheduler at their secure ports on 127.0.0.1, answering "ok" while their process runs.
 */
function localComponentChecks(kernel: Kernel, machine: string): ComponentCheck[] {
  const local = (name: string, process: string, port: number): ComponentCheck => ({
    name,
    check: (done) => done(kernel.process(process)?.up
      ? { healthy: true, message: 'ok' }
      : { healthy: false, error: `Get "https://127.0.0.1:${port}/healthz": dial tcp 127.0.0.1:${port}: connect: connection refused` }),
  });
  return [local('controller-manager', `kube-controller-manager-${machine}`, 10257), local('scheduler', `kube-scheduler-${machine}`, 10259)];
}

/**
 * The administrator's client certificate, as in kubeadm's admin.conf since v1.29: the group
 * kubeadm:cluster-admins, which the kubeadm:cluster-admins ClusterRoleBinding grants cluster-admin,
 * so RBAC decides for it like for anyone else (and deleting that binding locks it out).
 */
export const ADMIN_CREDENTIALS = { clientCert: { commonName: 'kubernetes-admin', organizations: ['kubeadm:cluster-admins'] } };

/**
 * kubeadm's super-admin.conf: in system:masters, which the API server allows everything before
 * RBAC is asked. kubeadm init uses it once, to create the kubeadm:cluster-admins binding.
 */
export const SUPER_ADMIN_CREDENTIALS = { clientCert: { commonName: 'kubernetes-super-admin', organizations: ['system:masters'] } };

/**
 * kube-apiserver --etcd-servers: kubeadm's stacked etcd gives each API server only its own machine's
 * member (https://127.0.0.1:2379, cmd/kubeadm/app/phases/controlplane/manifests.go), so an API server
 * whose member is down has no etcd at all (its readyz fails and the load balancer drops it). A managed
 * control plane stands for a provider's, whose API servers list every member of an external etcd.
 */
function etcdServersOf(plan: ClusterPlan, etcd: EtcdCluster, localMember: string | undefined): { endpoints?: string[] } {
  if (plan.topology === 'managed' || localMember === undefined) return {};
  const url = etcd.endpoints[etcd.members.findIndex((m) => m.process === localMember)];
  return url === undefined ? {} : { endpoints: [url] };
}

export function startControlPlane(kernel: Kernel, plan: ClusterPlan): ControlPlane {
  // kubeadm names each member after its machine (etcd --name=<node>) and advertises its machine's IP
  const machineOf = (member: string): MachinePlan => plan.machines.find((m) => m.etcdMember === member)!;
  const etcd = createEtcdCluster(kernel, {
    members: plan.etcdMembers.length as 1 | 3 | 5,
    names: plan.etcdMembers,
    memberName: (member) => machineOf(member).name,
    clientURL: (member) => `https://${machineOf(member).internalIP}:2379`,
    peerURL: (member) => `https://${machineOf(member).internalIP}:2380`,
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
  const etcdClientOf = new Map<string, string>();
  const replicas: ApiServerReplica[] = [];
  for (const m of plan.machines) {
    if (!m.apiServer) continue;
    const name = m.apiServer;
    let incarnation: { ctx: ProcessContext; client: EtcdClient; server?: ApiServer } | undefined;
    const replica = startApiServerReplica(kernel, {
      name,
      admissionPlugins: [...DEFAULT_ADMISSION_PLUGINS, serviceAllocationOf(kernel, name, () => incarnation)],
      advertiseAddress: `${m.internalIP}:${apiServerSecurePort(plan)}`,
      // kubeadm copies one sa.key to every control-plane machine: any replica verifies any token
      serviceAccountKey: `sa.key/${plan.seed}`,
      componentChecks: () => localComponentChecks(kernel, m.name),
      etcdClient: (ctx: ProcessContext) => {
        const clientName = `${name}/etcd-client-${ctx.incarnation}`;
        etcdClientOf.set(name, clientName);
        const client = etcd.client({ name: clientName, ...etcdServersOf(plan, etcd, m.etcdMember), isLive: () => ctx.isLive() });
        incarnation = { ctx, client };
        return client;
      },
      // the kubernetes Service and its endpoints (bootstrap-controller.ts), in each incarnation
      onStart: (server) => {
        const now = incarnation;
        if (!now) return;
        now.server = server;
        server.onReady(() => ensureDefaultServiceCIDR(server, SERVICE_CIDR, () => now.ctx.now(), now.ctx.isLive));
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
