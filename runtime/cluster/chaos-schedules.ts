// The fault menus of the chaos runs (chaos.ts): which cluster a schedule builds, how big its
// Deployment is, and what one random fault step may do to it. Every choice comes from the
// schedule's own seeded stream, so a seed replays the same faults at the same simulated times.
//   single-node: stop/start the machines and components, symmetric partitions of the two machines,
//                and cuts between one component (or the etcd member) and the API server.
//   ha:          3 control-plane machines with stacked etcd, 3 API servers behind the load
//                balancer, 2 workers: etcd leader and member kills, API server replica kills,
//                minority and majority partitions of the control plane, and a split where no side
//                keeps an etcd quorum.
import type { Rng } from '../kernel/index.ts';
import type { Cluster } from './cluster.ts';
import type { ClusterOptions } from './options.ts';

export type ChaosTopology = 'single-node' | 'ha';

/** What is broken right now, so a step can undo it and the end of the fault phase can undo the rest. */
export interface FaultState {
  /** 'node:<machine>' or a component name. */
  stopped: Set<string>;
  partitioned: boolean;
}

export interface ChaosSchedule {
  cluster: ClusterOptions;
  replicas: number;
  /** Applies one random fault (or undoes one) and says what it did. */
  step(cluster: Cluster, rng: Rng, state: FaultState): Promise<string>;
}

const NGINX = { names: ['nginx:1.27'], sizeBytes: 72_000_000 };

export function chaosSchedule(topology: ChaosTopology): ChaosSchedule {
  return topology === 'ha' ? HA : SINGLE_NODE;
}

/** Starts what is stopped and heals the network; returns what it did, in order. */
export async function recoverAll(cluster: Cluster, state: FaultState): Promise<string[]> {
  const log: string[] = [];
  if (state.partitioned) {
    await cluster.faults.heal();
    state.partitioned = false;
    log.push('heal');
  }
  for (const target of [...state.stopped].sort()) {
    await toggle(cluster, state, target);
    log.push(`start ${target}`);
  }
  return log;
}

/** Stops a running target or starts a stopped one. */
async function toggle(cluster: Cluster, state: FaultState, target: string): Promise<string> {
  const isNode = target.startsWith('node:');
  const name = isNode ? target.slice('node:'.length) : target;
  if (state.stopped.has(target)) {
    await (isNode ? cluster.faults.startNode(name) : cluster.faults.startComponent(name));
    state.stopped.delete(target);
    return `start ${target}`;
  }
  await (isNode ? cluster.faults.stopNode(name) : cluster.faults.stopComponent(name));
  state.stopped.add(target);
  return `stop ${target}`;
}

async function partition(cluster: Cluster, state: FaultState, groups: string[][]): Promise<string> {
  await cluster.faults.partition(groups);
  state.partitioned = true;
  return `partition ${groups.map((g) => `[${g.join(' ')}]`).join(' | ')}`;
}

async function heal(cluster: Cluster, state: FaultState): Promise<string> {
  await cluster.faults.heal();
  state.partitioned = false;
  return 'heal';
}

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.nextInt(xs.length)]!;

const SINGLE_NODE_TARGETS = ['node:worker-1', 'node:cp-1', 'kubelet-worker-1', 'kubelet-cp-1', 'kube-proxy-worker-1', 'kube-scheduler-cp-1',
  'kube-controller-manager-cp-1', 'kube-apiserver-cp-1', 'etcd-cp-1'];
/** Components a cut can separate from the API server (the API server's own etcd client included, via etcd-cp-1). */
const CUT_FROM_APISERVER = ['kubelet-worker-1', 'kubelet-cp-1', 'kube-scheduler-cp-1', 'kube-controller-manager-cp-1', 'etcd-cp-1'];

const SINGLE_NODE: ChaosSchedule = {
  cluster: { topology: 'single-node', workers: [{ images: [NGINX] }] },
  replicas: 2,
  async step(cluster, rng, state) {
    if (rng.nextInt(10) < 7) return toggle(cluster, state, pick(rng, SINGLE_NODE_TARGETS));
    if (state.partitioned) return heal(cluster, state);
    if (rng.nextInt(3) === 0) return partition(cluster, state, [['cp-1'], ['worker-1']]);
    return partition(cluster, state, [[pick(rng, CUT_FROM_APISERVER)], ['kube-apiserver-cp-1']]);
  },
};

const CONTROL_PLANE = ['cp-1', 'cp-2', 'cp-3'];
const WORKERS = ['worker-1', 'worker-2'];
const HA_COMPONENTS = [
  ...CONTROL_PLANE.flatMap((m) => [`kube-scheduler-${m}`, `kube-controller-manager-${m}`]),
  ...WORKERS.map((w) => `kubelet-${w}`), 'node:worker-1', 'node:worker-2',
];

/** One HA fault: the weights favour etcd and the API servers, which this schedule is about. */
async function haStep(cluster: Cluster, rng: Rng, state: FaultState): Promise<string> {
  const roll = rng.nextInt(20);
  if (roll < 3) {
    const leader = cluster.internals.controlPlane.etcd.leader();
    if (leader !== undefined && !state.stopped.has(leader)) return `${await toggle(cluster, state, leader)} (the leader)`;
    return toggle(cluster, state, `etcd-${pick(rng, CONTROL_PLANE)}`);
  }
  if (roll < 7) return toggle(cluster, state, `etcd-${pick(rng, CONTROL_PLANE)}`);
  if (roll < 11) return toggle(cluster, state, `kube-apiserver-${pick(rng, CONTROL_PLANE)}`);
  if (roll < 14) return toggle(cluster, state, pick(rng, HA_COMPONENTS));
  if (state.partitioned) return heal(cluster, state);
  const cps = shuffled(rng, CONTROL_PLANE);
  const kind = rng.nextInt(3);
  // minority: one control-plane machine alone; majority: two of them cut off from the third and
  // the workers; no quorum: every control-plane machine alone
  if (kind === 0) return partition(cluster, state, [[cps[0]!], [cps[1]!, cps[2]!, ...WORKERS]]);
  if (kind === 1) return partition(cluster, state, [[cps[0]!, cps[1]!], [cps[2]!, ...WORKERS]]);
  return partition(cluster, state, [[cps[0]!], [cps[1]!], [cps[2]!, ...WORKERS]]);
}

function shuffled<T>(rng: Rng, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const HA: ChaosSchedule = {
  cluster: { topology: 'ha', workers: [{ images: [NGINX] }, { images: [NGINX] }] },
  replicas: 4,
  step: haStep,
};
