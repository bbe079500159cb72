// Renders a "Run in cluster" comparison: what the learner's code did in the live cluster next to
// what the reference did on the same seed. ReplicaSet: one block per scenario step with a pods table
// per side (name, node, phase, what happened to it). Scheduler: pod -> node for both sides, then the
// per-node scores. Differences are marked with a ≠ sign and the word "differs", not by colour alone.
// Plain text only (textContent): nothing from learner code is parsed as HTML.
import type { NodeScores, PodView, Placement, ReplicaSetComparison, SchedulerComparison, ScenarioStep } from '../../../runtime/index.ts';
import type { ClusterComparison } from './run-in-cluster-protocol.ts';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function table(caption: string, head: string[], rows: { cells: string[]; differs?: boolean }[]): HTMLTableElement {
  const t = el('table', 'cluster-table');
  t.append(el('caption', 'visually-hidden', caption));
  const tr = el('tr');
  for (const h of head) tr.append(Object.assign(el('th', undefined, h), { scope: 'col' }));
  t.append(el('thead'), el('tbody'));
  t.tHead!.append(tr);
  for (const row of rows) {
    const r = el('tr', row.differs ? 'cluster-differs' : undefined);
    row.cells.forEach((cell, i) => r.append(el(i === 0 ? 'th' : 'td', undefined, cell)));
    r.firstElementChild?.setAttribute('scope', 'row');
    t.tBodies[0]!.append(r);
  }
  return t;
}

function badge(differs: boolean): HTMLElement {
  return differs
    ? el('span', 'cluster-badge cluster-badge-differs', '≠ differs from the reference')
    : el('span', 'cluster-badge', '= same as the reference');
}

/** The one-line verdict, for the live status region. */
export function clusterSummary(result: ClusterComparison): string {
  if (result.scenario === 'replicaset') {
    const { comparison: c } = result;
    if (c.learner.error) return `Your code stopped the run at step ${c.learner.steps.length + 1}.`;
    if (c.firstDivergentStep === undefined) return `Your code drove the cluster exactly as the reference did, at all ${c.reference.steps.length} steps.`;
    const step = c.reference.steps[c.firstDivergentStep];
    return `Your code first differs from the reference at step ${c.firstDivergentStep + 1}${step ? ` (${step.label})` : ''}.`;
  }
  const { comparison: c } = result;
  if (c.learner.error) return `Your code stopped the run after ${c.learner.placements.length} of ${c.reference.placements.length} pods.`;
  const moved = c.rows.filter((r) => !r.sameNode).length;
  if (c.firstDivergence === undefined) return `Your plugins placed all ${c.rows.length} pods where the built-in ones did, with the same scores.`;
  return `Your plugins first differ from the built-in ones at ${c.firstDivergence}; ${moved} of ${c.rows.length} pods landed on another node.`;
}

export function renderClusterComparison(container: HTMLElement, result: ClusterComparison): void {
  container.replaceChildren(...(result.scenario === 'replicaset' ? replicaSetView(result.comparison) : schedulerView(result.comparison)));
}

function learnerError(error: string | undefined): HTMLElement[] {
  return error ? [el('p', 'cluster-error', `Your code stopped the run: ${error}`)] : [];
}

// ---- ReplicaSet ----

function replicaSetView(c: ReplicaSetComparison): HTMLElement[] {
  const list = el('ol', 'cluster-steps');
  c.reference.steps.forEach((ref, i) => {
    const mine = c.learner.steps[i];
    const differs = c.firstDivergentStep !== undefined && i >= c.firstDivergentStep && !sameStep(mine, ref);
    const item = el('li', `cluster-step${differs ? ' cluster-step-differs' : ''}`);
    const head = el('h3', 'cluster-step-title', `Step ${i + 1} at ${ref.atSeconds} s: ${ref.label} `);
    head.append(badge(differs));
    const sides = el('div', 'cluster-sides');
    sides.append(stepSide('Your code', mine, ref), stepSide('Reference', ref, mine));
    item.append(head, sides);
    list.append(item);
  });
  const events = el('details', 'cluster-events');
  events.append(el('summary', undefined, 'The ReplicaSet controller\'s events'));
  const sides = el('div', 'cluster-sides');
  for (const [title, run] of [['Your code', c.learner], ['Reference', c.reference]] as const) {
    const fig = el('figure', 'cluster-side');
    fig.append(el('figcaption', undefined, title), el('pre', 'cluster-event-list', run.events.join('\n') || '(none)'));
    sides.append(fig);
  }
  events.append(sides);
  return [...learnerError(c.learner.error), list, events];
}

function sameStep(a: ScenarioStep | undefined, b: ScenarioStep | undefined): boolean {
  if (!a || !b) return false;
  return JSON.stringify([a.converged, a.pods, a.created, a.deleted, a.evicted]) === JSON.stringify([b.converged, b.pods, b.created, b.deleted, b.evicted]);
}

function change(step: ScenarioStep, name: string): string {
  if (step.created.includes(name) && step.deleted.includes(name)) return 'created, then deleted';
  if (step.created.includes(name)) return 'created';
  if (step.deleted.includes(name)) return 'deleted';
  if (step.evicted.includes(name)) return 'evicted';
  return '';
}

