// The scheduler explainer: "why this node?" and "why Pending?" for one pod, read from the
// kube-scheduler-simulator annotations the scheduler writes after each attempt (runtime
// Cluster.schedulerDecision). For the chosen pod (by default the first Pending one, else the most
// recently scheduled): each node's filter verdict and reason, each score plugin's raw and weighted
// score with the winner marked, and for a Pending pod the "0/N nodes are available: ..." message
// broken down per reason with its node counts. Winner and verdicts are words and symbols, never
// colour alone; changes are announced politely, at most every few seconds.
import type { EventSnapshot, SchedulerAttempt, SchedulerDecision } from '../../../../runtime/index.ts';
import { camelParts, filterVerdict, nodesWithReason, parseFitMessage, scoreTable, type FitBreakdown } from '../../../lib/live/scheduler-explain.ts';
import type { LiveController, LiveWidgetView } from './controller.ts';
import type { LiveView } from './protocol.ts';
import { h, reconcile, setText } from './dom.ts';

const OPTIONS_SHOWN = 200;
const ANNOUNCE_EVERY_MS = 6_000;

const keyOf = (a: { namespace: string; name: string }) => `${a.namespace}/${a.name}`;
const podName = (a: { namespace: string; name: string }) => (a.namespace === 'default' ? a.name : `${a.namespace}/${a.name}`);

/** A plugin name with a break opportunity between its words, so table headers wrap on a phone. */
function pluginLabel(name: string): DocumentFragment {
  const f = document.createDocumentFragment();
  camelParts(name).forEach((part, i) => {
    if (i > 0) f.append(document.createElement('wbr'));
    f.append(part);
  });
  return f;
}

export class SchedulerView implements LiveWidgetView {
  readonly element: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly follow: HTMLOptionElement;
  private readonly pendingGroup: HTMLOptGroupElement;
  private readonly scheduledGroup: HTMLOptGroupElement;
  private readonly body: HTMLElement;
  private readonly announcer: HTMLElement;
  private readonly notice: HTMLElement;
  private attempts: SchedulerAttempt[] = [];
  private nodes: string[] = [];
  /** What is drawn: the pod key and the resourceVersion the decision was read at. */
  private shown = '';
  /** The decision drawn, as JSON: a new resourceVersion with the same decision (a status update) redraws nothing. */
  private drawn = '';
  private fetching = false;
  private refetch = false;
  private lastAnnounced = '';
  private pendingAnnouncement = '';
  private lastAnnounceWall = 0;

  constructor(private readonly c: LiveController, label: string) {
    const id = `${c.id}-scheduler`;
    this.follow = h('option', { value: '' }, 'Follow the scheduler');
    this.pendingGroup = h('optgroup', { label: 'Pending: no node fits' });
    this.scheduledGroup = h('optgroup', { label: 'Scheduled, most recent first' });
    this.select = h('select', { id: `${id}-pod`, class: 'live-select live-sched-select', onchange: () => this.onChoose() }, this.follow, this.pendingGroup, this.scheduledGroup);
    this.body = h('div', { class: 'live-sched-body' });
    this.notice = h('p', { class: 'live-sched-empty' }, 'The scheduler has not placed any pod yet.');
    this.announcer = h('p', { class: 'live-visually-hidden', role: 'status' });
    this.element = h('section', { class: 'live-sched', 'aria-label': `Scheduler explainer: ${label}` },
      h('div', { class: 'live-widget-head' },
        h('h4', { class: 'live-widget-title' }, 'Why this node? The scheduler\u2019s decision'),
        h('span', { class: 'live-widget-control' }, h('label', { for: `${id}-pod` }, 'Pod'), this.select)),
      this.notice, this.body, this.announcer);
  }

  reset(): void {
    this.shown = '';
    this.drawn = '';
    this.lastAnnounced = '';
    this.pendingAnnouncement = '';
  }

  fail(message: string): void {
    this.element.append(h('p', { class: 'live-error', role: 'alert' }, message));
  }

