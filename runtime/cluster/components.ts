// The components that make a cluster do something, started on the kernel beside the control plane:
// on every visible machine a container runtime, a kubelet and kube-proxy (kubeadm runs them on
// control-plane machines too; kube-proxy runs while its DaemonSet pod's container does); on every
// control-plane machine a kube-scheduler and a kube-controller-manager, which elect one leader each
// through their Leases (kubeadm's static pods); the node lifecycle controller is one of the
// controller manager's loops, as upstream. Each is a named process with its real credentials and
// its own REST client endpoint, so faults.stopComponent / stopNode / partition reach it.
import { clusterCAPem } from './cluster-ca.ts';
import type { Kernel } from '../kernel/index.ts';
import { RestClient, ThrottleLog, type ClientRateLimits, type RestCredentials, type RestHost } from '../client/index.ts';
import { ContainerRuntime } from '../cri/index.ts';
import { CniConfigDirs, ClusterNetwork, KINDNET_CONFIG_FILE, corednsProgram, kindnetConfList, kindnetProgram, kubeProxyProgram } from '../network/index.ts';
import { startKubelet, type StaticPodSource } from '../kubelet/index.ts';
import { startScheduler, type KubeSchedulerConfiguration } from '../scheduler/index.ts';
import { ALL_CONTROLLERS, controllerManagerClientSuffixes, startControllerManager, type ControllerName } from '../controllers/index.ts';
import { ADMIN_CREDENTIALS, type Component } from './control-plane.ts';
import { nodeObject, podCIDR } from './nodes.ts';
import type { ClusterPlan, MachinePlan } from './options.ts';
import { apiServerSecurePort } from './static-pods.ts';
import type { RateLimitedComponent } from './client-rate-limits.ts';

export interface ClusterComponents {
  network: ClusterNetwork;
  /** Each machine's /etc/cni/net.d, which kindnet fills (network/kindnet.ts). */
  cniConfigs: CniConfigDirs;
  /** The container runtime of each visible machine (replaced when the machine reboots). */
  runtimes: Map<string, ContainerRuntime>;
}

const nodeCredentials = (node: string): RestCredentials => ({ clientCert: { commonName: `system:node:${node}`, organizations: ['system:nodes'] } });
const KUBE_PROXY_CREDENTIALS: RestCredentials = { clientCert: { commonName: 'system:kube-proxy' } };
const SCHEDULER_CREDENTIALS: RestCredentials = { clientCert: { commonName: 'system:kube-scheduler' } };
const KCM_CREDENTIALS: RestCredentials = { clientCert: { commonName: 'system:kube-controller-manager' } };
/** kindnet's pods run as the kube-system/kindnet service account (kind's manifest, addons.ts). */
const KINDNET_CREDENTIALS: RestCredentials = { token: 'sa-token:kube-system:kindnet' };
const COREDNS_CREDENTIALS: RestCredentials = { token: 'sa-token:kube-system:coredns' };
/**
 * The controllers kube-controller-manager runs: all of them (podgc included: in a managed cluster
 * the cloud-controller-manager deletes the Nodes of deleted instances and podgc removes their pods).
 */
const kcmControllers = (_plan: ClusterPlan): ControllerName[] => [...ALL_CONTROLLERS];

export function startComponents(
  kernel: Kernel, plan: ClusterPlan, components: Map<string, Component>,
  /** The static pods of a control-plane machine's kubelet (kubeadm's manifests), when it has any. */
  staticPodsOf?: (m: MachinePlan) => StaticPodSource | undefined,
): ClusterComponents {
  // without kindnet's routes (big clusters, no kind bootstrap) the machines' gateway routes the podCIDRs
  const network = new ClusterNetwork(kernel.forkRng('network'), { gatewayRoutesPodCIDRs: !plan.kindnetRoutes });
  const runtimes = new Map<string, ContainerRuntime>();
  const clientOf = processClient(kernel, plan);
  const cniConfigs = new CniConfigDirs();
  // unless the plan asks for kind's CNI bootstrap, the machines come with kindnet's config
  // already written (kindnet's pods also need a controller manager and a scheduler)
  for (const m of plan.machines.filter((x) => x.visible)) {
    if (!plan.cniFromKindnet) cniConfigs.write(m.name, KINDNET_CONFIG_FILE, kindnetConfList(podCIDR(m)));
    startNodeComponents(kernel, m, { network, cniConfigs, runtimes }, clientOf, components, {
      staticPods: staticPodsOf?.(m), podSubnet: plan.podSubnet, kindnetRoutes: plan.kindnetRoutes, limits: plan.clientRateLimits,
    });
  }
  for (const m of plan.machines.filter((x) => x.role === 'control-plane')) startControlPlaneComponents(kernel, plan, m, clientOf, components);
  return { network, cniConfigs, runtimes };
}

/** Where a client sends its requests: a network endpoint and the URL its kubeconfig names. */
export interface ApiTarget {
  endpoint: string;
  url: string;
}

export type ClientFactory = (process: string, credentials: RestCredentials, suffix?: string, limits?: ClientRateLimits, target?: ApiTarget) => RestClient;

