// Guards for the plug-in points a learner's code can fill (ClusterOptions.plugins): they give the
// learner's function copies of what the component holds (so a stray mutation cannot corrupt an
// informer cache or the scheduler's snapshot), check the shape of what it returns, and turn a throw
// or a malformed answer into a LearnerCodeError whose message names the learner's function. The
// first such error is also kept in a LearnerFaults record, because a component may catch errors
// (a controller worker logs a failed sync and retries) and a scenario must still stop and say so.
// Nothing here knows a lab: the names used in messages are the caller's (labs/<slug>/scenario.ts).
import { deepCopy } from '../api/index.ts';
import type { Pod, ReplicaSet } from '../api/index.ts';
import type { ReplicaSetDecision, ReplicaSetReconciler } from '../controllers/index.ts';
import type { NodeInfo, NodeScore, PodInfo, ScoreExtensions, ScorePlugin, Status } from '../scheduler/index.ts';

/** An error raised by (or about) the learner's code, as opposed to a bug in the simulation. */
export class LearnerCodeError extends Error {
  override name = 'LearnerCodeError';
}

/** The first problem the learner's code caused during a run (later ones are usually echoes). */
export class LearnerFaults {
  first: LearnerCodeError | undefined;

  record(error: LearnerCodeError): LearnerCodeError {
    this.first ??= error;
    return error;
  }

  /** Throws the recorded error, so a scenario stops at the next check after the fault. */
  check(): void {
    if (this.first) throw this.first;
  }
}

