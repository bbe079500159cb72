// The kube-scheduler-simulator annotations: the scheduler's reasoning recorded on the pod.
// mirrors kubernetes-sigs/kube-scheduler-simulator simulator/scheduler/plugin/annotation and
// resultstore/store.go: JSON objects (Go's encoding/json, so keys sorted and <, >, & escaped)
// keyed by node then plugin, values as strings ("passed", a reason, a score).
export const ANNOTATION_PREFIX = 'kube-scheduler-simulator.sigs.k8s.io/';
export const PRE_FILTER_STATUS_RESULT = ANNOTATION_PREFIX + 'prefilter-result-status';
export const PRE_FILTER_RESULT = ANNOTATION_PREFIX + 'prefilter-result';
export const FILTER_RESULT = ANNOTATION_PREFIX + 'filter-result';
export const POST_FILTER_RESULT = ANNOTATION_PREFIX + 'postfilter-result';
export const PRE_SCORE_RESULT = ANNOTATION_PREFIX + 'prescore-result';
export const SCORE_RESULT = ANNOTATION_PREFIX + 'score-result';
export const FINAL_SCORE_RESULT = ANNOTATION_PREFIX + 'finalscore-result';
export const RESERVE_RESULT = ANNOTATION_PREFIX + 'reserve-result';
export const PERMIT_STATUS_RESULT = ANNOTATION_PREFIX + 'permit-result';
export const PERMIT_TIMEOUT_RESULT = ANNOTATION_PREFIX + 'permit-result-timeout';
export const PRE_BIND_RESULT = ANNOTATION_PREFIX + 'prebind-result';
export const BIND_RESULT = ANNOTATION_PREFIX + 'bind-result';
export const SELECTED_NODE = ANNOTATION_PREFIX + 'selected-node';

/** resultstore's PassedFilterMessage, SuccessMessage and PostFilterNominatedMessage. */
export const PASSED_FILTER_MESSAGE = 'passed';
export const SUCCESS_MESSAGE = 'success';
export const POST_FILTER_NOMINATED_MESSAGE = 'preemption victim';

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

function sortKeys(v: Json): Json {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object') {
    const out: { [k: string]: Json } = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]!);
    return out;
  }
  return v;
}

/** json.Marshal: map keys sorted, HTML-sensitive characters escaped as Go does. */
export function goJSON(v: Json): string {
  return JSON.stringify(sortKeys(v))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** What one scheduling attempt recorded, before it is turned into annotations. */
export interface CycleRecord {
  preFilterStatus: Record<string, string>;
  preFilterResult: Record<string, string[]>;
  filter: Record<string, Record<string, string>>;
  postFilter: Record<string, Record<string, string>>;
  preScore: Record<string, string>;
  score: Record<string, Record<string, string>>;
  finalScore: Record<string, Record<string, string>>;
  reserve: Record<string, string>;
  permit: Record<string, string>;
  permitTimeout: Record<string, string>;
  selectedNode: string;
}

export function newCycleRecord(): CycleRecord {
  return {
    preFilterStatus: {},
    preFilterResult: {},
    filter: {},
    postFilter: {},
    preScore: {},
    score: {},
    finalScore: {},
    reserve: {},
    permit: {},
    permitTimeout: {},
    selectedNode: '',
  };
}

/** Sets record[outer][inner] = value, creating the inner object. */
export function put(record: Record<string, Record<string, string>>, outer: string, inner: string, value: string): void {
  (record[outer] ??= {})[inner] = value;
}

/** The annotations the simulator writes after a scheduling attempt (bind results come later). */
export function toAnnotations(r: CycleRecord): Record<string, string> {
  return {
    [PRE_FILTER_RESULT]: goJSON(r.preFilterResult),
    [PRE_FILTER_STATUS_RESULT]: goJSON(r.preFilterStatus),
    [FILTER_RESULT]: goJSON(r.filter),
    [POST_FILTER_RESULT]: goJSON(r.postFilter),
    [PRE_SCORE_RESULT]: goJSON(r.preScore),
    [SCORE_RESULT]: goJSON(r.score),
    [FINAL_SCORE_RESULT]: goJSON(r.finalScore),
    [RESERVE_RESULT]: goJSON(r.reserve),
    [PERMIT_TIMEOUT_RESULT]: goJSON(r.permitTimeout),
    [PERMIT_STATUS_RESULT]: goJSON(r.permit),
    [PRE_BIND_RESULT]: goJSON({}),
    [BIND_RESULT]: goJSON({}),
    [SELECTED_NODE]: r.selectedNode,
  };
}
