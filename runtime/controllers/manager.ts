// kube-controller-manager as a kernel process: leader election on the Lease
// kube-system/kube-controller-manager, and only the leader runs controller loops.
// mirrors cmd/kube-controller-manager/app/controllermanager.go (Run, leaderElectAndRun,
// --use-service-account-credentials: each controller acts as system:serviceaccount:kube-system:<name>,
// so RBAC sees which controller did what). Crashing the process loses every cache and queue;
// the restarted incarnation relists, as the real binary does after a restart.
import type { Deployment, KubeObject, Pod, ReplicaSet } from '../api/index.ts';
import {
  LeaderElector, RestClient, SharedInformerFactory, ThrottleLog, createEventRecorder,
  type EventRecorder, type RestCredentials, type RestHost, type SharedInformer,
} from '../client/index.ts';
import { randomUUID, type Kernel, type ProcessContext, type SimProcess } from '../kernel/index.ts';
import { DeploymentController } from './deployment/controller.ts';
import { ReplicaSetController } from './replicaset/controller.ts';
import type { ReplicaSetReconciler } from './replicaset/types.ts';
import { startEndpointsController } from './endpoint/start.ts';
import { startEndpointSliceController } from './endpointslice/start.ts';
import { startEndpointSliceMirroringController } from './endpointslicemirroring/start.ts';
import { startGarbageCollector } from './garbagecollector/start.ts';
import type { HostedController, HostedControllerDeps } from './namespace/hosted.ts';
import { startNamespaceController } from './namespace/start.ts';
import { startServiceAccountController } from './serviceaccount/start.ts';
import { startRootCACertPublisher } from './rootcacertpublisher/start.ts';
import { startDaemonSetController } from './daemonset/start.ts';
import { startPodGCController } from './podgc/start.ts';
import { startHostedNodeLifecycleController } from './nodelifecycle/start.ts';
import { startResourceQuotaController } from './resourcequota/start.ts';
import { startDisruptionController } from './disruption/start.ts';

export type ControllerName = 'replicaset' | 'deployment' | 'endpoint' | 'endpointslice' | 'endpointslicemirroring' | 'garbagecollector' | 'namespace' | 'serviceaccount' | 'daemonset' | 'podgc' | 'nodelifecycle' | 'resourcequota' | 'disruption' | 'rootcacertpublisher';

export interface ControllerManagerOptions {
  /** Process name, unique in the kernel ("kube-controller-manager-cp-1"). */
  name: string;
  /** The machine's hostname, the leader election identity's first half (default: the name without "kube-controller-manager-"). */
  hostname?: string;
  /** A client with the controller manager's credentials (CN system:kube-controller-manager); its server and credentials are reused. */
  restClient: RestClient;
  /** Which controllers to run (default: all of them, as kube-controller-manager's --controllers=*). */
  controllers?: ControllerName[];
  /** Swaps the ReplicaSet decision step (a learner's lab code). */
  replicaSetReconciler?: ReplicaSetReconciler;
  /** --use-service-account-credentials (default true, as kubeadm sets it). */
  useServiceAccountCredentials?: boolean;
  /** --leader-elect (default true). */
  leaderElect?: boolean;
  epochMs?: number;
  /** --root-ca-file's content (kubeadm: /etc/kubernetes/pki/ca.crt), which the root CA publisher spreads. */
  rootCA?: string;
  /** Log lines ("successfully acquired lease kube-system/kube-controller-manager"). */
  onLog?: (line: string) => void;
}

const LEASE = { namespace: 'kube-system', name: 'kube-controller-manager' };
/** The service account each controller acts as (--use-service-account-credentials). */
export const CONTROLLER_SERVICE_ACCOUNTS: Record<ControllerName, string> = {
  replicaset: 'replicaset-controller', deployment: 'deployment-controller', endpoint: 'endpoint-controller',
  endpointslice: 'endpointslice-controller', endpointslicemirroring: 'endpointslicemirroring-controller', garbagecollector: 'generic-garbage-collector', namespace: 'namespace-controller',
  serviceaccount: 'service-account-controller', daemonset: 'daemon-set-controller', podgc: 'pod-garbage-collector',
  nodelifecycle: 'node-controller', resourcequota: 'resourcequota-controller', disruption: 'disruption-controller',
  rootcacertpublisher: 'root-ca-cert-publisher',
};
/** Every controller this manager can run, in start order. */
export const ALL_CONTROLLERS: readonly ControllerName[] = ['replicaset', 'deployment', 'endpoint', 'endpointslice', 'endpointslicemirroring', 'garbagecollector', 'namespace', 'serviceaccount', 'daemonset', 'podgc', 'nodelifecycle', 'resourcequota', 'disruption', 'rootcacertpublisher'];

