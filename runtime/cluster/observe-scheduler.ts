// The scheduler's reasoning for one pod, for the page's scheduler explainer: the
// kube-scheduler-simulator annotations the scheduler writes after each attempt (scheduler/annotations.ts,
// in clusters of up to SCHEDULER_ANNOTATIONS_MAX_NODES nodes), parsed, with the pod's PodScheduled
// condition ("0/5 nodes are available: ..." when it is Pending). Read from a running API server's
// watch cache (ApiServer.peek), as observe.ts reads, never through the simulated network: looking
// changes nothing.
import type { Pod } from '../api/index.ts';
import { parseRFC3339 } from '../api/index.ts';
import { FILTER_RESULT, FINAL_SCORE_RESULT, POST_FILTER_RESULT, PRE_FILTER_RESULT, SCORE_RESULT, SELECTED_NODE } from '../scheduler/index.ts';
import type { ControlPlane } from './control-plane.ts';

/** A pod the scheduler has tried (it carries the annotations): what a list of decisions shows. */
export interface SchedulerAttempt {
  namespace: string;
  name: string;
  /** The node the last attempt chose ("" when no node fit). */
  selectedNode: string;
  /** PodScheduled is True: the pod is bound (Pending pods the scheduler failed have False). */
  scheduled: boolean;
  /** Simulated ms of the PodScheduled condition's last transition (whole seconds, as RFC 3339 keeps them). */
  decidedAtMs: number;
  /** The pod's resourceVersion: it changes when a new attempt rewrites the annotations. */
  resourceVersion: string;
}

/** One attempt of the scheduler for a pod, as its annotations and status record it. */
export interface SchedulerDecision {
  namespace: string;
  name: string;
  /** selected-node: where the last attempt placed the pod ("" when no node fit). */
  selectedNode: string;
  /** spec.nodeName: the node the pod is bound to, if any. */
  boundNode?: string;
  /** status.nominatedNodeName: the node preemption freed room on, if any. */
  nominatedNode?: string;
  /**
   * filter-result: node -> Filter plugin -> "passed" or the reason it rejected the node. A node's
   * plugins stop at the first that rejects it; a node a PreFilterResult left out is absent.
   */
  filter: Record<string, Record<string, string>>;
  /** score-result: node -> Score plugin -> its raw score (only for nodes that passed every filter). */
  score: Record<string, Record<string, number>>;
  /** finalscore-result: node -> Score plugin -> the score after NormalizeScore, times the plugin's weight. */
  finalScore: Record<string, Record<string, number>>;
  /** prefilter-result: PreFilter plugin -> the only nodes it allows (absent: all nodes). */
  preFilter: Record<string, string[]>;
  /** postfilter-result: node -> PostFilter plugin (DefaultPreemption) -> what it found there. */
  postFilter: Record<string, Record<string, string>>;
  /** The PodScheduled condition: True, or False with reason Unschedulable and the "0/N nodes are available: ..." message. */
  condition?: { status: string; reason?: string; message?: string; lastTransitionMs: number };
}

/** The annotation's JSON object, or {} when it is absent or not an object (someone edited it). */
function parsed<T>(annotations: Readonly<Record<string, string>>, key: string): T {
  const text = annotations[key];
  if (!text) return {} as T;
  try {
    const v: unknown = JSON.parse(text);
    return (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {}) as T;
  } catch {
    return {} as T;
  }
}

function numbers(m: Record<string, Record<string, string>>): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const [node, plugins] of Object.entries(m)) {
    const scores: Record<string, number> = {};
    for (const [plugin, value] of Object.entries(plugins ?? {})) scores[plugin] = Number(value);
    out[node] = scores;
  }
  return out;
}

function podsOf(controlPlane: ControlPlane): readonly Pod[] {
  return (controlPlane.liveServers()[0]?.peek('', 'pods') ?? []) as readonly Pod[];
}

const podScheduled = (pod: Pod) => pod.status?.conditions?.find((c) => c.type === 'PodScheduled');

/**
 * Every pod that carries the scheduler's annotations: Pending ones it could not place first (oldest
 * attempt first), then the scheduled ones, most recent decision first.
 */
export function schedulerAttempts(controlPlane: ControlPlane): SchedulerAttempt[] {
  const out: SchedulerAttempt[] = [];
  for (const pod of podsOf(controlPlane)) {
    const annotations = pod.metadata.annotations;
    const selectedNode = annotations?.[SELECTED_NODE];
    if (selectedNode === undefined) continue;
    const cond = podScheduled(pod);
    out.push({
      namespace: pod.metadata.namespace ?? 'default',
      name: pod.metadata.name ?? '',
      selectedNode,
      scheduled: cond?.status === 'True' || (cond === undefined && Boolean(pod.spec.nodeName)),
      decidedAtMs: (cond?.lastTransitionTime && parseRFC3339(cond.lastTransitionTime)) || 0,
      resourceVersion: pod.metadata.resourceVersion ?? '',
    });
  }
  return out.sort((a, b) => (a.scheduled === b.scheduled ? 0 : a.scheduled ? 1 : -1)
    || (a.scheduled ? b.decidedAtMs - a.decidedAtMs : a.decidedAtMs - b.decidedAtMs)
    || (a.namespace === b.namespace ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.namespace < b.namespace ? -1 : 1));
}

/** The scheduler's last decision for one pod; undefined when the pod does not exist or carries no annotations. */
export function schedulerDecision(controlPlane: ControlPlane, namespace: string, name: string): SchedulerDecision | undefined {
  const pod = podsOf(controlPlane).find((p) => p.metadata.name === name && (p.metadata.namespace ?? 'default') === namespace);
  const annotations = pod?.metadata.annotations;
  const selectedNode = annotations?.[SELECTED_NODE];
  if (!pod || !annotations || selectedNode === undefined) return undefined;
  const cond = podScheduled(pod);
  return {
    namespace,
    name,
    selectedNode,
    ...(pod.spec.nodeName ? { boundNode: pod.spec.nodeName } : {}),
    ...(pod.status?.nominatedNodeName ? { nominatedNode: pod.status.nominatedNodeName } : {}),
    filter: parsed(annotations, FILTER_RESULT),
    score: numbers(parsed(annotations, SCORE_RESULT)),
    finalScore: numbers(parsed(annotations, FINAL_SCORE_RESULT)),
    preFilter: parsed(annotations, PRE_FILTER_RESULT),
    postFilter: parsed(annotations, POST_FILTER_RESULT),
    ...(cond ? {
      condition: {
        status: cond.status,
        ...(cond.reason ? { reason: cond.reason } : {}),
        ...(cond.message ? { message: cond.message } : {}),
        lastTransitionMs: (cond.lastTransitionTime && parseRFC3339(cond.lastTransitionTime)) || 0,
      },
    } : {}),
  };
}
