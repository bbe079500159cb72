// The kubelet of one node as a kernel process: registers its Node, renews its Lease, watches the
// pods bound to it (field selector spec.nodeName=<node>) and runs one pod worker per pod: admit,
// sandbox + CNI, then per container pull -> create -> start with the real events, restart policy
// with CrashLoopBackOff, probes, graceful termination, and status through pods/status.
// mirrors pkg/kubelet/kubelet.go SyncPod / SyncTerminatingPod, pkg/kubelet/kuberuntime
// (kuberuntime_manager.go SyncPod + doBackOff, kuberuntime_container.go startContainer, killContainer)
// and pkg/kubelet/images/image_manager.go EnsureImageExists (the Pulling / Pulled texts).
import type { Node, Pod, Service } from '../api/index.ts';
import { SharedInformer, createEventRecorder, restListerWatcher, type EventRecorder, type RestClient } from '../client/index.ts';
import { resolveImage, type ContainerRuntime, type ExecResult, type LogEntry } from '../cri/index.ts';
import type { Kernel, ProcessContext, SimProcess } from '../kernel/index.ts';
import type { NodeCni } from '../network/index.ts';
import type { ContainerEnvironmentConfig } from './container-env.ts';
import { execRoute } from './exec-server.ts';
import { containerLogsRoute } from './log-server.ts';
import { MirrorPods } from './mirror-pods.ts';
import { startNodeAgent } from './node-agent.ts';
import { PodWorkers } from './pod-workers.ts';
import { runtimeNetworkError } from './runtime-state.ts';

/** KubeletConfiguration eventRecordQPS / eventBurst defaults (pkg/kubelet/apis/config/v1beta1/defaults.go). */
const KUBELET_EVENT_LIMITS = { qps: 50, burst: 100 };
const UNLIMITED = { qps: -1, burst: 0 };
import { isMirrorPod, type StaticPodManifest, type StaticPodSource } from './static-pods.ts';

export interface KubeletOptions {
  nodeName: string;
  /** A client with the kubelet's credentials: CN system:node:<node>, O system:nodes. */
  restClient: RestClient;
  cri: ContainerRuntime;
  cni: NodeCni;
  /** The node's InternalIP (status.hostIP of its pods). */
  nodeIP: string;
  /** The Node to register when none exists. */
  initialNode?: Node;
  /** Process name (default kubelet-<node>). */
  processName?: string;
  /** --pod-manifest-path: the static pods of this node (kubeadm's control plane), and the runtime's view of them. */
  staticPods?: StaticPodSource;
  /** KubeletConfiguration clusterDNS (kubeadm: the kube-dns Service's IP, 10.96.0.10) and clusterDomain. */
  clusterDNS?: string;
  clusterDomain?: string;
}

export function startKubelet(kernel: Kernel, options: KubeletOptions): SimProcess {
  return kernel.spawn(options.processName ?? `kubelet-${options.nodeName}`, (ctx) => runKubelet(ctx, options));
}

