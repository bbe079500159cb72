// cloud-controller-manager as a kernel process: leader election on the Lease
// kube-system/cloud-controller-manager, and only the leader runs the cloud controllers (node,
// node lifecycle, service). It talks to the API server with its own credentials
// (CN system:cloud-controller-manager) and to the cloud through the CloudProvider it is given.
// mirrors staging/src/k8s.io/cloud-provider/app/controllermanager.go (Run, leader election,
// startControllers with cloud-node, cloud-node-lifecycle and service) and
// cmd/kube-controller-manager/app/controllermanager.go for the shape shared with
// runtime/controllers/manager.ts. A crash loses every cache and queue; the next incarnation relists.
import type { KubeObject, Node, Service } from '../api/index.ts';
import { LeaderElector, RestClient, SharedInformer, ThrottleLog, createEventRecorder, restListerWatcher, type RestHost } from '../client/index.ts';
import { randomUUID, type Kernel, type ProcessContext, type SimProcess, type TimerHandle } from '../kernel/index.ts';
import { CloudNodeController } from './node-controller.ts';
import { CloudNodeLifecycleController } from './node-lifecycle.ts';
import { ServiceController } from './service-controller.ts';
import type { CloudProvider } from './types.ts';

export const CLOUD_CONTROLLER_MANAGER_LEASE = { namespace: 'kube-system', name: 'cloud-controller-manager' };
/** The CN of the cloud-controller-manager's client certificate. */
export const CLOUD_CONTROLLER_MANAGER_USER = 'system:cloud-controller-manager';
/** The client endpoints one incarnation uses (the main one; controllers share it). */
export const CLOUD_CONTROLLER_MANAGER_CLIENT_SUFFIXES: readonly string[] = ['main'];

export interface CloudControllerManagerOptions {
  /** Process name, unique in the kernel ("cloud-controller-manager-managed-cp-1"). */
  name: string;
  /** The machine's hostname, the leader election identity's first half (default: the name without "cloud-controller-manager-"). */
  hostname?: string;
  /** A client with the CCM's credentials; its server and credentials are reused per incarnation. */
  restClient: RestClient;
  cloud: CloudProvider;
  /** --cluster-name, which prefixes cloud resources ("kubernetes" by default). */
  clusterName?: string;
  /** --leader-elect (default true). */
  leaderElect?: boolean;
  onLog?: (line: string) => void;
}

type Clock = { now(): number; setTimer(ms: number, fn: () => void): TimerHandle; every(ms: number, fn: () => void): TimerHandle };

export function startCloudControllerManager(kernel: Kernel, o: CloudControllerManagerOptions): SimProcess {
  return kernel.spawn(o.name, (ctx) => runCloudControllerManager(kernel, ctx, o));
}

function runCloudControllerManager(kernel: Kernel, ctx: ProcessContext, o: CloudControllerManagerOptions): void {
  const log = (line: string): void => {
    ctx.trace('cloud-controller-manager.log', line);
    o.onLog?.(`${o.name}: ${line}`);
  };
  // a dead incarnation sends nothing: callbacks already in flight may run, but go nowhere
  const host: RestHost = {
    now: () => ctx.now(),
    setTimer: (ms, fn) => ctx.setTimer(ms, fn),
    send: (from, to, msg) => {
      if (ctx.isLive()) kernel.send(from, to, msg);
    },
    setHandler: (name, handler) => kernel.setHandler(name, handler),
    isUp: (name) => kernel.net.isUp(name),
  };
  // the given client's QPS/Burst (upstream's 20/30, cloud-provider config/v1alpha1/defaults.go) with
  // a bucket of this incarnation's own; long waits go to the manager's log
  const base = o.restClient.options;
  const main = new RestClient(host, { ...base, name: `${base.name}.${ctx.incarnation}.main`, userAgent: 'cloud-controller-manager', throttleLog: new ThrottleLog(log) });
  const clock: Clock = { now: () => ctx.now(), setTimer: (ms, fn) => ctx.setTimer(ms, fn), every: (ms, fn) => ctx.every(ms, fn) };
  let running: { stop(): void } | undefined;
  const lead = (): void => {
    running = startCloudControllers(ctx, o, clock, main, log);
  };
  if (o.leaderElect === false) return lead();
  // os.Hostname() + "_" + a UUID (a static pod on the host network: the machine's hostname)
  const identity = `${o.hostname ?? o.name.replace(/^cloud-controller-manager-/, '')}_${randomUUID(ctx.rng)}`;
  const elector: LeaderElector = new LeaderElector({
    clock, rng: ctx.rng.fork('leaderelection'), client: main, lock: CLOUD_CONTROLLER_MANAGER_LEASE, identity,
    recorder: createEventRecorder({ clock, client: main, component: 'cloud-controller-manager' }),
    callbacks: {
      onStartedLeading: () => {
        if (ctx.isLive()) lead();
      },
      onStoppedLeading: () => {
        // upstream exits ("leaderelection lost") and is restarted; here it stops and campaigns again
        running?.stop();
        running = undefined;
        if (ctx.isLive()) ctx.setTimer(0, () => elector.start());
      },
      onNewLeader: (who) => log(`new leader elected: ${who}`),
    },
    onLog: log,
  });
  log(`attempting to acquire leader lease ${CLOUD_CONTROLLER_MANAGER_LEASE.namespace}/${CLOUD_CONTROLLER_MANAGER_LEASE.name}...`);
  elector.start();
}

function startCloudControllers(ctx: ProcessContext, o: CloudControllerManagerOptions, clock: Clock, client: RestClient, log: (line: string) => void): { stop(): void } {
  const informer = <T extends KubeObject>(resource: string): SharedInformer<T> =>
    new SharedInformer<T>(clock, restListerWatcher<T>(client, { group: '', resource }), { onLog: (m) => log(`${resource} informer: ${m}`) });
  const nodes = informer<Node>('nodes');
  const services = informer<Service>('services');
  const recorder = (component: string) => createEventRecorder({ clock, client, component });
  const isLive = (): boolean => ctx.isLive();
  const nodeController = new CloudNodeController({
    clock, client, nodes, cloud: o.cloud.instances, recorder: recorder('cloud-node-controller'), isLive,
    log: (m) => log(`cloud-node-controller: ${m}`),
  });
  const lifecycle = new CloudNodeLifecycleController({
    clock, client, nodes, cloud: o.cloud.instances, recorder: recorder('cloud-node-lifecycle-controller'), isLive,
    log: (m) => log(`cloud-node-lifecycle-controller: ${m}`),
  });
  const serviceController = new ServiceController({
    clock, client, services, nodes, cloud: o.cloud.loadBalancer, clusterName: o.clusterName ?? 'kubernetes',
    recorder: recorder('service-controller'), isLive, log: (m) => log(`service-controller: ${m}`),
  });
  const controllers = [nodeController, lifecycle, serviceController];
  for (const c of controllers) c.start();
  for (const i of [nodes, services]) i.start();
  log('Started controllers "cloud-node-controller", "cloud-node-lifecycle-controller", "service-lb-controller"');
  ctx.trace('cloud-controller-manager.leading', 'cloud-node,cloud-node-lifecycle,service-lb');
  return {
    stop: () => {
      for (const c of controllers) c.stop();
      for (const i of [nodes, services]) i.stop();
    },
  };
}
