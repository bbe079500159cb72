// createCluster: the public entry point of the runtime (shared DESIGN section 2, a contract).
// It assembles a kernel, the etcd members, the API server replicas (behind a load balancer in HA),
// bootstraps them (system namespaces and RBAC come from the API server's post-start hooks), and
// hands out kubectl and etcdctl that cross the simulated
// network like real clients. Then the components start (components.ts): a kubelet and
// kube-proxy per visible machine (the kubelets register the Node objects), and a kube-scheduler
// and kube-controller-manager per control-plane machine, electing leaders through Leases.
import { createKernel, type Kernel, type TraceEvent } from '../kernel/index.ts';
import { RestClient, type RestCredentials, type RestHost } from '../client/index.ts';
import { adminKubeconfig, runEtcdctl, runKubectl } from '../cli/index.ts';
import type { EtcdClient } from '../etcd/index.ts';
import type { ApiServer } from '../apiserver/index.ts';
import { ADMIN_CREDENTIALS, SUPER_ADMIN_CREDENTIALS, startControlPlane, type ControlPlane } from './control-plane.ts';
import { bootAddons } from './addons.ts';
import { expandPartition } from './faults.ts';
import { assertInstanceExists, createClusterCloud, requireCloud, startCloudControllerManagers, waitForCloudInitialization } from './cloud.ts';
import type { SimulatedCloud } from '../cloud/index.ts';
import { restoreEtcd, type RestoreEtcdOptions } from './restore.ts';
import { kubectlTransport } from './kubectl-transport.ts';
import { kubectlRun } from './kubectl-klog.ts';
import { startComponents, type ClusterComponents } from './components.ts';
import { staticPodSource } from './static-pods.ts';
import { planCluster, type ClusterOptions, type ClusterPlan } from './options.ts';
import { schedulerAttempts, schedulerDecision, type SchedulerAttempt, type SchedulerDecision } from './observe-scheduler.ts';
import { requestDurations, type RequestDurations } from './observe-metrics.ts';
import { clusterSnapshot, eventsSince, type ClusterSnapshot, type EventSnapshot } from './observe.ts';
import { requestTrace, traceRoots, type RequestTrace, type RequestTraceRoot } from './observe-trace.ts';

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface Faults {
  stopNode(name: string): Promise<void>;
  startNode(name: string): Promise<void>;
  /** Groups of names (machines, etcd members, components) that can reach only their own group. */
  partition(groups: string[][]): Promise<void>;
  heal(): Promise<void>;
  stopComponent(name: string): Promise<void>;
  startComponent(name: string): Promise<void>;
  /** Managed topology: terminates the node's cloud instance (its machine stops for good; the CCM then deletes the Node). */
  deleteCloudInstance(name: string): Promise<void>;
  /**
   * The etcd disaster-recovery drill (restore.ts): stops the API servers and etcd members, runs
   * `etcdutl snapshot restore <file> ... --bump-revision N --mark-compacted` for every member,
   * starts them as a new cluster from the restored data directories, then starts the API servers.
   * `file` is one `cluster.etcdctl('snapshot save <file>')` wrote. Returns the drill's transcript.
   */
  restoreEtcd(file: string, options?: RestoreEtcdOptions): Promise<CommandResult>;
}

