// The scheduler explainer's reading of a decision (runtime SchedulerDecision): the "0/N nodes are
// available: ..." message broken into its reasons with their node counts (the grammar of
// FitError.Error in pkg/scheduler/framework/types.go, runtime/scheduler/fit-error.ts), each node's
// filter verdict, and the score table with its winner. Pure TypeScript, no DOM: tested in Node.
import type { SchedulerDecision } from '../../../runtime/index.ts';

export interface ReasonCount {
  /** Nodes that gave this reason; undefined for a PreFilter message, which rejects the pod on every node. */
  count: number | undefined;
  reason: string;
}

export interface FitBreakdown {
  /** N in "0/N nodes are available". */
  total: number;
  /** In the message's order: Go's sort.Strings of "<count> <reason>" (so "10 x" comes before "2 y"). */
  reasons: ReasonCount[];
  /** What preemption (PostFilter) found: its own "0/N" breakdown, or its message when it has another form. */
  preemption?: FitBreakdown | string;
}

const HEAD = /^0\/(\d+) nodes are available:\s*/;

/** Breaks a FitError message down; undefined when `message` is not one ("0/N nodes are available: ..."). */
export function parseFitMessage(message: string): FitBreakdown | undefined {
  const head = HEAD.exec(message.trim());
  if (!head) return undefined;
  const total = Number(head[1]);
  let rest = message.trim().slice(head[0].length);
  let post: string | undefined;
  const p = rest.indexOf('preemption: ');
  if (p >= 0) {
    post = rest.slice(p + 'preemption: '.length).trim();
    rest = rest.slice(0, p).trim();
  }
  rest = rest.replace(/\.$/, '');
  const reasons: ReasonCount[] = [];
  if (/^\d+ /.test(rest)) {
    // the parts are "<n> <reason>" joined by ", "; a reason may itself hold ", " but not ", <digits> "
    for (const part of rest.split(/, (?=\d+ )/)) {
      const m = /^(\d+) (.*)$/s.exec(part);
      if (m) reasons.push({ count: Number(m[1]), reason: m[2]! });
    }
  } else if (rest !== '') {
    reasons.push({ count: undefined, reason: rest });
  }
  const out: FitBreakdown = { total, reasons };
  if (post !== undefined) out.preemption = parseFitMessage(post) ?? post.replace(/\.$/, '');
  return out;
}

export type FilterVerdict =
  | { kind: 'passed'; plugins: string[] }
  /** `plugin` rejected the node with `reason`; `passed` are the plugins that ran before it and passed. */
  | { kind: 'rejected'; plugin: string; reason: string; passed: string[] }
  /** The node was not filtered in this attempt (a PreFilterResult left it out). */
  | { kind: 'skipped' };

/** One node's filter verdict from the decision's filter-result. */
export function filterVerdict(decision: Pick<SchedulerDecision, 'filter'>, node: string): FilterVerdict {
  const plugins = decision.filter[node];
  if (!plugins) return { kind: 'skipped' };
  const passed: string[] = [];
  let rejected: { plugin: string; reason: string } | undefined;
  for (const [plugin, result] of Object.entries(plugins)) {
    if (result === 'passed') passed.push(plugin);
    else rejected ??= { plugin, reason: result };
  }
  return rejected ? { kind: 'rejected', ...rejected, passed } : { kind: 'passed', plugins: passed };
}

/** The nodes whose filter verdict gave `reason` (a plugin's reasons are joined by ", " in the annotation). */
export function nodesWithReason(decision: Pick<SchedulerDecision, 'filter'>, reason: string): string[] {
  return Object.keys(decision.filter).filter((node) =>
    Object.values(decision.filter[node]!).some((v) => v === reason || v.split(', ').includes(reason))).sort(byName);
}

export interface ScoreRow {
  node: string;
  /** Per score plugin (in `plugins` order): the raw score and the normalized, weighted one. */
  cells: { raw: number | undefined; weighted: number | undefined }[];
  total: number;
  selected: boolean;
}

export interface ScoreTable {
  plugins: string[];
  /** Highest total first (ties in name order). */
  rows: ScoreRow[];
  /** Nodes other than the selected one with the same top total: the winner was drawn among them. */
  tiedWith: string[];
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The score-result and finalscore-result as a table: one row per scored node, one column per plugin. */
export function scoreTable(decision: Pick<SchedulerDecision, 'score' | 'finalScore' | 'selectedNode'>): ScoreTable {
  const nodes = [...new Set([...Object.keys(decision.score), ...Object.keys(decision.finalScore)])];
  const plugins = [...new Set(nodes.flatMap((n) => [...Object.keys(decision.score[n] ?? {}), ...Object.keys(decision.finalScore[n] ?? {})]))].sort(byName);
  const rows = nodes.map((node): ScoreRow => {
    const cells = plugins.map((p) => ({ raw: decision.score[node]?.[p], weighted: decision.finalScore[node]?.[p] }));
    return { node, cells, total: cells.reduce((sum, c) => sum + (c.weighted ?? 0), 0), selected: node === decision.selectedNode };
  });
  rows.sort((a, b) => b.total - a.total || byName(a.node, b.node));
  const top = rows.find((r) => r.selected)?.total;
  const tiedWith = top === undefined ? [] : rows.filter((r) => !r.selected && r.total === top).map((r) => r.node);
  return { plugins, rows, tiedWith };
}

/** "NodeResourcesFit" -> ["Node", "Resources", "Fit"]: where a long plugin name may wrap. */
export function camelParts(name: string): string[] {
  return name.split(/(?<=[a-z])(?=[A-Z])/);
}
