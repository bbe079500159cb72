// kube-proxy (iptables mode) on one node: watches Services and EndpointSlices through informers
// and rewrites the node's rules (iptables.ts: cluster IPs, node ports, load balancer IPs, with
// this node's endpoints for externalTrafficPolicy Local) after changes, at most once per minSyncPeriod (1 s default,
// cmd/kube-proxy options) and at least every syncPeriod (30 s), as pkg/proxy/iptables/proxier.go
// does with its BoundedFrequencyRunner.
// In a cluster it runs in the kube-proxy DaemonSet's container on each node (kubeProxyProgram): the
// informers live and die with the container; the rules it programmed stay in the node's tables
// when it dies (iptables outlives the process) but go stale, and a new container starts with a full
// sync (proxier.go syncProxyRules runs once the informers have synced, whatever changed before).
import type { EndpointSlice, Service } from '../api/index.ts';
import { SharedInformer, createEventsRecorder, reportingInstanceFor, restListerWatcher, type RestClient } from '../client/index.ts';
import type { Kernel, ProcessContext, SimProcess } from '../kernel/index.ts';
import { ContainerProgram } from './container-program.ts';
import type { ClusterNetwork } from './data-plane.ts';
import { buildNatRules, servicePorts } from './iptables.ts';

export interface KubeProxyOptions {
  nodeName: string;
  /** A client with kube-proxy's credentials (user system:kube-proxy). */
  restClient: RestClient;
  network: ClusterNetwork;
  /** Process name (default kube-proxy-<node>). */
  processName?: string;
  minSyncPeriodMs?: number;
  syncPeriodMs?: number;
  /** KubeProxyConfiguration clusterCIDR (the pod network): pods reach a Local service's node port like its cluster IP. */
  clusterCIDR?: string;
}

export function startKubeProxy(kernel: Kernel, options: KubeProxyOptions): SimProcess {
  const name = options.processName ?? `kube-proxy-${options.nodeName}`;
  const process = kernel.spawn(name, (ctx) => runKubeProxy(ctx, options));
  return process;
}

/** The image repository of kube-proxy containers (kubeadm's DaemonSet uses registry.k8s.io/kube-proxy:<version>). */
export const KUBE_PROXY_IMAGE_REPO = 'registry.k8s.io/kube-proxy';

/** kube-proxy as the program of the node's kube-proxy containers: call follow(runtime) with the node's container runtime. */
export function kubeProxyProgram(kernel: Kernel, options: KubeProxyOptions): ContainerProgram {
  const processName = options.processName ?? `kube-proxy-${options.nodeName}`;
  return new ContainerProgram(kernel, { processName, imageRepo: KUBE_PROXY_IMAGE_REPO, main: (ctx) => runKubeProxy(ctx, options) });
}

function runKubeProxy(ctx: ProcessContext, o: KubeProxyOptions): void {
  ctx.trace('kube-proxy.start', `${o.nodeName}: watching Services and EndpointSlices; full sync once they are listed`);
  // cmd/kube-proxy server.go birthCry: a "Starting" event about its node (whose UID is its name), no
  // note, through events.k8s.io/v1 (NewRecorder(scheme, "kube-proxy"); it runs in the host network, so
  // its hostname is the node's)
  createEventsRecorder({
    clock: ctx, rng: ctx.rng.fork('events'), client: o.restClient,
    reportingController: 'kube-proxy', reportingInstance: reportingInstanceFor('kube-proxy', o.nodeName),
  }).eventf({ kind: 'Node', name: o.nodeName, uid: o.nodeName, namespace: '' }, null, 'Normal', 'Starting', 'StartKubeProxy', '');
  const minSyncMs = o.minSyncPeriodMs ?? 1000;
  const services = new SharedInformer<Service>(ctx, restListerWatcher(o.restClient, { group: '', resource: 'services' }));
  const slices = new SharedInformer<EndpointSlice>(ctx, restListerWatcher(o.restClient, { group: 'discovery.k8s.io', resource: 'endpointslices' }));
  let lastSyncMs = -Infinity;
  let pending = false;
  const sync = (): void => {
    pending = false;
    if (!ctx.isLive() || !services.hasSynced || !slices.hasSynced) return;
    lastSyncMs = ctx.now();
    const ports = servicePorts(services.lister.list(), slices.lister.list(), o.nodeName);
    const rules = buildNatRules(ports, o.clusterCIDR ? { clusterCIDR: o.clusterCIDR } : {});
    o.network.programRules(o.nodeName, rules);
    ctx.trace('kube-proxy.sync', `${o.nodeName}: ${rules.filter((r) => r.table === undefined).length} nat rules`);
  };
  const requestSync = (): void => {
    if (pending || !ctx.isLive()) return;
    pending = true;
    ctx.setTimer(Math.max(0, lastSyncMs + minSyncMs - ctx.now()), sync);
  };
  const handlers = { onAdd: requestSync, onUpdate: requestSync, onDelete: requestSync };
  services.addEventHandler(handlers);
  slices.addEventHandler(handlers);
  services.start();
  slices.start();
  ctx.every(o.syncPeriodMs ?? 30_000, requestSync);
}
