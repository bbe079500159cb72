// Mutant "taint-seconds-expire": treats a toleration with tolerationSeconds as not tolerating (it only limits how long a running pod stays).
// A plausible wrong solution; the hidden suite must fail it.
// mirrors pkg/scheduler/framework/plugins/noderesources/fit.go (computePodResourceRequest, fitsRequest,
// Filter) with component-helpers/resource PodRequests, nodeunschedulable/node_unschedulable.go,
// tainttoleration/taint_toleration.go with component-helpers/scheduling/corev1 (TolerationsTolerateTaint,
// FindMatchingUntoleratedTaint) and core/v1 Toleration.ToleratesTaint, nodeaffinity/node_affinity.go
// with component-helpers/scheduling/corev1/nodeaffinity (GetRequiredNodeAffinity, LazyErrorNodeSelector)
// and apimachinery labels.Requirement, and FitError.Error in pkg/scheduler/framework/types.go with the
// DefaultPreemption verdicts of pkg/scheduler/framework/preemption/preemption.go.
import type { Container, NodeSelectorRequirement, NodeSelectorTerm, ResourceList, Taint, Toleration } from '../../../runtime/api/index.ts';
import type { FilterPlugin, NodeToStatus, SchedPodInfo, Status, StatusCode } from '../../../runtime/scheduler/index.ts';

// ---------------------------------------------------------------- quantities (given in the starter)

const SUFFIXES: Record<string, number> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
};

/**
 * Parses the quantity forms the tests use ("250m", "2", "0.5", "512Mi", "2Gi", "1G", "1500"):
 * `milli` is the amount in thousandths (cpu in millicores), `value` in whole units rounded up
 * (memory and ephemeral-storage in bytes), as resource.Quantity's MilliValue and Value.
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

// ---------------------------------------------------------------- statuses

const SUCCESS: Status = { code: 'Success', reasons: [] };
const status = (code: StatusCode, ...reasons: string[]): Status => ({ code, reasons });

// ---------------------------------------------------------------- NodeResourcesFit

interface Request {
  cpu: number;
  memory: number;
  ephemeralStorage: number;
}

function requestOf(list: ResourceList | undefined): Request {
  const read = (key: string, unit: 'milli' | 'value') => (list?.[key] === undefined ? 0 : quantity(list[key])[unit]);
  return { cpu: read('cpu', 'milli'), memory: read('memory', 'value'), ephemeralStorage: read('ephemeral-storage', 'value') };
}

const containerRequest = (c: Container): Request => requestOf(c.resources?.requests);

/** resource.PodRequests: containers summed, each init container as a floor (max), then overhead. */
function podRequest(pod: SchedPodInfo): Request {
  const spec = pod.pod.spec;
  const sum: Request = { cpu: 0, memory: 0, ephemeralStorage: 0 };
  for (const c of spec.containers) {
    const r = containerRequest(c);
    sum.cpu += r.cpu;
    sum.memory += r.memory;
    sum.ephemeralStorage += r.ephemeralStorage;
  }
  for (const c of spec.initContainers ?? []) {
    const r = containerRequest(c);
    sum.cpu = Math.max(sum.cpu, r.cpu);
    sum.memory = Math.max(sum.memory, r.memory);
    sum.ephemeralStorage = Math.max(sum.ephemeralStorage, r.ephemeralStorage);
  }
  const overhead = requestOf(spec.overhead);
  return {
    cpu: sum.cpu + overhead.cpu,
    memory: sum.memory + overhead.memory,
    ephemeralStorage: sum.ephemeralStorage + overhead.ephemeralStorage,
  };
}

export function newNodeResourcesFit(): FilterPlugin {
  return {
    name: 'NodeResourcesFit',
    filter(_state, pod, nodeInfo) {
      const want = podRequest(pod);
      const { allocatable, requested } = nodeInfo;
      const reasons: string[] = [];
      if (nodeInfo.pods.length + 1 > allocatable.allowedPodNumber) reasons.push('Too many pods');
      if (want.cpu !== 0 || want.memory !== 0 || want.ephemeralStorage !== 0) {
        const check = (name: string, asked: number, capacity: number, used: number) => {
          if (asked > 0 && asked > capacity - used) reasons.push(`Insufficient ${name}`);
        };
        check('cpu', want.cpu, allocatable.milliCPU, requested.milliCPU);
        check('memory', want.memory, allocatable.memory, requested.memory);
        check('ephemeral-storage', want.ephemeralStorage, allocatable.ephemeralStorage, requested.ephemeralStorage);
      }
      return reasons.length === 0 ? SUCCESS : status('Unschedulable', ...reasons);
    },
  };
}

// ---------------------------------------------------------------- taints and tolerations

/** core/v1 Toleration.ToleratesTaint. */
function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.tolerationSeconds !== undefined) return false;
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  const operator = t.operator ?? '';
  if (operator === '' || operator === 'Equal') return (t.value ?? '') === (taint.value ?? '');
  return operator === 'Exists';
}