/** "Name: message" for an Error, the value as text otherwise. */
export function describeThrown(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * A learner's ReplicaSetReconciler for `plugins.replicaSetReconciler`, given copies of its inputs
 * and checked on the way out. `name` is what messages call it (the learner's export name).
 */
export function guardReplicaSetReconciler(learner: ReplicaSetReconciler, name: string, faults: LearnerFaults): ReplicaSetReconciler {
  return (rs, pods, context) => {
    let decision: unknown;
    try {
      decision = learner(deepCopy(rs) as ReplicaSet, pods.map((p) => deepCopy(p) as Pod), { ...context, relatedPods: context.relatedPods.map((p) => deepCopy(p) as Pod) });
    } catch (error) {
      throw faults.record(new LearnerCodeError(`${name} threw while syncing ReplicaSet "${rs.metadata.name ?? ''}": ${describeThrown(error)}`));
    }
    const problem = decisionProblem(decision);
    if (problem) throw faults.record(new LearnerCodeError(`${name} returned ${problem} for ReplicaSet "${rs.metadata.name ?? ''}"`));
    const { podsToCreate, podsToDelete } = decision as ReplicaSetDecision;
    return { podsToCreate, podsToDelete: [...podsToDelete] };
  };
}

function decisionProblem(decision: unknown): string | undefined {
  if (typeof decision !== 'object' || decision === null) return `${String(decision)} instead of { podsToCreate, podsToDelete }`;
  const { podsToCreate, podsToDelete } = decision as Partial<Record<keyof ReplicaSetDecision, unknown>>;
  if (typeof podsToCreate !== 'number' || !Number.isInteger(podsToCreate) || podsToCreate < 0) {
    return `podsToCreate = ${String(podsToCreate)} (a whole number >= 0 is expected)`;
  }
  if (!Array.isArray(podsToDelete) || podsToDelete.some((n) => typeof n !== 'string')) {
    return `podsToDelete = ${JSON.stringify(podsToDelete) ?? String(podsToDelete)} (a list of pod names is expected)`;
  }
  return undefined;
}

/**
 * A learner's Score plugin for an out-of-tree registry (`plugins.schedulerRegistry`), built by
 * `build` when the scheduler instantiates it: it runs as `name` in the profile, gets copies of the
 * pod and node and a CycleState of its own, and its answers are checked. `factoryName` is what
 * messages call the learner's constructor ("newLeastAllocated").
 */
export function guardScorePlugin(name: string, factoryName: string, build: () => ScorePlugin, faults: LearnerFaults): ScorePlugin {
  let plugin: ScorePlugin;
  try {
    plugin = build();
  } catch (error) {
    throw faults.record(new LearnerCodeError(`${factoryName}() threw: ${describeThrown(error)}`));
  }
  if (typeof plugin?.score !== 'function') throw faults.record(new LearnerCodeError(`${factoryName}() returned a plugin without a score method`));
  const where = (what: string) => `${factoryName}(...).${what}`;
  return {
    name,
    // the learner's plugin gets a CycleState of its own: the built-in plugins' entries stay out of reach
    score(_state, pod, nodeInfo) {
      let answer: unknown;
      try {
        answer = plugin.score(new Map(), copyPodInfo(pod), copyNodeInfo(nodeInfo));
      } catch (error) {
        throw faults.record(new LearnerCodeError(`${where('score')} threw for pod "${pod.name}" on node "${nodeInfo.node?.name ?? '?'}": ${describeThrown(error)}`));
      }
      const problem = scoreProblem(answer);
      if (problem) throw faults.record(new LearnerCodeError(`${where('score')} returned ${problem} for pod "${pod.name}" on node "${nodeInfo.node?.name ?? '?'}"`));
      const [score, status] = answer as [number, Status];
      return [score, { code: status.code, reasons: [...status.reasons] }];
    },
    scoreExtensions: () => guardNormalize(plugin, where, faults),
  };
}

function guardNormalize(plugin: ScorePlugin, where: (what: string) => string, faults: LearnerFaults): ScoreExtensions | null {
  let ext: ScoreExtensions | null;
  try {
    ext = typeof plugin.scoreExtensions === 'function' ? plugin.scoreExtensions() : null;
  } catch (error) {
    throw faults.record(new LearnerCodeError(`${where('scoreExtensions')}() threw: ${describeThrown(error)}`));
  }
  if (!ext) return null;
  const learnerExt = ext;
  return {
    normalizeScore(_state, pod, scores) {
      try {
        const [normalized, status] = learnerExt.normalizeScore(new Map(), copyPodInfo(pod), scores.map((s) => ({ ...s })));
        return [normalized.map((s: NodeScore) => ({ name: s.name, score: s.score })), status];
      } catch (error) {
        throw faults.record(new LearnerCodeError(`${where('scoreExtensions().normalizeScore')} threw for pod "${pod.name}": ${describeThrown(error)}`));
      }
    },
  };
}

function scoreProblem(answer: unknown): string | undefined {
  if (!Array.isArray(answer) || answer.length !== 2) return `${JSON.stringify(answer) ?? String(answer)} instead of [score, status]`;
  const [score, status] = answer as [unknown, unknown];
  if (typeof score !== 'number') return `the score ${JSON.stringify(score) ?? String(score)} (a number is expected)`;
  const s = status as Partial<Status> | null;
  if (typeof s !== 'object' || s === null || typeof s.code !== 'string' || !Array.isArray(s.reasons)) {
    return `the status ${JSON.stringify(status) ?? String(status)} (a { code, reasons } object is expected)`;
  }
  return undefined;
}

/** Just the PodInfo fields a Score plugin reads, copied: the scheduler's own object stays out of reach. */
function copyPodInfo(pod: PodInfo): PodInfo {
  return {
    name: pod.name,
    namespace: pod.namespace,
    containers: pod.containers.map((c) => ({ name: c.name, requests: { ...c.requests } })),
  };
}

function copyNodeInfo(info: NodeInfo): NodeInfo {
  return {
    node: info.node ? { name: info.node.name } : null,
    allocatable: { milliCPU: info.allocatable.milliCPU, memory: info.allocatable.memory },
    requested: { milliCPU: info.requested.milliCPU, memory: info.requested.memory },
    nonZeroRequested: { milliCPU: info.nonZeroRequested.milliCPU, memory: info.nonZeroRequested.memory },
    pods: info.pods.map(copyPodInfo),
  };
}