  render(view: LiveView, _events: readonly EventSnapshot[]): void {
    if (!view.snapshot.apiAvailable) {
      // nothing can be read: keep what is drawn, and say so
      this.notice.hidden = false;
      setText(this.notice, 'No API server is answering: the pods cannot be read (what is shown is the last decision read, if any).');
      return;
    }
    this.attempts = view.schedulerAttempts;
    this.nodes = view.snapshot.nodes.map((n) => n.name);
    this.updateOptions();
    this.notice.hidden = this.attempts.length > 0;
    setText(this.notice, view.snapshot.nodes.length > 100
      ? 'This cluster has more than 100 nodes: its scheduler does not record its reasoning on the pods (as kube-scheduler-simulator, which this explainer reads).'
      : 'The scheduler has not tried to place any pod yet.');
    const target = this.target();
    const want = target ? `${keyOf(target)}@${target.resourceVersion}` : '';
    if (want !== this.shown) void this.load(target, want);
    this.flushAnnouncement();
  }

  /** The chosen pod, or the default: the first Pending one, else the most recently scheduled. */
  private target(): SchedulerAttempt | undefined {
    const chosen = this.select.value;
    return (chosen && this.attempts.find((a) => keyOf(a) === chosen)) || this.attempts[0];
  }

  private onChoose(): void {
    this.shown = '';
    const target = this.target();
    if (target) void this.load(target, `${keyOf(target)}@${target.resourceVersion}`);
  }

  private updateOptions(): void {
    const pending = this.attempts.filter((a) => !a.scheduled).slice(0, OPTIONS_SHOWN);
    const scheduled = this.attempts.filter((a) => a.scheduled).slice(0, OPTIONS_SHOWN);
    const chosen = this.select.value;
    const option = () => h('option');
    reconcile(this.pendingGroup, pending, keyOf, option, (el, a) => {
      el.value = keyOf(a);
      setText(el, `${podName(a)} (Pending)`);
    });
    reconcile(this.scheduledGroup, scheduled, keyOf, option, (el, a) => {
      el.value = keyOf(a);
      setText(el, `${podName(a)} \u2192 ${a.selectedNode}`);
    });
    this.pendingGroup.hidden = pending.length === 0;
    this.scheduledGroup.hidden = scheduled.length === 0;
    const first = this.attempts[0];
    setText(this.follow, first ? `Follow the scheduler (now: ${podName(first)}${first.scheduled ? '' : ', Pending'})` : 'Follow the scheduler');
    // the chosen pod is gone (deleted): back to following the latest
    if (chosen && !this.attempts.some((a) => keyOf(a) === chosen)) this.select.value = '';
  }

  private async load(target: SchedulerAttempt | undefined, want: string): Promise<void> {
    if (this.fetching) {
      this.refetch = true;
      return;
    }
    if (!target) {
      this.shown = '';
      this.body.replaceChildren();
      return;
    }
    this.fetching = true;
    try {
      const d = await this.c.schedulerDecision(target.namespace, target.name);
      this.shown = want;
      this.draw(d, target);
    } finally {
      this.fetching = false;
    }
    if (this.refetch) {
      this.refetch = false;
      const next = this.target();
      const nextWant = next ? `${keyOf(next)}@${next.resourceVersion}` : '';
      if (nextWant !== this.shown) void this.load(next, nextWant);
    }
  }

  // ---- drawing -------------------------------------------------------------------------------------

  private draw(d: SchedulerDecision | undefined, target: SchedulerAttempt): void {
    const signature = JSON.stringify([d ?? keyOf(target), this.nodes]);
    if (signature === this.drawn) return;
    this.drawn = signature;
    // a reader tabbing through a table keeps their place when it is redrawn
    const regions = () => [...this.body.querySelectorAll<HTMLElement>('[role="region"]')];
    const focused = regions().findIndex((r) => r === document.activeElement);
    this.paint(d, target);
    if (focused >= 0) regions()[focused]?.focus({ preventScroll: true });
  }