/**
 * The clients a manager incarnation builds, each with a bucket of its own, as controllermanager.go
 * does: the root client ("main": its events and the service-account bootstrap), the leader
 * election's (resourcelock.NewFromKubeconfig, user agent "leader-election"), the informers'
 * (rootClientBuilder.ClientOrDie("shared-informers")), then one per controller.
 */
const MANAGER_CLIENT_SUFFIXES = ['main', 'leader-election', 'shared-informers'] as const;

/** The suffixes of the client endpoints a manager incarnation uses (its own three plus one per controller). */
export function controllerManagerClientSuffixes(controllers: readonly ControllerName[] = ALL_CONTROLLERS): string[] {
  return [...MANAGER_CLIENT_SUFFIXES, ...controllers.map((c) => CONTROLLER_SERVICE_ACCOUNTS[c])];
}

const HOSTED: Partial<Record<ControllerName, (d: HostedControllerDeps) => HostedController>> = {
  endpoint: startEndpointsController, endpointslicemirroring: startEndpointSliceMirroringController, endpointslice: startEndpointSliceController, garbagecollector: startGarbageCollector, namespace: startNamespaceController,
  serviceaccount: startServiceAccountController, daemonset: startDaemonSetController, podgc: startPodGCController,
  nodelifecycle: startHostedNodeLifecycleController, resourcequota: startResourceQuotaController,
  rootcacertpublisher: startRootCACertPublisher,
};

/** Starts kube-controller-manager as a kernel process and returns it (crash/restart it through the kernel). */
export function startControllerManager(kernel: Kernel, options: ControllerManagerOptions): SimProcess {
  return kernel.spawn(options.name, (ctx) => runControllerManager(kernel, ctx, options));
}

function runControllerManager(kernel: Kernel, ctx: ProcessContext, o: ControllerManagerOptions): void {
  const log = (line: string): void => {
    ctx.trace('controller-manager.log', line);
    o.onLog?.(`${o.name}: ${line}`);
  };
  // a dead incarnation can send nothing: its in-flight callbacks may still run, but go nowhere
  const host: RestHost = {
    now: () => ctx.now(),
    setTimer: (ms, fn) => ctx.setTimer(ms, fn),
    send: (from, to, msg) => {
      if (ctx.isLive()) kernel.send(from, to, msg);
    },
    setHandler: (name, handler) => kernel.setHandler(name, handler),
    isUp: (name) => kernel.net.isUp(name),
  };
  // client-go's throttled logger is a package variable: one per process, shared by its clients
  const throttleLog = new ThrottleLog(log);
  // ControllerClientBuilder.ClientOrDie(name): a rest.Config copy per client, so each client (the
  // manager's own three and each controller's) has a token bucket of its own with the manager's
  // --kube-api-qps / --kube-api-burst (base.qps / base.burst)
  const client = (suffix: string, credentials?: RestCredentials): RestClient => {
    const base = o.restClient.options;
    return new RestClient(host, {
      ...base, name: `${base.name}.${ctx.incarnation}.${suffix}`, userAgent: `kube-controller-manager/${suffix}`,
      ...(credentials ? { credentials } : {}), throttleLog,
    });
  };
  const [main, leaderElection, sharedInformers] = MANAGER_CLIENT_SUFFIXES.map((suffix) => client(suffix)) as [RestClient, RestClient, RestClient];
  // os.Hostname() + "_" + a UUID (a static pod on the host network: the machine's hostname)
  const identity = `${o.hostname ?? o.name.replace(/^kube-controller-manager-/, '')}_${randomUUID(ctx.rng)}`;
  const clock = { now: () => ctx.now(), setTimer: (ms: number, fn: () => void) => ctx.setTimer(ms, fn), every: (ms: number, fn: () => void) => ctx.every(ms, fn) };
  let running: { stop(): void } | undefined;
  const lead = (): void => {
    running = startControllers(ctx, o, clock, { main, sharedInformers }, client, log);
  };
  if (o.leaderElect === false) return lead();
  const elector: LeaderElector = new LeaderElector({
    clock, rng: ctx.rng.fork('leaderelection'), client: leaderElection, lock: LEASE, identity,
    recorder: createEventRecorder({ clock, client: main, component: 'kube-controller-manager', ...(o.epochMs !== undefined ? { epochMs: o.epochMs } : {}) }),
    callbacks: {
      onStartedLeading: () => {
        if (ctx.isLive()) lead();
      },
      onStoppedLeading: () => {
        // upstream exits ("leaderelection lost") and is restarted; here it stops its loops and campaigns again
        running?.stop();
        running = undefined;
        if (ctx.isLive()) ctx.setTimer(0, () => elector.start());
      },
      onNewLeader: (who) => log(`new leader elected: ${who}`),
    },
    onLog: log,
    ...(o.epochMs !== undefined ? { epochMs: o.epochMs } : {}),
  });
  log(`attempting to acquire leader lease ${LEASE.namespace}/${LEASE.name}...`);
  elector.start();
}

