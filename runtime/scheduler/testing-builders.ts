// Small builders for scheduler tests and benchmarks (st.MakePod / st.MakeNode in upstream's
// pkg/scheduler/testing/wrappers.go). Quantities are strings, as on the wire.
import type {
  Container,
  ContainerPort,
  Node,
  Pod,
  PodDisruptionBudget,
  PodSpec,
  Taint,
} from '../api/index.ts';

export interface NodeOptions {
  cpu?: string;
  memory?: string;
  pods?: number;
  ephemeralStorage?: string;
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
  images?: { names: string[]; sizeBytes: number }[];
}

export function makeNode(name: string, o: NodeOptions = {}): Node {
  const allocatable: Record<string, string> = {
    cpu: o.cpu ?? '4',
    memory: o.memory ?? '8Gi',
    pods: String(o.pods ?? 110),
  };
  if (o.ephemeralStorage) allocatable['ephemeral-storage'] = o.ephemeralStorage;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...o.labels } },
    spec: {
      ...(o.taints ? { taints: o.taints } : {}),
      ...(o.unschedulable ? { unschedulable: true } : {}),
    },
    status: { capacity: allocatable, allocatable, images: o.images ?? [] },
  };
}

export interface ContainerOptions {
  cpu?: string;
  memory?: string;
  image?: string;
  ports?: ContainerPort[];
}

export function container(o: ContainerOptions = {}, name = 'c'): Container {
  const requests: Record<string, string> = {};
  if (o.cpu !== undefined) requests['cpu'] = o.cpu;
  if (o.memory !== undefined) requests['memory'] = o.memory;
  return {
    name,
    image: o.image ?? 'registry.k8s.io/pause:3.10',
    ...(Object.keys(requests).length ? { resources: { requests } } : {}),
    ...(o.ports ? { ports: o.ports } : {}),
  };
}

export interface PodOptions extends Partial<Omit<PodSpec, 'containers'>> {
  namespace?: string;
  labels?: Record<string, string>;
  containers?: Container[];
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed';
  /** status.startTime (RFC 3339), as st.MakePod().StartTime(...). */
  startTime?: string;
  uid?: string;
}

export function makePod(name: string, o: PodOptions = {}): Pod {
  const { namespace, labels, containers, phase, startTime, uid, ...spec } = o;
  const status = { ...(phase ? { phase } : {}), ...(startTime ? { startTime } : {}) };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: namespace ?? 'default',
      ...(uid ? { uid } : {}),
      ...(labels ? { labels } : {}),
    },
    spec: { ...spec, containers: containers ?? [] },
    ...(Object.keys(status).length ? { status } : {}),
  };
}

export interface PDBOptions {
  namespace?: string;
  /** spec.selector.matchLabels; null leaves the selector out (nil selector). */
  matchLabels?: Record<string, string> | null;
  disruptionsAllowed?: number;
  /** status.disruptedPods: pod name -> eviction time. */
  disruptedPods?: Record<string, string>;
}

/** st.MakePDB(): a policy/v1 PodDisruptionBudget with just what preemption reads. */
export function makePDB(name: string, o: PDBOptions = {}): PodDisruptionBudget {
  const matchLabels = o.matchLabels === undefined ? {} : o.matchLabels;
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: o.namespace ?? 'default' },
    spec: matchLabels === null ? {} : { selector: { matchLabels } },
    status: {
      disruptionsAllowed: o.disruptionsAllowed ?? 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
      ...(o.disruptedPods ? { disruptedPods: o.disruptedPods } : {}),
    },
  };
}
