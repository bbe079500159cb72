// The request trace: the book's central picture, live. One request (by default the reader's last
// kubectl write) drawn as a sequence diagram across kubectl, the API server and its stages, etcd,
// the controllers, the scheduler, the kubelets and their container runtimes, with simulated
// timestamps. It is a table (one row per step, one column per component), so the text alternative
// is the diagram itself; arrows are drawn with CSS across the columns a step spans.
import type { RequestTrace, RequestTraceRoot, RequestTraceStep } from '../../../../runtime/index.ts';
import type { LiveController, LiveWidgetView } from './controller.ts';
import { h, setText } from './dom.ts';

/** How often the trace is fetched again while the cluster changes (wall-clock ms). */
const REFRESH_MS = 700;
const LATEST = '';

function ms(t: number): string {
  return `${(t / 1000).toFixed(3)} s`;
}

export class TraceView implements LiveWidgetView {
  readonly element: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly stagesToggle: HTMLInputElement;
  private readonly table: HTMLTableElement;
  private readonly summary: HTMLElement;
  private lastFetchWall = 0;
  private fetching = false;
  private visible = false;
  private lastKey = '';

  constructor(private readonly c: LiveController, label: string) {
    const id = `${c.id}-trace`;
    this.select = h('select', { id: `${id}-root`, class: 'live-select live-trace-select', onchange: () => void this.fetch(true) }, h('option', { value: LATEST }, 'The latest kubectl write'));
    this.stagesToggle = h('input', { id: `${id}-stages`, type: 'checkbox', checked: true, onchange: () => void this.fetch(true) });
    this.table = h('table', { class: 'live-trace-table' });
    this.summary = h('p', { class: 'live-trace-summary', role: 'status' }, 'Run a kubectl command that writes (apply, create, scale, set image...) to see its journey.');
    this.element = h('section', { class: 'live-trace', 'aria-label': `Request trace: ${label}` },
      h('div', { class: 'live-events-bar' },
        h('label', { for: `${id}-root` }, 'Request'), this.select,
        h('label', { class: 'live-trace-check' }, this.stagesToggle, ' API server stages')),
      this.summary,
      h('div', { class: 'live-table-wrap live-trace-scroll', tabindex: '0', role: 'region', 'aria-label': `Sequence of steps (${label})` }, this.table));
    new IntersectionObserver((entries) => {
      this.visible = entries.some((e) => e.isIntersecting);
      if (this.visible) void this.fetch(false);
    }).observe(this.element);
  }

  reset(): void {
    this.lastKey = '';
    this.select.value = LATEST;
  }

  fail(message: string): void {
    this.element.append(h('p', { class: 'live-error', role: 'alert' }, message));
  }

  render(): void {
    if (this.visible && performance.now() - this.lastFetchWall > REFRESH_MS) void this.fetch(false);
  }

  private async fetch(force: boolean): Promise<void> {
    if (this.fetching || this.c.isFailed) return;
    this.fetching = true;
    this.lastFetchWall = performance.now();
    try {
      const r = await this.c.trace(this.select.value || undefined);
      if (!r) return;
      this.fillRoots(r.roots);
      const key = `${r.trace.root?.requestId ?? ''}:${r.trace.steps.length}:${this.stagesToggle.checked}`;
      if (force || key !== this.lastKey) {
        this.lastKey = key;
        this.draw(r.trace);
      }
    } finally {
      this.fetching = false;
    }
  }

  private fillRoots(roots: readonly RequestTraceRoot[]): void {
    const wanted = [LATEST, ...roots.map((r) => r.requestId)];
    const have = [...this.select.options].map((o) => o.value);
    if (wanted.join('\n') === have.join('\n')) return;
    const chosen = this.select.value;
    this.select.replaceChildren(h('option', { value: LATEST }, 'The latest kubectl write'),
      ...roots.map((r) => h('option', { value: r.requestId }, `${ms(r.atMs)}: ${r.label}`)));
    this.select.value = wanted.includes(chosen) ? chosen : LATEST;
  }

  private draw(trace: RequestTrace): void {
    const lanes = trace.lanes;
    const index = new Map(lanes.map((l, i) => [l.id, i]));
    const steps = this.stagesToggle.checked ? trace.steps : trace.steps.filter((s) => s.kind !== 'stage');
    if (!trace.root) {
      setText(this.summary, 'No kubectl write yet: run one (apply, create, scale, set image...) to see its journey.');
      this.table.replaceChildren();
      return;
    }
    const components = new Set(steps.flatMap((s) => [s.from, s.to])).size;
    setText(this.summary, `${trace.root.label}: ${steps.length} steps across ${components} components, from ${ms(trace.root.atMs)} to ${ms(steps.at(-1)?.atMs ?? trace.root.atMs)}${trace.truncated ? ' (the first steps only)' : ''}.`);
    const head = h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Time'), ...lanes.map((l) => h('th', { scope: 'col' }, l.label))));
    const body = h('tbody');
    for (const s of steps) body.append(this.row(s, index, lanes.length, lanes));
    this.table.replaceChildren(h('caption', { class: 'live-visually-hidden' }, `Sequence of steps of ${trace.root.label}`), head, body);
  }

  private row(s: RequestTraceStep, index: ReadonlyMap<string, number>, n: number, lanes: RequestTrace['lanes']): HTMLElement {
    const from = index.get(s.from) ?? 0;
    const to = index.get(s.to) ?? 0;
    const lo = Math.min(from, to);
    // a step inside one component (an API server stage) is a note from its lifeline to the right edge
    const hi = from === to ? n - 1 : Math.max(from, to);
    const cells: HTMLElement[] = [h('td', { class: 'live-trace-time' }, ms(s.atMs))];
    for (let i = 0; i < lo; i++) cells.push(h('td', { class: 'live-trace-life' }));
    const direction = from === to ? 'self' : from < to ? 'right' : 'left';
    const who = from === to ? `${lanes[from]?.label}: ` : `${lanes[from]?.label} to ${lanes[to]?.label}: `;
    cells.push(direction === 'self'
      ? h('td', { class: `live-trace-step live-trace-note live-trace-${s.kind}`, colspan: String(hi - lo + 1) },
        h('span', { class: 'live-visually-hidden' }, who),
        h('span', { class: 'live-trace-arrow live-trace-self' }, h('span', { class: 'live-trace-label' }, s.label), s.detail ? h('span', { class: 'live-trace-inline' }, ` ${s.detail}`) : undefined))
      : h('td', { class: `live-trace-step live-trace-${s.kind}`, colspan: String(hi - lo + 1) },
        h('span', { class: 'live-visually-hidden' }, who),
        h('span', { class: `live-trace-arrow live-trace-${direction}` }, h('span', { class: 'live-trace-label' }, s.label)),
        s.detail ? h('span', { class: 'live-trace-detail' }, s.detail) : undefined));
    for (let i = hi + 1; i < n; i++) cells.push(h('td', { class: 'live-trace-life' }));
    return h('tr', { 'data-kind': s.kind }, ...cells);
  }
}