function podRows(step: ScenarioStep): { name: string; cells: string[] }[] {
  const gone = step.deleted.filter((n) => !step.pods.some((p) => p.name === n));
  const rows = step.pods.map((p: PodView) => ({ name: p.name, cells: [p.name, p.node || '(none)', p.deleting ? `Terminating (${p.phase})` : p.phase, change(step, p.name)] }));
  for (const name of gone) rows.push({ name, cells: [name, '', 'gone', change(step, name)] });
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}

function stepSide(title: string, step: ScenarioStep | undefined, other: ScenarioStep | undefined): HTMLElement {
  const fig = el('figure', 'cluster-side');
  fig.append(el('figcaption', undefined, title));
  if (!step) {
    fig.append(el('p', 'cluster-note', 'The run stopped before this step.'));
    return fig;
  }
  const active = step.pods.filter((p) => !p.deleting).length;
  fig.append(el('p', 'cluster-note', `${active} active of ${step.desired} desired${step.converged ? ', all Running' : ', not converged'}. Nodes: ${step.nodes.map((n) => `${n.name} ${n.ready ? 'Ready' : 'NotReady'}`).join(', ')}.`));
  const otherRows = new Map((other ? podRows(other) : []).map((r) => [r.name, JSON.stringify(r.cells)]));
  const rows = podRows(step).map((r) => {
    const differs = other !== undefined && otherRows.get(r.name) !== JSON.stringify(r.cells);
    return { cells: differs ? [`≠ ${r.cells[0]}`, ...r.cells.slice(1)] : r.cells, differs };
  });
  fig.append(table(`${title}: pods after step`, ['Pod', 'Node', 'Phase', 'What happened'], rows));
  return fig;
}

// ---- scheduler ----

function schedulerView(c: SchedulerComparison): HTMLElement[] {
  const byPod = (run: typeof c.learner) => new Map(run.placements.map((p) => [p.pod, p]));
  const mine = byPod(c.learner);
  const ref = byPod(c.reference);
  const where = (p: Placement | undefined) => (!p ? '(not run)' : p.node || `Pending: ${p.pending ?? ''}`);
  const rows = c.rows.map((r) => {
    const verdict = r.sameNode && r.sameScores ? 'same' : !r.sameNode ? '≠ node differs' : '≠ scores differ';
    return { cells: [r.pod, ref.get(r.pod)?.requests ?? '', where(mine.get(r.pod)), where(ref.get(r.pod)), verdict], differs: !r.sameNode || !r.sameScores };
  });
  const scores = el('div', 'cluster-scores');
  scores.append(el('h3', undefined, 'Scores per node'));
  scores.append(el('p', 'cluster-note', 'LeastAllocated and BalancedAllocation are the raw scores (yours / reference); the total adds every Score plugin times its weight. "skipped": the plugin\'s PreScore skipped this pod.'));
  for (const r of c.rows) {
    const details = el('details', 'cluster-pod-scores');
    if (r.pod === c.firstDivergence) details.open = true;
    const differs = !r.sameNode || !r.sameScores;
    details.append(el('summary', undefined, `${differs ? '≠ ' : ''}${r.pod}: yours ${where(mine.get(r.pod))}, reference ${where(ref.get(r.pod))}`));
    details.append(scoreTable(r.pod, mine.get(r.pod)?.scores ?? [], ref.get(r.pod)?.scores ?? []));
    scores.append(details);
  }
  const workers = `Workers: ${c.reference.nodes.map((n) => `${n.name} (${n.cpu} CPU, ${n.memory})`).join(', ')}.`;
  return [...learnerError(c.learner.error), el('p', 'cluster-note', workers), table('Where each pod landed', ['Pod', 'Requests', 'Your plugins', 'Built-in plugins', 'Match'], rows), scores];
}

function scoreTable(pod: string, mine: NodeScores[], ref: NodeScores[]): HTMLTableElement {
  const nodes = [...new Set([...ref, ...mine].map((s) => s.node))].sort();
  const show = (v: string | number | undefined) => (v === undefined ? 'skipped' : String(v));
  const rows = nodes.map((node) => {
    const a = mine.find((s) => s.node === node);
    const b = ref.find((s) => s.node === node);
    const pair = (x: string | number | undefined, y: string | number | undefined) => `${show(x)} / ${show(y)}`;
    const cells = [node, pair(a?.leastAllocated, b?.leastAllocated), pair(a?.balancedAllocation, b?.balancedAllocation), pair(a?.total, b?.total)];
    const num = (v: string | undefined) => Number(v ?? 0);
    const differs = !a || !b || a.total !== b.total || num(a.leastAllocated) !== num(b.leastAllocated) || num(a.balancedAllocation) !== num(b.balancedAllocation);
    return { cells: differs ? [`≠ ${node}`, ...cells.slice(1)] : cells, differs };
  });
  return table(`Scores for ${pod}, yours / reference`, ['Node', 'LeastAllocated', 'BalancedAllocation', 'Total'], rows);
}