function runKubelet(ctx: ProcessContext, o: KubeletOptions): void {
  // a new kubelet process dials the server anew: what the last one had open died with it
  if (ctx.incarnation > 1) o.restClient.closeAllConnections();
  // cmd/kubelet/app/server.go buildKubeletClientsets: events use their own client at eventRecordQPS /
  // eventBurst (50 / 100), and the heartbeat client (node status and Lease) is not rate limited (QPS -1)
  const eventClient = o.restClient.withLimits(KUBELET_EVENT_LIMITS);
  const heartbeatClient = o.restClient.withLimits(UNLIMITED);
  const recorder: EventRecorder = createEventRecorder({ clock: ctx, client: eventClient, component: 'kubelet', host: o.nodeName });
  const networkError = (): string | undefined => runtimeNetworkError(o.cri);
  // kubelet.go nodeRef: a Node reference whose UID is the node's name
  const nodeRef = { kind: 'Node', name: o.nodeName, uid: o.nodeName, namespace: '' };
  startNodeAgent(ctx, {
    nodeName: o.nodeName, client: heartbeatClient, ...(o.initialNode ? { initialNode: o.initialNode } : {}), images: () => o.cri.listImages(), networkError,
    recordNodeEvent: (reason, message) => recorder.eventf(nodeRef, 'Normal', reason, '%s', message),
  });
  const pods = new SharedInformer<Pod>(ctx, restListerWatcher(o.restClient, { group: '', resource: 'pods', fieldSelector: `spec.nodeName=${o.nodeName}` }));
  // kubelet.go: a Service informer over all namespaces, for the containers' service environment variables
  const services = new SharedInformer<Service>(ctx, restListerWatcher(o.restClient, { group: '', resource: 'services' }));
  const environment: ContainerEnvironmentConfig = {
    services: () => services.lister.list(),
    clusterDNS: o.clusterDNS ?? '10.96.0.10', clusterDomain: o.clusterDomain ?? 'cluster.local',
    // the node's own resolver: the simulated machines' network gateway
    hostResolvConf: 'nameserver 192.168.49.1\n',
    podNetwork: (podIP) => o.cni.podNetwork(podIP),
  };
  const workers = new PodWorkers(ctx, { client: o.restClient, cri: o.cri, cni: o.cni, nodeIP: o.nodeIP, recorder, lister: pods.lister, networkError, environment,
    ...(o.initialNode?.status?.allocatable ? { allocatable: o.initialNode.status.allocatable } : {}) });
  const mirrors = o.staticPods && new MirrorPods(ctx, {
    client: o.restClient, lister: pods.lister, synced: () => pods.hasSynced, source: o.staticPods, nodeName: o.nodeName, nodeIP: o.nodeIP,
  });
  // a mirror pod is the API server's picture of a static pod: the kubelet never runs it as a pod
  const sync = (pod: Pod): void => {
    if (!ctx.isLive()) return;
    if (mirrors && isMirrorPod(pod)) return mirrors.mirrorChanged(pod.metadata.name ?? '');
    workers.sync(`${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`);
  };
  pods.addEventHandler({
    onAdd: sync,
    onUpdate: (_old, pod) => sync(pod),
    onDelete: (obj) => sync('metadata' in obj ? obj : obj.obj),
  });
  o.cri.onContainerExit((info) => {
    if (ctx.isLive()) workers.containerExited(info);
  });
  // the kubelet's HTTPS server (port 10250): the API server's pods/log and pods/exec calls (a
  // process has one message handler, so the server routes)
  const logsRoute = containerLogsRoute(ctx, { pods: pods.lister, statusOf: (ns, name) => workers.statusOf(ns, name), cri: o.cri, staticLog: (pod, container, previous) => staticPodLog(o, pod, container, previous) });
  const exec = execRoute(ctx, {
    pods: pods.lister, statusOf: (ns, name) => workers.statusOf(ns, name), cri: o.cri,
    staticExec: (pod, _container, argv, done, stdin) => staticPodExec(ctx, o, pod, argv, done, stdin),
    environment,
  });
  ctx.onMessage((msg: unknown, from: string) => {
    if (!logsRoute(msg, from)) exec(msg, from);
  });
  services.start();
  pods.start();
  mirrors?.start();
}

/**
 * An exec in a static pod's container, which the static pods' runtime runs (most control-plane
 * images are distroless: no program is found); containerd names a fresh exec ID in its error.
 * False for a pod that is not one of this node's static pods.
 */
function staticPodExec(ctx: ProcessContext, o: KubeletOptions, mirror: Pod, argv: readonly string[], done: (result: ExecResult) => void, stdin?: string): boolean {
  const manifest = o.staticPods && isMirrorPod(mirror) ? manifestOf(o, mirror) : undefined;
  const name = manifest?.pod.metadata.name ?? '';
  // a static pod whose container is not running has nothing to exec in: findContainer's answer
  if (!o.staticPods || !manifest || !o.staticPods.containerState(name).running) return false;
  o.staticPods.exec(name, argv, stdin, (result) => {
    if (!('startError' in result)) return done(result);
    let execId = '';
    for (let i = 0; i < 8; i++) execId += ctx.rng.nextU32().toString(16).padStart(8, '0');
    done({ startError: `failed to exec in container: failed to start exec "${execId}": ${result.startError}` });
  });
  return true;
}

/** The manifest a mirror pod stands for (its name is the manifest's pod name plus "-<node>"). */
function manifestOf(o: KubeletOptions, mirror: Pod): StaticPodManifest | undefined {
  return o.staticPods?.manifests().find((m) => `${m.pod.metadata.name ?? ''}-${o.nodeName}` === mirror.metadata.name);
}

/**
 * What a static pod's container has written: its image's start-up lines, at the start of the
 * instance asked for (the component's process runs outside the CRI in this simulation).
 */
function staticPodLog(o: KubeletOptions, mirror: Pod, container: string, previous: boolean): readonly LogEntry[] | undefined {
  if (!o.staticPods || !isMirrorPod(mirror)) return undefined;
  const manifest = manifestOf(o, mirror);
  if (!manifest) return undefined;
  const state = o.staticPods.containerState(manifest.pod.metadata.name ?? '');
  const startedAtMs = previous ? state.previous?.startedAtMs : state.startedAtMs;
  const image = manifest.pod.spec.containers.find((c) => c.name === container)?.image;
  if (startedAtMs === undefined || image === undefined) return undefined;
  return (resolveImage(image)?.logs ?? []).map((text) => ({ atMs: startedAtMs, text }));
}