/**
 * A REST client owned by a process: it sends nothing and hears nothing while the process is down,
 * as a dead program's sockets do (its endpoint is `<process>-client`). With `limits` (the
 * component's rest.Config QPS/Burst) it waits for its token bucket, and long waits are recorded
 * in the trace as the process's client-go log lines.
 */
export function processClient(kernel: Kernel, plan: ClusterPlan): ClientFactory {
  return (process, credentials, suffix, limits, target) => {
    const up = (): boolean => kernel.process(process)?.up === true;
    const host: RestHost = {
      now: () => kernel.now(),
      setTimer: (ms, fn) => kernel.setTimer(ms, fn),
      send: (from, to, msg) => {
        if (up()) kernel.send(from, to, msg);
      },
      setHandler: (name, handler) => kernel.setHandler(name, handler && ((msg, from) => {
        if (up()) handler(msg, from);
      })),
      isUp: (name) => kernel.net.isUp(name),
    };
    const throttling = limits ? { ...limits, throttleLog: new ThrottleLog((line) => kernel.record('client.throttled', process, line)) } : {};
    return new RestClient(host, { name: suffix ? `${process}-${suffix}-client` : `${process}-client`, server: target?.endpoint ?? plan.serverEndpoint, serverURL: target?.url ?? plan.serverURL, credentials, userAgent: process, ...throttling });
  };
}

interface NodeExtras {
  /** The static pods of the machine's kubelet (kubeadm's manifests), when it has any. */
  staticPods: StaticPodSource | undefined;
  podSubnet: string;
  /** Whether kindnet routes the other nodes' podCIDRs (ClusterPlan.kindnetRoutes). */
  kindnetRoutes: boolean;
  /** Each component's client QPS and burst (ClusterPlan.clientRateLimits). */
  limits: Record<RateLimitedComponent, ClientRateLimits>;
}

function startNodeComponents(
  kernel: Kernel, m: MachinePlan, { network, cniConfigs, runtimes }: ClusterComponents,
  clientOf: ClientFactory, components: Map<string, Component>, { staticPods, podSubnet, kindnetRoutes, limits }: NodeExtras,
): void {
  // kube-proxy runs in its DaemonSet pod's container (network/kube-proxy.ts): it follows the runtime
  const proxy = `kube-proxy-${m.name}`;
  const kubeProxy = kubeProxyProgram(kernel, { nodeName: m.name, clusterCIDR: podSubnet, network, restClient: clientOf(proxy, KUBE_PROXY_CREDENTIALS, undefined, limits['kube-proxy']), processName: proxy });
  // kindnet writes the node's CNI config once its container has read the node's Node (until then the
  // runtime's network is not ready) and routes the other nodes' podCIDRs
  const kindnetProcess = `kindnet-${m.name}`;
  const kindnet = kindnetProgram(kernel, {
    nodeName: m.name, nodeIP: m.internalIP, configs: cniConfigs, network, restClient: clientOf(kindnetProcess, KINDNET_CREDENTIALS, undefined, limits.kindnet),
    processName: kindnetProcess, routes: kindnetRoutes,
  });
  // CoreDNS runs in the coredns Deployment's containers that land on this node
  const corednsProcess = `coredns-${m.name}`;
  const coredns = corednsProgram(kernel, {
    nodeName: m.name, restClient: clientOf(corednsProcess, COREDNS_CREDENTIALS, undefined, limits.coredns), processName: corednsProcess,
    register: (server) => network.setDnsServer(m.name, server),
  });
  const newRuntime = (preloaded: string[]): ContainerRuntime => {
    const cri = new ContainerRuntime(kernel, {
      nodeName: m.name, rng: kernel.forkRng(`cri-${m.name}-${runtimes.size}`), preloadedImages: preloaded,
      networkConfigured: () => cniConfigs.configured(m.name),
    });
    runtimes.set(m.name, cri);
    kubeProxy.follow(cri);
    kindnet.follow(cri);
    coredns.follow(cri);
    return cri;
  };
  newRuntime((m.spec.images ?? []).flatMap((i) => i.names.slice(0, 1)));
  // the kubelet reads the runtime through this indirection, so a rebooted machine gets a fresh one
  const cri = new Proxy({} as ContainerRuntime, {
    get: (_t, key) => {
      const live = runtimes.get(m.name)!;
      const v = Reflect.get(live, key, live) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(live) : v;
    },
  });
  const cni = network.attachNode(m.name, podCIDR(m), m.internalIP);
  // what the machine's pods listen on is what its (current) container runtime runs; a pod's hostname is its name
  network.setSockets(m.name, (pod, port) => runtimes.get(m.name)!.httpAnswer(pod.uid, port, pod.name));
  const kubelet = `kubelet-${m.name}`;
  startKubelet(kernel, {
    nodeName: m.name, restClient: clientOf(kubelet, nodeCredentials(m.name), undefined, limits.kubelet), cri, cni, nodeIP: m.internalIP,
    initialNode: nodeObject(m, kernel.now()), processName: kubelet, ...(staticPods ? { staticPods } : {}),
  });
  components.set(kubelet, processComponent(kernel, kubelet, m.name, 'kubelet', {
    // kindnet is no component of its own; its client shares the machine's network, so a partition cuts it with the kubelet's
    extraEndpoints: () => [kindnetProcess, `${kindnetProcess}-client`, corednsProcess, `${corednsProcess}-client`],
    // kill -9 of the whole machine: the kubelet's containers die with it, its images stay on disk;
    // its routing table is kernel memory: gone, until kindnet adds the routes again
    onMachineStop: () => {
      const old = runtimes.get(m.name)!;
      newRuntime(old.listImages().flatMap((i) => i.names.slice(0, 1)));
      // a reboot empties the kernel's tables: kindnet's routes and kube-proxy's iptables rules
      network.flushRoutes(m.name);
      network.flushRules(m.name);
    },
  }));
  components.set(proxy, {
    ...processComponent(kernel, proxy, m.name, 'kube-proxy'),
    // stopping kube-proxy kills its container's process (the kubelet restarts it, with back-off);
    // starting it can only start it in a running container: the kubelet starts containers
    stop: () => kubeProxy.kill(),
    start: () => kubeProxy.reconcile(),
  });
}

