// API server latency: apiserver_request_duration_seconds by verb, summed over the running API
// servers (runtime Cluster.requestDurations), as a live histogram. A table per verb (the text
// alternative: requests since the replicas started and in the chosen window, per second, p50 and
// p99 estimated as PromQL's histogram_quantile would), a bar chart of requests per second over the
// last minute (a burst of work shows as a spike) and one of the window's latency buckets with the
// estimated percentiles marked. A spike is announced politely, at most every few seconds.
import type { EventSnapshot, RequestDurations } from '../../../../runtime/index.ts';
import { formatBound, formatRate, formatSeconds, histogramQuantile, LatencyHistory, type VerbWindow } from '../../../lib/live/latency.ts';
import type { LiveController, LiveWidgetView } from './controller.ts';
import type { LiveView } from './protocol.ts';
import { h, reconcile, setAttr, setText } from './dom.ts';

/** The Kubernetes verb behind each reported one (the metric's verb label is the HTTP method, LIST apart). */
const K8S_VERB: Record<string, string> = { GET: 'get', LIST: 'list', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete', APPLY: 'apply', CONNECT: 'connect' };
const WINDOWS: { value: string; label: string; ms: number }[] = [
  { value: '10000', label: 'last 10 s', ms: 10_000 },
  { value: '60000', label: 'last minute', ms: 60_000 },
  { value: '300000', label: 'last 5 minutes', ms: 300_000 },
  { value: 'all', label: 'since the API servers started', ms: Infinity },
];
const RATE_SPAN_MS = 60_000;
const RATE_BINS = 30;
/** DOM updates at most this often (samples are taken at every view). */
const DRAW_EVERY_MS = 250;
const ANNOUNCE_EVERY_MS = 8_000;
const SVG = 'http://www.w3.org/2000/svg';

function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}, text?: string): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A round axis maximum at or above v: 1, 2, 5, 10, 20, 50... */
function niceMax(v: number): number {
  if (v <= 1) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

interface Row {
  verb: string;
  total: number;
  inWindow: number;
  perSecond: number;
  p50: number;
  p99: number;
}

export class LatencyView implements LiveWidgetView {
  readonly element: HTMLElement;
  private readonly history = new LatencyHistory();
  private readonly windowSelect: HTMLSelectElement;
  private readonly verbSelect: HTMLSelectElement;
  private readonly summary: HTMLElement;
  private readonly rateSvg: SVGSVGElement;
  private readonly bucketSvg: SVGSVGElement;
  private readonly bucketCaption: HTMLElement;
  private readonly tbody: HTMLElement;
  private readonly tableCaption: HTMLElement;
  private readonly bucketHead: HTMLElement;
  private readonly bucketBody: HTMLElement;
  private readonly announcer: HTMLElement;
  private latest: RequestDurations | undefined;
  private lastDrawWall = 0;
  private drawQueued = false;
  private spiking = false;
  private lastAnnounceWall = 0;

  constructor(c: LiveController, label: string) {
    const id = `${c.id}-latency`;
    this.windowSelect = h('select', { id: `${id}-window`, class: 'live-select', onchange: () => this.draw() },
      ...WINDOWS.map((w) => h('option', { value: w.value, selected: w.value === '60000' }, w.label)));
    this.verbSelect = h('select', { id: `${id}-verb`, class: 'live-select', onchange: () => this.draw() }, h('option', { value: '' }, 'all verbs'));
    this.summary = h('p', { class: 'live-latency-summary' });
    // Labelled from the start: the first draw waits for the cluster's first snapshot, and an
    // image without a name is an axe violation (svg-img-alt) for as long as that takes.
    const waiting = 'Waiting for the cluster\u2019s first requests.';
    this.rateSvg = s('svg', { viewBox: '0 0 320 120', role: 'img', 'aria-label': `Requests per second: ${waiting}`, class: 'live-chart', preserveAspectRatio: 'xMidYMid meet' });
    this.bucketSvg = s('svg', { viewBox: '0 0 320 120', role: 'img', 'aria-label': `Latency buckets: ${waiting}`, class: 'live-chart', preserveAspectRatio: 'xMidYMid meet' });
    this.bucketCaption = h('figcaption', {});
    this.tbody = h('tbody');
    this.tableCaption = h('caption', { class: 'live-visually-hidden' });
    this.bucketHead = h('tr');
    this.bucketBody = h('tbody');
    this.announcer = h('p', { class: 'live-visually-hidden', role: 'status' });
    this.element = h('section', { class: 'live-latency', 'aria-label': `API server latency: ${label}` },
      h('div', { class: 'live-widget-head' },
        h('h4', { class: 'live-widget-title' }, 'API server latency ', h('code', {}, 'apiserver_request_duration_seconds')),
        h('span', { class: 'live-widget-control' }, h('label', { for: `${id}-window` }, 'Window'), this.windowSelect)),
      this.summary,
      h('div', { class: 'live-latency-charts' },
        h('figure', { class: 'live-chart-figure' }, this.rateSvg, h('figcaption', {}, 'Requests per second, all verbs, over the last minute of simulated time')),
        h('figure', { class: 'live-chart-figure' }, this.bucketSvg, this.bucketCaption,
          h('span', { class: 'live-widget-control' }, h('label', { for: `${id}-verb` }, 'Buckets of'), this.verbSelect))),
      h('div', { class: 'live-table-wrap', tabindex: '0', role: 'region', 'aria-label': `Requests and latency by verb (${label})` },
        h('table', { class: 'live-table live-latency-table' }, this.tableCaption,
          h('thead', {}, h('tr', {}, ...['Verb', 'Since start', 'In window', 'Per second', 'p50', 'p99'].map((t) => h('th', { scope: 'col' }, t)))),
          this.tbody)),
      h('details', { class: 'live-latency-details' },
        h('summary', {}, 'The window\u2019s buckets as a table'),
        h('div', { class: 'live-table-wrap', tabindex: '0', role: 'region', 'aria-label': `Latency buckets (${label})` },
          h('table', { class: 'live-table live-latency-buckets' },
            h('caption', { class: 'live-visually-hidden' }, 'Requests of the window at most each upper bound (le), by verb: the cumulative _bucket series'),
            h('thead', {}, this.bucketHead), this.bucketBody))),
      this.announcer);
  }

  reset(): void {
    this.history.reset();
    this.spiking = false;
  }

  fail(message: string): void {
    this.element.append(h('p', { class: 'live-error', role: 'alert' }, message));
  }

  render(view: LiveView, _events: readonly EventSnapshot[]): void {
    this.latest = view.requestDurations;
    this.history.add(view.snapshot.timeMs, view.requestDurations);
    const wall = performance.now();
    if (wall - this.lastDrawWall >= DRAW_EVERY_MS) this.draw();
    else if (!this.drawQueued) {
      this.drawQueued = true;
      setTimeout(() => {
        this.drawQueued = false;
        this.draw();
      }, DRAW_EVERY_MS);
    }
  }

  private windowOf(): { label: string; spanMs: number; verbs: VerbWindow[] } {
    const w = WINDOWS.find((x) => x.value === this.windowSelect.value) ?? WINDOWS[1]!;
    const d = this.latest;
    const last = this.history.lastMs ?? 0;
    if (w.ms === Infinity || !d) {
      return { label: w.label, spanMs: 0, verbs: (d?.byVerb ?? []).map((v) => ({ verb: v.verb, buckets: v.buckets, count: v.count, sumSeconds: v.sumSeconds })) };
    }
    const from = Math.max(this.history.firstMs ?? last, last - w.ms);
    return { label: w.label, spanMs: last - from, verbs: this.history.window(last - w.ms) };
  }

  private draw(): void {
    this.lastDrawWall = performance.now();
    const d = this.latest;
    if (!d) return;
    const bounds = d.bucketsSeconds;
    const win = this.windowOf();
    const all: VerbWindow = { verb: 'All verbs', buckets: bounds.map(() => 0), count: 0, sumSeconds: 0 };
    for (const v of win.verbs) {
      v.buckets.forEach((x, i) => (all.buckets[i]! += x));
      all.count += v.count;
      all.sumSeconds += v.sumSeconds;
    }
    const row = (verb: string, total: number, w: VerbWindow | undefined): Row => ({
      verb, total, inWindow: w?.count ?? 0,
      perSecond: w && win.spanMs > 0 ? w.count / (win.spanMs / 1000) : 0,
      p50: w ? histogramQuantile(0.5, bounds, w.buckets, w.count) : NaN,
      p99: w ? histogramQuantile(0.99, bounds, w.buckets, w.count) : NaN,
    });
    const rows = d.byVerb.map((v) => row(v.verb, v.count, win.verbs.find((x) => x.verb === v.verb)));
    rows.push(row('All verbs', d.byVerb.reduce((n, v) => n + v.count, 0), all.count > 0 ? all : undefined));
    const servers = d.servers.length;
    const now5 = this.history.rate(5_000);
    const rates = this.history.rates(RATE_SPAN_MS, RATE_BINS);
    const peak = Math.max(0, ...rates);
    setText(this.summary, servers === 0
      ? 'No API server is running: no request is being served, and there are no counters to read.'
      : `Summed over ${servers} running API server${servers === 1 ? '' : 's'}. Now: ${formatRate(now5)} requests per second; the busiest 2 s of the last minute: ${formatRate(peak)} per second.`);
    setText(this.tableCaption, `Requests and estimated latency by verb over the ${win.label} (p50 and p99 as histogram_quantile estimates them from the buckets)`);
    this.drawTable(rows, win.spanMs > 0 || win.label.startsWith('since'));
    this.drawRates(rates, peak);
    this.updateVerbOptions(d.byVerb.map((v) => v.verb));
    const chosen = this.verbSelect.value;
    const hist = chosen ? win.verbs.find((v) => v.verb === chosen) : all.count > 0 ? all : undefined;
    this.drawBuckets(bounds, hist, chosen || 'all verbs', win.label);
    this.drawBucketTable(bounds, win.verbs);
    this.announce(now5);
  }

  private drawTable(rows: Row[], hasWindow: boolean): void {
    reconcile(this.tbody, rows, (r) => r.verb, (r) => h('tr', { class: r.verb === 'All verbs' ? 'live-latency-all' : undefined },
      h('th', { scope: 'row' }, r.verb, K8S_VERB[r.verb] ? h('span', { class: 'live-latency-k8s' }, ` ${K8S_VERB[r.verb]}`) : undefined),
      h('td'), h('td'), h('td'), h('td'), h('td')), (el, r) => {
      const cells = el.querySelectorAll('td');
      setText(cells[0]!, String(r.total));
      setText(cells[1]!, hasWindow ? String(Math.round(r.inWindow)) : '\u2013');
      setText(cells[2]!, hasWindow && r.perSecond > 0 ? formatRate(r.perSecond) : hasWindow ? '0' : '\u2013');
      setText(cells[3]!, formatSeconds(r.p50));
      setText(cells[4]!, formatSeconds(r.p99));
    });
  }

  private updateVerbOptions(verbs: string[]): void {
    const have = [...this.verbSelect.options].slice(1).map((o) => o.value);
    if (have.join() === verbs.join()) return;
    const chosen = this.verbSelect.value;
    this.verbSelect.replaceChildren(h('option', { value: '' }, 'all verbs'), ...verbs.map((v) => h('option', { value: v }, v)));
    this.verbSelect.value = verbs.includes(chosen) ? chosen : '';
  }

  /** Bars of requests per second over the last minute: a burst of work is a spike. */
  private drawRates(rates: number[], peak: number): void {
    const max = niceMax(peak);
    const left = 30;
    const top = 8;
    const width = 320 - left - 6;
    const height = 120 - top - 18;
    const bw = width / rates.length;
    const nodes: SVGElement[] = [
      s('line', { x1: left, x2: left + width, y1: top, y2: top, class: 'live-chart-grid' }),
      s('line', { x1: left, x2: left + width, y1: top + height / 2, y2: top + height / 2, class: 'live-chart-grid' }),
      s('text', { x: left - 4, y: top + 3, 'text-anchor': 'end', class: 'live-chart-label' }, formatRate(max)),
      s('text', { x: left - 4, y: top + height / 2 + 3, 'text-anchor': 'end', class: 'live-chart-label' }, formatRate(max / 2)),
      s('text', { x: left - 4, y: top + height + 3, 'text-anchor': 'end', class: 'live-chart-label' }, '0'),
    ];
    rates.forEach((r, i) => {
      const bh = (r / max) * height;
      if (bh > 0) nodes.push(s('rect', { x: left + i * bw + 1, y: top + height - bh, width: Math.max(1, bw - 2), height: bh, class: 'live-chart-bar' }));
    });
    nodes.push(
      s('line', { x1: left, x2: left + width, y1: top + height, y2: top + height, class: 'live-chart-axis' }),
      s('text', { x: left, y: 118, class: 'live-chart-label' }, '\u221260 s'),
      s('text', { x: left + width / 2, y: 118, 'text-anchor': 'middle', class: 'live-chart-label' }, '\u221230 s'),
      s('text', { x: left + width, y: 118, 'text-anchor': 'end', class: 'live-chart-label' }, 'now'),
    );
    this.rateSvg.replaceChildren(...nodes);
    const peakAt = rates.lastIndexOf(peak);
    const ago = Math.round(((rates.length - 1 - peakAt) * RATE_SPAN_MS) / rates.length / 1000);
    setAttr(this.rateSvg, 'aria-label', peak > 0
      ? `Requests per second over the last minute: at most ${formatRate(peak)} per second, ${ago === 0 ? 'now' : `${ago} s ago`}; now ${formatRate(rates.at(-1) ?? 0)} per second.`
      : 'Requests per second over the last minute: none.');
  }

  /** Bars of the window's requests per bucket (not cumulative), with p50 and p99 where histogram_quantile puts them. */
  private drawBuckets(bounds: number[], hist: VerbWindow | undefined, verb: string, windowLabel: string): void {
    setText(this.bucketCaption, `How long the ${verb === 'all verbs' ? '' : `${verb} `}requests of the ${windowLabel} took: requests per bucket (le)`);
    if (!hist || hist.count <= 0) {
      this.bucketSvg.replaceChildren(s('text', { x: 160, y: 60, 'text-anchor': 'middle', class: 'live-chart-label' }, 'No requests in this window'));
      setAttr(this.bucketSvg, 'aria-label', `Latency buckets of ${verb}: no requests in the ${windowLabel}.`);
      return;
    }
    const per = hist.buckets.map((c, i) => c - (i > 0 ? hist.buckets[i - 1]! : 0));
    const overflow = hist.count - (hist.buckets.at(-1) ?? 0);
    let last = 3;
    per.forEach((c, i) => {
      if (c > 0.5) last = Math.max(last, i);
    });
    const shown = per.slice(0, last + 1);
    const labels = bounds.slice(0, last + 1).map((b) => `\u2264${formatBound(b)}`);
    if (overflow > 0.5) {
      shown.push(overflow);
      labels.push(`>${formatBound(bounds.at(-1)!)}`);
    }
    const max = niceMax(Math.max(...shown));
    const left = 30;
    const top = 14;
    const width = 320 - left - 6;
    const height = 120 - top - 18;
    const bw = width / shown.length;
    const every = Math.ceil(shown.length / 8);
    const nodes: SVGElement[] = [
      s('line', { x1: left, x2: left + width, y1: top, y2: top, class: 'live-chart-grid' }),
      s('text', { x: left - 4, y: top + 3, 'text-anchor': 'end', class: 'live-chart-label' }, formatRate(max)),
      s('text', { x: left - 4, y: top + height + 3, 'text-anchor': 'end', class: 'live-chart-label' }, '0'),
    ];
    shown.forEach((c, i) => {
      const bh = (c / max) * height;
      if (bh > 0) nodes.push(s('rect', { x: left + i * bw + 2, y: top + height - bh, width: Math.max(1, bw - 4), height: bh, class: 'live-chart-bar' }));
      if (i % every === 0) nodes.push(s('text', { x: left + i * bw + bw / 2, y: 118, 'text-anchor': 'middle', class: 'live-chart-label' }, labels[i]!));
    });
    nodes.push(s('line', { x1: left, x2: left + width, y1: top + height, y2: top + height, class: 'live-chart-axis' }));
    // the percentiles, where histogram_quantile's interpolation puts them inside their bucket
    const p50 = histogramQuantile(0.5, bounds, hist.buckets, hist.count);
    const p99 = histogramQuantile(0.99, bounds, hist.buckets, hist.count);
    const xOf = (v: number): number => {
      const b = bounds.findIndex((u) => v <= u);
      if (b < 0) return left + width;
      const start = b > 0 ? bounds[b - 1]! : 0;
      return left + (b + (v - start) / (bounds[b]! - start)) * bw;
    };
    const marks = [{ name: 'p50', v: p50 }, { name: 'p99', v: p99 }];
    const x50 = xOf(p50);
    const x99 = xOf(p99);
    marks.forEach((m, i) => {
      const x = i === 0 ? x50 : x99;
      const close = Math.abs(x99 - x50) < 26;
      nodes.push(
        s('line', { x1: x, x2: x, y1: top - 2, y2: top + height, class: 'live-chart-mark' }),
        s('text', { x: close ? (i === 0 ? x - 2 : x + 2) : x, y: top - 4, 'text-anchor': close ? (i === 0 ? 'end' : 'start') : 'middle', class: 'live-chart-mark-label' }, m.name),
      );
    });
    this.bucketSvg.replaceChildren(...nodes);
    setAttr(this.bucketSvg, 'aria-label', `Latency buckets of ${verb} in the ${windowLabel}: ${shown.map((c, i) => `${Math.round(c)} ${labels[i]}`).join(', ')}. p50 about ${formatSeconds(p50)}, p99 about ${formatSeconds(p99)}.`);
  }

  private drawBucketTable(bounds: number[], verbs: VerbWindow[]): void {
    const head = ['le (seconds)', ...verbs.map((v) => v.verb)];
    if ([...this.bucketHead.children].map((c) => c.textContent).join() !== head.join()) {
      this.bucketHead.replaceChildren(...head.map((t) => h('th', { scope: 'col' }, t)));
    }
    let last = 3;
    for (const v of verbs) v.buckets.forEach((c, i) => {
      if (c - (i > 0 ? v.buckets[i - 1]! : 0) > 0.5) last = Math.max(last, i);
    });
    const rows = [...bounds.slice(0, last + 1).map((b, i) => ({ le: String(b), i })), { le: '+Inf', i: -1 }];
    reconcile(this.bucketBody, rows, (r) => r.le, (r) => h('tr', {}, h('th', { scope: 'row' }, r.le)), (el, r) => {
      const want = verbs.map((v) => String(Math.round(r.i < 0 ? v.count : v.buckets[r.i]!)));
      const cells = [...el.querySelectorAll('td')];
      if (cells.length !== want.length) {
        cells.forEach((c) => c.remove());
        el.append(...want.map((t) => h('td', {}, t)));
      } else cells.forEach((c, i) => setText(c, want[i]!));
    });
  }

  /** A spike (requests per second in the last 5 s well above the minute before) is news; at most every few seconds. */
  private announce(now5: number): void {
    const before = this.history.rates(70_000, 7).slice(0, 6);
    const baseline = before.reduce((a, b) => a + b, 0) / Math.max(1, before.length);
    const wall = performance.now();
    if (wall - this.lastAnnounceWall < ANNOUNCE_EVERY_MS) return;
    if (!this.spiking && now5 >= 10 && now5 >= 3 * Math.max(1, baseline)) {
      this.spiking = true;
      this.lastAnnounceWall = wall;
      setText(this.announcer, `API server load spike: ${formatRate(now5)} requests per second, up from about ${formatRate(baseline)}.`);
    } else if (this.spiking && now5 <= Math.max(5, 1.5 * baseline)) {
      this.spiking = false;
      this.lastAnnounceWall = wall;
      setText(this.announcer, `API server load back to ${formatRate(now5)} requests per second.`);
    }
  }
}
