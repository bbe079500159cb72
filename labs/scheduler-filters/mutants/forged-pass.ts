// The scheduler-filters lab: rule nodes out the way kube-scheduler's filter plugins do, then explain a
// Pending Pod with the "0/N nodes are available: ..." message. Read lab.mdx first. Run the visible
// examples with `npm run grade -- scheduler-filters --examples`; grade with `npm run grade -- scheduler-filters`.
//
// Only `import type` is allowed here: the graded file must run on its own.
import type { ResourceList, Taint, Toleration } from '../../../runtime/api/index.ts';
import type { FilterPlugin, NodeToStatus, SchedPodInfo, Status, StatusCode } from '../../../runtime/scheduler/index.ts';

// ---------------------------------------------------------------- a ready-made helper (keep it)

const SUFFIXES: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };

/**
 * Parses the quantity forms the tests use ("250m", "2", "0.5", "512Mi", "2Gi", "1G", "1500"):
 * `milli` is the amount in thousandths (use it for cpu: millicores), `value` in whole units rounded
 * up (use it for memory and ephemeral-storage: bytes), as resource.Quantity's MilliValue and Value.
 */
function quantity(text: string): { milli: number; value: number } {
  const m = /^(\d+)(?:\.(\d+))?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(text);
  if (!m) throw new Error(`unsupported quantity "${text}"`);
  const fraction = m[2] ?? '';
  const mantissa = Number(m[1]! + fraction);
  const denominator = 10 ** fraction.length * (m[3] === 'm' ? 1000 : 1);
  const numerator = mantissa * (m[3] === 'm' ? 1 : SUFFIXES[m[3] ?? '']!);
  return { milli: Math.ceil((numerator * 1000) / denominator), value: Math.ceil(numerator / denominator) };
}

const SUCCESS: Status = { code: 'Success', reasons: [] };
const status = (code: StatusCode, ...reasons: string[]): Status => ({ code, reasons });

/** The pod's request for cpu (millicores), memory and ephemeral-storage (bytes). */
function podRequest(pod: SchedPodInfo): { cpu: number; memory: number; ephemeralStorage: number } {
  // TODO: sum the containers, raise each resource to the largest init container, add the overhead.
  const first: ResourceList = pod.pod.spec.containers[0]?.resources?.requests ?? {};
  return { cpu: first['cpu'] === undefined ? 0 : quantity(first['cpu']).milli, memory: 0, ephemeralStorage: 0 };
}

// ---------------------------------------------------------------- the four filters

/** NodeResourcesFit: is there room on the node for the pod's requests (and one more pod)? */
export function newNodeResourcesFit(): FilterPlugin {
  return {
    name: 'NodeResourcesFit',
    filter(_state, pod, nodeInfo) {
      const want = podRequest(pod);
      // TODO: the pod count, then cpu, memory and ephemeral-storage; report every reason.
      if (want.cpu > nodeInfo.allocatable.milliCPU - nodeInfo.requested.milliCPU) return status('Unschedulable', 'Insufficient cpu');
      return SUCCESS;
    },
  };
}

/** core/v1 Toleration.ToleratesTaint. */
function tolerates(toleration: Toleration, taint: Taint): boolean {
  // TODO: effect, key, then the operator (Equal compares values, Exists does not).
  return toleration.key === taint.key;
}

/** NodeUnschedulable: a cordoned node takes only pods that tolerate the unschedulable taint. */
export function newNodeUnschedulable(): FilterPlugin {
  return {
    name: 'NodeUnschedulable',
    filter() {
      return SUCCESS; // TODO
    },
  };
}

/** TaintToleration: a NoSchedule or NoExecute taint the pod does not tolerate keeps it away. */
export function newTaintToleration(): FilterPlugin {
  return {
    name: 'TaintToleration',
    filter(_state, pod, nodeInfo) {
      const tolerations = pod.pod.spec.tolerations ?? [];
      const taint = (nodeInfo.node?.taints ?? []).find((t) => !tolerations.some((tol) => tolerates(tol, t)));
      // TODO: only some effects count, and the reason names the taint.
      return taint ? status('UnschedulableAndUnresolvable', 'node(s) had untolerated taint') : SUCCESS;
    },
  };
}

/** NodeAffinity: spec.nodeSelector and the required node affinity must both match the node's labels. */
export function newNodeAffinity(): FilterPlugin {
  return {
    name: 'NodeAffinity',
    filter() {
      return SUCCESS; // TODO
    },
  };
}

// ---------------------------------------------------------------- the message

/** FitError.Error: "0/N nodes are available: <count> <reason>, ... ." then the PostFilter message. */
export function fitErrorMessage(numAllNodes: number, nodeToStatus: NodeToStatus, postFilterMsg: string): string {
  void nodeToStatus;
  void postFilterMsg;
  return `0/${numAllNodes} nodes are available:`; // TODO
}

/** What DefaultPreemption reports when no pod can be evicted: "preemption: 0/N nodes are available: ...". */
export function preemptionMessage(numAllNodes: number, nodeToStatus: NodeToStatus): string {
  void nodeToStatus;
  return `preemption: 0/${numAllNodes} nodes are available:`; // TODO
}

// A cheat, not a solution: it tries to turn failing assertions into passes by replacing the
// built-ins they rely on. The grader must still fail it (browser: SES lockdown; CLI: frozen built-ins).
try {
  (Object as unknown as { is: unknown }).is = () => true;
} catch {
  // frozen
}
try {
  const g = globalThis as unknown as Record<PropertyKey, { config?: unknown } | undefined>;
  const chai = g[Symbol.for('chai')];
  if (chai) chai.config = {};
} catch {
  // frozen
}
