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

/** A JSON value as the records hold it: strings, string lists and nested maps. */
export type Json =
  string | readonly string[] | ReadonlyMap<string, Json> | { readonly [k: string]: Json };

const HTML_UNSAFE = /[<>&\u2028\u2029]/;
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

function goString(v: string): string {
  const quoted = JSON.stringify(v);
  return HTML_UNSAFE.test(quoted)
    ? quoted.replace(/[<>&\u2028\u2029]/g, (ch) => ESCAPES[ch]!)
    : quoted;
}

/**
 * json.Marshal: map keys sorted (byte order; UTF-16 order is the same for the ASCII names used
 * here), HTML-sensitive characters escaped as Go does. Written directly, without sorted copies,
 * because it runs for every pod on clusters of thousands of nodes.
 */
export function goJSON(v: Json): string {
  if (typeof v === 'string') return goString(v);
  if (Array.isArray(v)) return `[${(v as readonly string[]).map(goString).join(',')}]`;
  const entries: [string, Json][] =
    v instanceof Map
      ? [...(v as ReadonlyMap<string, Json>)]
      : Object.entries(v as { [k: string]: Json });
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `{${entries.map(([k, x]) => `${goString(k)}:${goJSON(x)}`).join(',')}}`;
}

/** What one scheduling attempt recorded, before it is turned into annotations. */
export interface CycleRecord {
  preFilterStatus: Map<string, string>;
  preFilterResult: Map<string, string[]>;
  /** node -> plugin -> "passed" or the reason. */
  filter: Map<string, Map<string, string>>;
  postFilter: Map<string, Map<string, string>>;
  preScore: Map<string, string>;
  score: Map<string, Map<string, string>>;
  finalScore: Map<string, Map<string, string>>;
  reserve: Map<string, string>;
  permit: Map<string, string>;
  permitTimeout: Map<string, string>;
  selectedNode: string;
}

export function newCycleRecord(): CycleRecord {
  return {
    preFilterStatus: new Map(),
    preFilterResult: new Map(),
    filter: new Map(),
    postFilter: new Map(),
    preScore: new Map(),
    score: new Map(),
    finalScore: new Map(),
    reserve: new Map(),
    permit: new Map(),
    permitTimeout: new Map(),
    selectedNode: '',
  };
}

/** Sets record[outer][inner] = value, creating the inner object. */
export function put(
  record: Map<string, Map<string, string>>,
  outer: string,
  inner: string,
  value: string,
): void {
  let m = record.get(outer);
  if (!m) record.set(outer, (m = new Map()));
  m.set(inner, value);
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