export interface Cluster {
  /**
   * Runs one kubectl command. `files` are the terminal's files that `-f <path>` (apply, create,
   * delete, replace) reads, so a chapter's `kubectl apply -f web.yaml` names its manifest as a
   * reader's shell would.
   */
  kubectl(args: string, opts?: { stdin?: string; files?: Readonly<Record<string, string>> }): Promise<CommandResult>;
  etcdctl(args: string, opts?: { stdin?: string }): Promise<CommandResult>;
  /** Runs simulated time forward. */
  advance(ms: number): Promise<void>;
  /** Simulated milliseconds since boot. */
  now(): number;
  faults: Faults;
  /** Every recorded action, oldest first (the kernel's trace ring buffer). */
  trace(): TraceEvent[];
  /** A 64-bit hash over every trace record since boot: equal for equal seeds and inputs. */
  traceHash(): string;
  /**
   * A compact, serializable picture of the cluster now (observe.ts): nodes, pods, etcd members,
   * components. Read from a running API server's cache and the members' Raft state, outside the
   * simulation: taking one changes nothing.
   */
  snapshot(): ClusterSnapshot;
  /** The Events written after a resourceVersion (0: all in the cache), oldest first, at most `limit`. */
  eventsSince(afterResourceVersion: number, limit?: number): EventSnapshot[];
  /**
   * One request followed through the control plane (observe-trace.ts): by audit ID, default the
   * reader's last kubectl write; with the controllers', the scheduler's and the kubelets' work it caused.
   */
  requestTrace(requestId?: string): RequestTrace;
  /** The reader's recent kubectl writes, newest first: the requests a trace can start from. */
  traceRoots(limit?: number): RequestTraceRoot[];
  /**
   * Runs simulated time forward by at most `maxMs`, stopping early once `maxEvents` kernel events
   * ran: a bounded step for a worker whose message loop must get a turn. Returns the ms advanced.
   */
  step(maxMs: number, maxEvents?: number): number;
  /**
   * The scheduler's last decision for a pod (observe-scheduler.ts): its kube-scheduler-simulator
   * annotations parsed (each node's filter verdicts, raw and weighted scores, the selected node) and
   * its PodScheduled condition; undefined without annotations. Read from a running API server's cache.
   */
  schedulerDecision(namespace: string, name: string): SchedulerDecision | undefined;
  /** The pods that carry the scheduler's annotations: Pending ones first, then the most recently scheduled. */
  schedulerAttempts(): SchedulerAttempt[];
  /** apiserver_request_duration_seconds by verb, summed over the running replicas and per replica (observe-metrics.ts). */
  requestDurations(): RequestDurations;
  /** For tests, benchmarks and the UI: the parts behind the public API. */
  readonly internals: ClusterInternals;
}

export interface ClusterInternals {
  readonly kernel: Kernel;
  readonly plan: ClusterPlan;
  readonly controlPlane: ControlPlane;
  /** The node network (pod IPs, kube-proxy's rules, sendRequest) and each machine's container runtime. */
  readonly components: ClusterComponents;
  /** A REST client with its own endpoint, dialing the API server (admin unless told otherwise). */
  restClient(name: string, options?: { credentials?: RestCredentials; timeoutMs?: number }): RestClient;
  /** Runs the kernel until done() or the simulated timeout; returns done(). */
  driveUntil(done: () => boolean, timeoutMs: number): boolean;
  /** The in-memory files etcdctl snapshot save/restore read and write. */
  readonly files: Map<string, string>;
  /** The simulated cloud of a managed cluster (instances, load balancers); undefined otherwise. */
  readonly cloud: SimulatedCloud | undefined;
}

/** How long `kubectl get -w` and `rollout status` watch, in simulated ms. */
export const KUBECTL_WATCH_WINDOW_MS = 30_000;

/**
 * How long `kubectl drain` without --timeout keeps evicting and waiting (real kubectl waits until
 * Ctrl+C): long enough for pods' 30 s grace periods, shorter than COMMAND_TIMEOUT_MS so the command
 * still ends with its own message.
 */
export const KUBECTL_WAIT_FOREVER_MS = 90_000;

/** Longest simulated time one kubectl or etcdctl command may take before it is abandoned. */
export const COMMAND_TIMEOUT_MS = 120_000;
const BOOT_TIMEOUT_MS = 120_000;