type Clock = { now(): number; setTimer(ms: number, fn: () => void): { cancel(): void }; every(ms: number, fn: () => void): { cancel(): void } };

function startControllers(
  ctx: ProcessContext, o: ControllerManagerOptions, clock: Clock, { main, sharedInformers }: { main: RestClient; sharedInformers: RestClient },
  client: (suffix: string, credentials?: RestCredentials) => RestClient, log: (line: string) => void,
): { stop(): void } {
  const enabled = o.controllers ?? ALL_CONTROLLERS;
  // CreateControllerContext: one informer factory over the "shared-informers" client for every
  // controller, started after all controllers are (StartControllers, then InformerFactory.Start)
  const factory = new SharedInformerFactory(clock, sharedInformers, { onLog: (resource, m) => log(`${resource} informer: ${m}`) });
  const informer = <T extends KubeObject>(group: string, resource: string): SharedInformer<T> => factory.informerFor<T>(group, resource);
  const pods = informer<Pod>('', 'pods');
  const replicaSets = informer<ReplicaSet>('apps', 'replicasets');
  const deployments = informer<Deployment>('apps', 'deployments');
  const stops: (() => void)[] = [];
  // each controller's own client, with its own bucket; its event recorder shares it
  const controllerClient = (name: ControllerName): RestClient => {
    const sa = CONTROLLER_SERVICE_ACCOUNTS[name];
    // SimpleControllerClientBuilder: the manager's own credentials, still a client per controller
    if (o.useServiceAccountCredentials === false) return client(sa);
    ensureServiceAccount(main, sa);
    return client(sa, { token: `sa-token:kube-system:${sa}` });
  };
  const recorder = (name: ControllerName, c: RestClient): EventRecorder =>
    createEventRecorder({ clock, client: c, component: CONTROLLER_SERVICE_ACCOUNTS[name], ...(o.epochMs !== undefined ? { epochMs: o.epochMs } : {}) });
  const common = { ...(o.epochMs !== undefined ? { epochMs: o.epochMs } : {}), ...(o.rootCA !== undefined ? { rootCA: o.rootCA } : {}) };
  if (enabled.includes('replicaset')) {
    const c = controllerClient('replicaset');
    const rsc = new ReplicaSetController({
      clock, client: c, replicaSets, pods, recorder: recorder('replicaset', c), onLog: (m) => log(`replicaset-controller: ${m}`),
      ...(o.replicaSetReconciler ? { reconciler: o.replicaSetReconciler } : {}), ...common,
    });
    rsc.start();
    stops.push(() => rsc.stop());
    log('Started controller "replicaset-controller"');
  }
  if (enabled.includes('deployment')) {
    const c = controllerClient('deployment');
    const dc = new DeploymentController({
      clock, client: c, deployments, replicaSets, pods, recorder: recorder('deployment', c), onLog: (m) => log(`deployment-controller: ${m}`), ...common,
    });
    dc.start();
    stops.push(() => dc.stop());
    log('Started controller "deployment-controller"');
  }
  for (const name of enabled) {
    // the disruption controller also reads the manager's shared ReplicaSet and Deployment caches
    const startHosted = name === 'disruption' ? (d: HostedControllerDeps) => startDisruptionController(d, { replicaSets, deployments }) : HOSTED[name];
    if (!startHosted) continue;
    const c = controllerClient(name);
    const h = startHosted({ clock, client: c, recorder: recorder(name, c), informer, pods, log, isLive: ctx.isLive, ...common });
    stops.push(() => h.stop());
    log(`Started controller "${CONTROLLER_SERVICE_ACCOUNTS[name]}"`);
  }
  factory.start();
  ctx.trace('controller-manager.leading', enabled.join(','));
  return {
    stop: () => {
      for (const s of stops) s();
      factory.stop();
    },
  };
}

/** The serviceaccount-token controller's job for the controllers' own accounts (409: already there). */
function ensureServiceAccount(main: RestClient, name: string): void {
  main.request({ verb: 'create', group: '', resource: 'serviceaccounts', namespace: 'kube-system', body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'kube-system' } } }, () => undefined);
}