  private paint(d: SchedulerDecision | undefined, target: SchedulerAttempt): void {
    if (!d) {
      this.body.replaceChildren(h('p', { class: 'live-sched-empty' }, `${podName(target)} is gone, or carries no decision yet.`));
      return;
    }
    const pending = d.selectedNode === '' || d.condition?.status === 'False';
    const fit = d.condition?.message ? parseFitMessage(d.condition.message) : undefined;
    const scores = scoreTable(d);
    const parts: (HTMLElement | undefined)[] = [];
    const name = podName(d);
    if (pending) {
      parts.push(h('p', { class: 'live-sched-outcome', 'data-state': 'bad' },
        h('span', { 'aria-hidden': 'true' }, '\u2715 '), h('strong', {}, `Pending: `), `no node can run ${name}`,
        d.nominatedNode ? ` yet (preemption nominated ${d.nominatedNode}: it waits there for its victims to go)` : '', '.'));
      if (d.condition?.message) parts.push(h('p', { class: 'live-sched-message' }, h('span', { class: 'live-visually-hidden' }, 'The scheduler\u2019s message: '), d.condition.message));
      if (fit) parts.push(this.breakdown(fit, d));
    } else {
      const winner = scores.rows.find((r) => r.selected);
      parts.push(h('p', { class: 'live-sched-outcome', 'data-state': 'ok' },
        h('span', { 'aria-hidden': 'true' }, '\u2713 '), h('strong', {}, 'Scheduled: '), `${name} \u2192 `, h('strong', {}, d.selectedNode),
        winner ? `, the highest total score (${winner.total}) of the ${scores.rows.length} node${scores.rows.length === 1 ? '' : 's'} that passed every filter` : '',
        scores.tiedWith.length > 0 ? `; tied with ${scores.tiedWith.join(', ')}, so the scheduler drew one at random` : '', '.'));
    }
    parts.push(this.filterTable(d));
    if (scores.rows.length > 0) parts.push(this.scoreTable(d, scores));
    this.body.replaceChildren(...parts.filter((p): p is HTMLElement => p !== undefined));
    // news: a pod no node fits, or a change to the pod the reader chose (not every pod a scale-up places)
    const text = pending ? `${name} is Pending. ${d.condition?.message ?? ''}` : `${name} was scheduled on ${d.selectedNode}.`;
    if (pending || this.select.value !== '') this.queueAnnouncement(text);
    else if (this.lastAnnounced === '') this.lastAnnounced = text;
  }

  private breakdown(fit: FitBreakdown, d: SchedulerDecision): HTMLElement {
    const list = (b: FitBreakdown, withNodes: boolean) => h('ul', { class: 'live-sched-reasons' },
      ...b.reasons.map((r) => {
        const nodes = withNodes ? nodesWithReason(d, r.reason) : [];
        return h('li', {},
          h('span', { class: 'live-sched-count' }, r.count === undefined ? `all ${b.total} nodes` : `${r.count} of ${b.total} node${b.total === 1 ? '' : 's'}`),
          ' ', h('span', { class: 'live-sched-reason' }, r.reason),
          nodes.length > 0 ? h('span', { class: 'live-sched-nodes' }, ` (${nodes.join(', ')})`) : undefined);
      }));
    const out = h('div', { class: 'live-sched-why' },
      h('p', { class: 'live-sched-sub' }, `Why: 0 of ${fit.total} nodes are available`),
      list(fit, true));
    if (fit.preemption !== undefined) {
      out.append(h('p', { class: 'live-sched-sub' }, 'Would evicting lower-priority pods help? (preemption)'));
      out.append(typeof fit.preemption === 'string' ? h('p', { class: 'live-sched-note' }, fit.preemption) : list(fit.preemption, false));
    }
    return out;
  }