export function createCluster(options: ClusterOptions = {}): Cluster {
  const plan = planCluster(options);
  const kernel = createKernel({ seed: plan.seed });
  const controlPlane = startControlPlane(kernel, plan);
  const driveUntil = (done: () => boolean, timeoutMs: number): boolean => {
    const deadlineMs = kernel.now() + timeoutMs;
    kernel.runUntil(() => done() || kernel.now() >= deadlineMs);
    return done();
  };
  const host: RestHost = {
    now: () => kernel.now(),
    setTimer: (ms, fn) => kernel.setTimer(ms, fn),
    send: (from, to, msg) => kernel.send(from, to, msg),
    setHandler: (name, handler) => kernel.setHandler(name, handler),
    isUp: (name) => kernel.net.isUp(name),
  };
  const restClient = (name: string, o: { credentials?: RestCredentials; timeoutMs?: number } = {}): RestClient =>
    new RestClient(host, {
      name, server: plan.serverEndpoint, serverURL: plan.serverURL,
      credentials: o.credentials ?? ADMIN_CREDENTIALS, userAgent: name,
      ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    });

  waitForControlPlane(plan, controlPlane, driveUntil);
  ensureAdminClusterRoleBinding(restClient('kubeadm-init', { credentials: SUPER_ADMIN_CREDENTIALS }), controlPlane, driveUntil, kernel);
  /** The operator's files (etcdctl snapshots), which are also the control-plane machines' etcd mounts. */
  const files = new Map<string, string>();
  const components = startComponents(kernel, plan, controlPlane.components,
    (m) => (m.role === 'control-plane' && m.visible ? staticPodSource(kernel, plan, m, controlPlane, files) : undefined));
  // a deleted instance's machine stops like faults.stopNode (faults is defined below; this runs later)
  const cloud = createClusterCloud(kernel, plan, (name) => void faults.stopNode(name));
  if (cloud) startCloudControllerManagers(kernel, plan, cloud, controlPlane.components);
  waitForNodes(plan, restClient('kubeadm'), driveUntil, kernel);
  if (!waitForCloudInitialization(plan, restClient('cloud-init-wait'), driveUntil, kernel, BOOT_TIMEOUT_MS)) {
    throw new Error('invariant violated: the cloud-controller-manager initialized every node within two simulated minutes');
  }
  bootAddons({
    client: restClient('kubeadm-addons'), driveUntil, every: (ms, fn) => kernel.every(ms, fn), record: (k, a, d) => kernel.record(k, a, d),
    nodes: plan.machines.filter((m) => m.visible).length, waitForPods: plan.components.controllerManager && plan.components.scheduler,
    podSubnet: plan.podSubnet,
  });

  const kubectlClient = restClient('kubectl', { timeoutMs: 60_000 });
  /** The terminal's ~/.kube/config (kubeadm's admin.conf), kept between kubectl commands. */
  const kubeconfig = adminKubeconfig(plan.serverURL);
  let etcdctlClient: EtcdClient | undefined;
  let partitionGroups: string[][] | undefined;

  const run = (start: (done: (r: CommandResult) => void) => void, what: string): CommandResult => {
    let result: CommandResult | undefined;
    start((r) => {
      result ??= r;
    });
    if (!driveUntil(() => result !== undefined, COMMAND_TIMEOUT_MS)) {
      result = { stdout: '', stderr: `error: ${what} did not finish within ${COMMAND_TIMEOUT_MS / 1000}s of simulated time\n`, exitCode: 1 };
    }
    return result!;
  };
  const component = (name: string) => {
    const c = controlPlane.components.get(name);
    if (!c) throw new Error(`no component named "${name}" (known: ${[...controlPlane.components.keys()].join(', ')})`);
    return c;
  };
  const machine = (name: string) => {
    const m = plan.machines.find((x) => x.name === name);
    if (!m) throw new Error(`no node named "${name}" (known: ${plan.machines.map((x) => x.name).join(', ')})`);
    return m;
  };
  const onMachine = (name: string) => [...controlPlane.components.values()].filter((c) => c.machine === machine(name).name);
  // restarted components get new endpoints (a new etcd client): cut them off as their machine is
  const reapplyPartition = (): void => {
    if (partitionGroups) kernel.net.partition(expandPartition(partitionGroups, plan, controlPlane.components));
  };

  const faults: Faults = {
    async stopNode(name) {
      for (const c of onMachine(name)) {
        c.stop();
        c.onMachineStop?.();
      }
      kernel.record('fault.stop-node', name);
    },
    async startNode(name) {
      assertInstanceExists(cloud, plan, name);
      for (const c of onMachine(name)) c.start();
      kernel.record('fault.start-node', name);
      reapplyPartition();
    },
    async partition(groups) {
      partitionGroups = groups.map((g) => [...g]);
      reapplyPartition();
    },
    async heal() {
      partitionGroups = undefined;
      kernel.net.heal();
    },
    async deleteCloudInstance(name) {
      machine(name);
      if (!requireCloud(cloud, plan).deleteInstance(name)) throw new Error(`no cloud instance named "${name}" (it was deleted already, or is a control-plane machine)`);
      kernel.record('fault.delete-cloud-instance', name);
    },
    async stopComponent(name) {
      component(name).stop();
      kernel.record('fault.stop-component', name);
    },
    async startComponent(name) {
      component(name).start();
      kernel.record('fault.start-component', name);
      reapplyPartition();
    },
    restoreEtcd: (file, o) => restoreEtcd(cluster, file, o),
  };

  const cluster: Cluster = {
    async kubectl(args, opts = {}) {
      let proc: ReturnType<typeof kubectlRun> | undefined;
      try {
        // `get -w` and `rollout status` follow a real watch for up to KUBECTL_WATCH_WINDOW_MS of
        // simulated time (this terminal is not interactive: there is no Ctrl+C to end them).
        const io = { nowMs: kernel.now(), now: () => kernel.now(), serverURL: plan.serverURL, kubeconfig, watchForMs: KUBECTL_WATCH_WINDOW_MS, waitForeverMs: KUBECTL_WAIT_FOREVER_MS, after: (ms: number, fn: () => void) => void kernel.setTimer(ms, fn) };
        // a new kubectl process: a full token bucket (kubectl's limits), and its klog lines on stderr first
        const p = (proc = kubectlRun(kubectlClient, plan.clientRateLimits.kubectl, args, () => kernel.now()));
        const result = run((done) => runKubectl(args, kubectlTransport(p.client, p.warn), { ...io, ...(opts.stdin !== undefined ? { stdin: opts.stdin } : {}), ...(opts.files !== undefined ? { files: opts.files } : {}) }, done), 'kubectl');
        return { ...result, stderr: p.stderr() + result.stderr };
      } catch (e) {
        // the last line of defence: a bug in the simulation answers as a failed command, never as
        // a rejected promise (terminal-never-throws.property.test.ts fails on this answer)
        return { stdout: '', stderr: `error: internal error in the simulation: ${e instanceof Error ? e.message : String(e)}\n`, exitCode: 1 };
      } finally {
        proc?.client.endConnection(); // the kubectl process exits
      }
    },
    async etcdctl(args, opts = {}) {
      if (plan.topology === 'managed') {
        return { stdout: '', stderr: 'Error: etcd is run by the cloud provider in a managed cluster and is not reachable from here\n', exitCode: 1 };
      }
      try {
        etcdctlClient ??= controlPlane.etcd.client({ name: 'etcdctl' });
        const client = etcdctlClient;
        return run((done) => runEtcdctl(args, client, { files, ...(opts.stdin !== undefined ? { stdin: opts.stdin } : {}) }, done), 'etcdctl');
      } catch (e) {
        // the last line of defence, as for kubectl
        return { stdout: '', stderr: `error: internal error in the simulation: ${e instanceof Error ? e.message : String(e)}\n`, exitCode: 1 };
      }
    },
    async advance(ms) {
      if (!Number.isInteger(ms) || ms < 0) throw new Error(`advance(ms): ms must be a non-negative integer (got ${ms})`);
      kernel.runFor(ms);
    },
    now: () => kernel.now(),
    snapshot: () => clusterSnapshot(plan, controlPlane, kernel.now()),
    eventsSince: (after, limit) => eventsSince(controlPlane, after, limit),
    requestTrace: (requestId) => requestTrace(controlPlane, requestId),
    traceRoots: (limit) => traceRoots(controlPlane, limit),
    step(maxMs, maxEvents = 200_000) {
      if (!Number.isInteger(maxMs) || maxMs < 0) throw new Error(`step(maxMs): maxMs must be a non-negative integer (got ${maxMs})`);
      // 10 ms slices: where the slices end changes nothing (no event runs at a slice's end), so
      // the same inputs at the same simulated times give the same trace however a caller steps
      const start = kernel.now();
      const firstEvent = kernel.eventsRun;
      while (kernel.now() - start < maxMs && kernel.eventsRun - firstEvent < maxEvents) {
        kernel.runFor(Math.min(10, maxMs - (kernel.now() - start)));
      }
      return kernel.now() - start;
    },
    faults,
    trace: () => kernel.trace.events(),
    schedulerDecision: (namespace, name) => schedulerDecision(controlPlane, namespace, name),
    schedulerAttempts: () => schedulerAttempts(controlPlane),
    requestDurations: () => requestDurations(controlPlane),
    traceHash: () => kernel.trace.hash(),
    internals: { kernel, plan, controlPlane, components, restClient, driveUntil, files, cloud },
  };
  return cluster;
}