function startControlPlaneComponents(kernel: Kernel, plan: ClusterPlan, m: MachinePlan, clientOf: ClientFactory, components: Map<string, Component>): void {
  // kubeadm (since 1.20, kubernetes#94398) points controller-manager.conf and scheduler.conf at the
  // machine's own API server (its LocalAPIEndpoint), not the load balancer
  const target: ApiTarget | undefined = m.apiServer ? { endpoint: m.apiServer, url: `https://${m.internalIP}:${apiServerSecurePort(plan)}` } : undefined;
  const localClientOf: ClientFactory = (process, credentials, suffix, limits) => clientOf(process, credentials, suffix, limits, target);
  if (plan.components.scheduler) startSchedulerOn(kernel, plan, m, localClientOf, components);
  if (plan.components.controllerManager) startControllerManagerOn(kernel, plan, m, localClientOf, components);
}

function startSchedulerOn(kernel: Kernel, plan: ClusterPlan, m: MachinePlan, clientOf: ClientFactory, components: Map<string, Component>): void {
  const scheduler = `kube-scheduler-${m.name}`;
  startScheduler(kernel, {
    name: scheduler, restClient: clientOf(scheduler, SCHEDULER_CREDENTIALS, undefined, plan.clientRateLimits['kube-scheduler']),
    // kube-scheduler-simulator writes its "why this node?" annotations with a client of its own
    // (the system:kube-scheduler role may not update pods); an admin client stands in for it.
    ...(plan.schedulerAnnotations ? { resultClient: clientOf(scheduler, ADMIN_CREDENTIALS, 'results', plan.clientRateLimits['kube-scheduler']) } : {}),
    ...(plan.scheduler ? { config: plan.scheduler as KubeSchedulerConfiguration } : {}),
    ...(plan.plugins.schedulerRegistry ? { registry: plan.plugins.schedulerRegistry } : {}),
  });
  components.set(scheduler, processComponent(kernel, scheduler, m.name, 'kube-scheduler', { extraEndpoints: () => [`${scheduler}-results-client`] }));
}

function startControllerManagerOn(kernel: Kernel, plan: ClusterPlan, m: MachinePlan, clientOf: ClientFactory, components: Map<string, Component>): void {
  const kcm = `kube-controller-manager-${m.name}`;
  // each controller builds its own client from these limits (manager.ts)
  const kcmClient = clientOf(kcm, KCM_CREDENTIALS, undefined, plan.clientRateLimits['kube-controller-manager']);
  const reconciler = plan.plugins.replicaSetReconciler;
  const controllers = kcmControllers(plan);
  startControllerManager(kernel, { name: kcm, restClient: kcmClient, controllers, rootCA: clusterCAPem(plan.seed), ...(reconciler ? { replicaSetReconciler: reconciler } : {}) });
  components.set(kcm, processComponent(kernel, kcm, m.name, 'kube-controller-manager', {
    // every client endpoint of the incarnation (main + one per controller), so a partition cuts them all
    extraEndpoints: () => controllerManagerClientSuffixes(controllers).map((s) => `${kcmClient.options.name}.${kernel.process(kcm)?.incarnation ?? 0}.${s}`),
  }));
}

export function processComponent(
  kernel: Kernel, name: string, machine: string, kind: Component['kind'],
  extra: { onMachineStop?: () => void; extraEndpoints?: () => string[] } = {},
): Component {
  return {
    name, machine, kind,
    isUp: () => kernel.process(name)?.up ?? false,
    stop: () => kernel.crash(name),
    start: () => {
      if (!kernel.process(name)?.up) kernel.process(name)?.start();
    },
    endpoints: () => [name, `${name}-client`, ...(extra.extraEndpoints?.() ?? [])],
    ...(extra.onMachineStop ? { onMachineStop: extra.onMachineStop } : {}),
  };
}