  private filterTable(d: SchedulerDecision): HTMLElement {
    const nodes = [...new Set([...this.nodes, ...Object.keys(d.filter)])];
    const rows = nodes.map((node) => {
      const v = filterVerdict(d, node);
      const selected = node === d.selectedNode;
      const verdict = v.kind === 'passed' ? '\u2713 passed' : v.kind === 'rejected' ? `\u2715 rejected by ${v.plugin}` : '\u2013 not filtered';
      const detail = v.kind === 'passed' ? `all ${v.plugins.length} filters: ${v.plugins.join(', ')}`
        : v.kind === 'rejected' ? v.reason : 'a PreFilter plugin ruled this node out before filtering';
      return h('tr', { 'data-verdict': v.kind, 'data-selected': selected ? 'true' : undefined },
        h('th', { scope: 'row' }, node, selected ? h('span', { class: 'live-sched-winner' }, ' \u2605 selected') : undefined),
        h('td', {}, h('span', { class: 'live-sched-verdict' }, verdict), h('span', { class: 'live-sched-detail' }, detail)));
    });
    return h('div', { class: 'live-sched-part' },
      h('p', { class: 'live-sched-sub' }, 'Filter: can the pod run on this node?'),
      h('div', { class: 'live-table-wrap live-sched-scroll', tabindex: '0', role: 'region', 'aria-label': `Filter verdicts for ${podName(d)}` },
        h('table', { class: 'live-table live-sched-table' },
          h('caption', { class: 'live-visually-hidden' }, `Each node's filter verdict for ${podName(d)}`),
          h('thead', {}, h('tr', {}, ...['Node', 'Verdict and why'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, ...rows))));
  }

  private scoreTable(d: SchedulerDecision, t: ReturnType<typeof scoreTable>): HTMLElement {
    const rows = t.rows.map((r) => h('tr', { 'data-selected': r.selected ? 'true' : undefined },
      h('th', { scope: 'row' }, r.node, r.selected ? h('span', { class: 'live-sched-winner' }, ' \u2605 selected') : undefined),
      ...r.cells.map((c, i) => h('td', { class: 'live-sched-score' },
        h('span', { 'aria-hidden': 'true' }, `${c.raw ?? '\u2013'}\u00a0\u2192 `, h('b', {}, String(c.weighted ?? '\u2013'))),
        h('span', { class: 'live-visually-hidden' }, `${t.plugins[i]}: raw ${c.raw ?? 'none'}, weighted ${c.weighted ?? 'none'}`))),
      h('td', { class: 'live-sched-total' }, String(r.total))));
    return h('div', { class: 'live-sched-part' },
      h('p', { class: 'live-sched-sub' }, 'Score: which of the nodes that passed is best?'),
      h('p', { class: 'live-sched-note' }, 'Each cell: the plugin\u2019s raw score \u2192 its score normalized to 0\u2013100 and multiplied by the plugin\u2019s weight. The highest total wins; a tie is broken at random.'),
      h('div', { class: 'live-table-wrap live-sched-scroll', tabindex: '0', role: 'region', 'aria-label': `Scores for ${podName(d)}` },
        h('table', { class: 'live-table live-sched-table live-sched-scores' },
          h('caption', { class: 'live-visually-hidden' }, `Each score plugin's raw and weighted score per node for ${podName(d)}, highest total first`),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Node'),
            ...t.plugins.map((p) => h('th', { scope: 'col', class: 'live-sched-plugin' }, pluginLabel(p))),
            h('th', { scope: 'col' }, 'Total'))),
          h('tbody', {}, ...rows))));
  }

  // ---- announcements -------------------------------------------------------------------------------

  private queueAnnouncement(text: string): void {
    if (text === this.lastAnnounced) return;
    if (this.lastAnnounced === '') {
      this.lastAnnounced = text; // the first decision shown is on screen, not news
      return;
    }
    this.pendingAnnouncement = text;
    this.flushAnnouncement();
  }

  private flushAnnouncement(): void {
    const wall = performance.now();
    if (!this.pendingAnnouncement || wall - this.lastAnnounceWall < ANNOUNCE_EVERY_MS) return;
    setText(this.announcer, this.pendingAnnouncement);
    this.lastAnnounced = this.pendingAnnouncement;
    this.pendingAnnouncement = '';
    this.lastAnnounceWall = wall;
  }
}