/** Waits for the replicas (and the load balancer's health checks) to be ready; throws if they are not. */
function waitForControlPlane(plan: ClusterPlan, cp: ControlPlane, driveUntil: (done: () => boolean, ms: number) => boolean): void {
  const ready = (): boolean => cp.replicas.every((r) => r.current()?.isReady === true)
    && (cp.loadBalancer === undefined || cp.loadBalancer.healthyBackends().length === plan.apiServers.length);
  if (!driveUntil(ready, BOOT_TIMEOUT_MS)) {
    throw new Error('invariant violated: the control plane became ready within two simulated minutes');
  }
}

/**
 * kubeadm init's EnsureAdminClusterRoleBinding (cmd/kubeadm/app/phases/kubeconfig): with the
 * super-admin credentials, binds the group of admin.conf's user to cluster-admin.
 */
function ensureAdminClusterRoleBinding(client: RestClient, cp: ControlPlane, driveUntil: (done: () => boolean, ms: number) => boolean, kernel: Kernel): void {
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding',
    metadata: { name: 'kubeadm:cluster-admins' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'kubeadm:cluster-admins' }],
  };
  let code = 0;
  client.request({ verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings', body: binding }, (res) => (code = res.code));
  if (!driveUntil(() => code !== 0, BOOT_TIMEOUT_MS) || (code !== 201 && code !== 409)) {
    throw new Error(`invariant violated: kubeadm init created the kubeadm:cluster-admins ClusterRoleBinding (got code ${code})`);
  }
  // every replica's RBAC cache has it before admin.conf is used (kubeadm waits the same way)
  const allowed = new Set<ApiServer>();
  const ask = (): void => {
    for (const server of cp.liveServers()) {
      if (allowed.has(server)) continue;
      server.request({ verb: 'get', group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings', name: binding.metadata.name, query: { resourceVersion: '0' }, credentials: ADMIN_CREDENTIALS },
        (res) => { if (res.code === 200) allowed.add(server); });
    }
  };
  const poll = kernel.every(10, ask);
  const ok = driveUntil(() => cp.liveServers().every((server) => allowed.has(server)), BOOT_TIMEOUT_MS);
  poll.cancel();
  if (!ok) throw new Error('invariant violated: every API server allowed admin.conf\'s user once kubeadm:cluster-admins was bound');
}

/** Waits until every visible machine's kubelet has registered its Node (kubeadm join waits the same way). */
function waitForNodes(plan: ClusterPlan, client: RestClient, driveUntil: (done: () => boolean, ms: number) => boolean, kernel: Kernel): void {
  const expected = plan.machines.filter((m) => m.visible).length;
  let registered = -1;
  let asking = false;
  const ask = (): void => {
    asking = true;
    client.request({ verb: 'list', group: '', resource: 'nodes' }, (res) => {
      asking = false;
      if (res.code === 200) registered = (res.body as { items: unknown[] }).items.length;
    });
  };
  const poll = kernel.every(200, () => {
    if (!asking) ask();
  });
  const ok = driveUntil(() => registered === expected, BOOT_TIMEOUT_MS);
  poll.cancel();
  if (!ok) throw new Error(`invariant violated: every node registered (${registered} of ${expected} after two simulated minutes)`);
  kernel.record('cluster.ready', 'cluster', `${plan.topology}: ${plan.machines.length} machines, ${plan.etcdMembers.length} etcd, ${plan.apiServers.length} apiservers`);
  client.close();
}