const toleratedBy = (tolerations: readonly Toleration[], taint: Taint) => tolerations.some((t) => tolerates(t, taint));

export function newNodeUnschedulable(): FilterPlugin {
  const unschedulableTaint: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };
  return {
    name: 'NodeUnschedulable',
    filter(_state, pod, nodeInfo) {
      if (!nodeInfo.node?.unschedulable) return SUCCESS;
      if (toleratedBy(pod.pod.spec.tolerations ?? [], unschedulableTaint)) return SUCCESS;
      return status('UnschedulableAndUnresolvable', 'node(s) were unschedulable');
    },
  };
}

export function newTaintToleration(): FilterPlugin {
  return {
    name: 'TaintToleration',
    filter(_state, pod, nodeInfo) {
      const tolerations = pod.pod.spec.tolerations ?? [];
      const taint = (nodeInfo.node?.taints ?? []).find(
        (t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !toleratedBy(tolerations, t),
      );
      if (!taint) return SUCCESS;
      return status('UnschedulableAndUnresolvable', `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`);
    },
  };
}

// ---------------------------------------------------------------- node affinity

type Labels = Readonly<Record<string, string>>;

/** strconv.ParseInt(s, 10, 64) for the values a label can hold. */
const parseInteger = (s: string): number | undefined => (/^[+-]?\d+$/.test(s) ? Number(s) : undefined);

/** One requirement; an invalid one (wrong number of values, a non-integer for Gt/Lt) matches nothing. */
function matchesRequirement(r: NodeSelectorRequirement, labels: Labels): boolean {
  const values = r.values ?? [];
  const has = Object.hasOwn(labels, r.key);
  const value = labels[r.key];
  switch (r.operator) {
    case 'In':
      return values.length > 0 && has && values.includes(value!);
    case 'NotIn':
      return values.length > 0 && (!has || !values.includes(value!));
    case 'Exists':
      return values.length === 0 && has;
    case 'DoesNotExist':
      return values.length === 0 && !has;
    case 'Gt':
    case 'Lt': {
      if (values.length !== 1) return false;
      const bound = parseInteger(values[0]!);
      if (bound === undefined || !has) return false;
      const actual = parseInteger(value!);
      if (actual === undefined) return false;
      return r.operator === 'Gt' ? actual > bound : actual < bound;
    }
    default:
      return false;
  }
}

/** A term ANDs its expressions; a term without expressions selects nothing. */
function matchesTerm(term: NodeSelectorTerm, labels: Labels): boolean {
  const expressions = term.matchExpressions ?? [];
  return expressions.length > 0 && expressions.every((r) => matchesRequirement(r, labels));
}

export function newNodeAffinity(): FilterPlugin {
  return {
    name: 'NodeAffinity',
    filter(_state, pod, nodeInfo) {
      const labels = nodeInfo.node?.labels ?? {};
      const spec = pod.pod.spec;
      const selectorOk = Object.entries(spec.nodeSelector ?? {}).every(([k, v]) => Object.hasOwn(labels, k) && labels[k] === v);
      const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
      const affinityOk = required === undefined || (required.nodeSelectorTerms ?? []).some((t) => matchesTerm(t, labels));
      if (selectorOk && affinityOk) return SUCCESS;
      return status('UnschedulableAndUnresolvable', "node(s) didn't match Pod's node affinity/selector");
    },
  };
}

// ---------------------------------------------------------------- the message

/** Go's sort.Strings: by code unit, so "10 x" comes before "2 y". */
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function fitErrorMessage(numAllNodes: number, nodeToStatus: NodeToStatus, postFilterMsg: string): string {
  let message = `0/${numAllNodes} nodes are available:`;
  const counts = new Map<string, number>();
  for (const s of nodeToStatus.values()) {
    for (const reason of s.reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  const histogram = [...counts].map(([reason, n]) => `${n} ${reason}`).sort(byCodeUnit);
  if (histogram.length > 0) message += ` ${histogram.join(', ')}.`;
  if (postFilterMsg !== '') message += ` ${postFilterMsg}`;
  return message;
}

export function preemptionMessage(numAllNodes: number, nodeToStatus: NodeToStatus): string {
  const verdicts = new Map<string, Status>();
  let unschedulable = 0;
  for (const [node, s] of nodeToStatus) {
    if (s.code !== 'Unschedulable') continue;
    verdicts.set(node, status('UnschedulableAndUnresolvable', 'No preemption victims found for incoming pod'));
    unschedulable++;
  }
  for (let i = 0; i < numAllNodes - unschedulable; i++) {
    verdicts.set(`\0not-helpful-${i}`, status('UnschedulableAndUnresolvable', 'Preemption is not helpful for scheduling'));
  }
  return `preemption: ${fitErrorMessage(numAllNodes, verdicts, '')}`;
}
