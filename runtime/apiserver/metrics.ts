// Request metrics in the Prometheus text exposition format, as `kubectl get --raw /metrics` shows.
// mirrors staging/src/k8s.io/apiserver/pkg/endpoints/metrics/metrics.go: the metric names, help
// texts, label names, the bucket boundaries of apiserver_request_duration_seconds, and the
// reported verb (the HTTP method, with LIST and WATCH told apart; watches are long-running and
// stay out of the latency histogram).
import type { Verb } from './request.ts';

export const REQUEST_DURATION_BUCKETS_SECONDS: readonly number[] = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];

const REPORTED_VERB: Record<Verb, string> = {
  get: 'GET', list: 'LIST', watch: 'WATCH', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE',
};

export interface RequestLabels {
  verb: Verb;
  dryRun: boolean;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  /** "resource" (one named object), "namespace" or "cluster". */
  scope: string;
}

interface Histogram {
  labels: Record<string, string>;
  counts: number[];
  sum: number;
  count: number;
}

/** One apiserver_request_duration_seconds series as it stands: cumulative counts per bucket (le), sum and count. */
export interface DurationSeries {
  readonly labels: Readonly<Record<string, string>>;
  /** Requests at most REQUEST_DURATION_BUCKETS_SECONDS[i] long (cumulative, as the _bucket series). */
  readonly counts: readonly number[];
  readonly sum: number;
  readonly count: number;
}

const esc = (v: string): string => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labelText = (labels: Record<string, string>): string =>
  Object.keys(labels).sort().map((k) => `${k}="${esc(labels[k]!)}"`).join(',');

/** Go's strconv.FormatFloat(v, 'g', -1, 64) for the values we print. */
function num(v: number): string {
  if (Number.isInteger(v)) return String(v);
  return String(v).replace(/e([+-])(\d)$/, 'e$10$2');
}

interface Series {
  total: { value: number };
  histogram: Histogram | undefined;
}

function descend(m: Map<unknown, unknown>, key: unknown): Map<unknown, unknown> {
  let next = m.get(key) as Map<unknown, unknown> | undefined;
  if (next === undefined) m.set(key, (next = new Map()));
  return next;
}

export class ApiMetrics {
  private readonly totals = new Map<string, { labels: Record<string, string>; value: number }>();
  private readonly histograms = new Map<string, Histogram>();
  /**
   * Per label set and code: its counter, and its histogram (undefined for watches). A tree of maps,
   * one level per label, so a request finds its series without building a key string.
   */
  private readonly series = new Map<unknown, unknown>();

  /** Records one finished request. */
  observe(l: RequestLabels, code: number, durationSeconds: number): void {
    // the series first: the sorted label text is built once per series, not once per request
    let leaf = descend(this.series, l.verb);
    leaf = descend(descend(descend(leaf, l.dryRun), l.group), l.version);
    leaf = descend(descend(descend(leaf, l.resource), l.subresource), l.scope);
    let series = leaf.get(code) as Series | undefined;
    if (!series) {
      const base = {
        component: 'apiserver', dry_run: l.dryRun ? 'All' : '', group: l.group, resource: l.resource,
        scope: l.scope, subresource: l.subresource, verb: REPORTED_VERB[l.verb], version: l.version,
      };
      const totalLabels = { ...base, code: String(code) };
      const totalKey = labelText(totalLabels);
      let total = this.totals.get(totalKey);
      if (!total) this.totals.set(totalKey, (total = { labels: totalLabels, value: 0 }));
      let histogram: Histogram | undefined;
      if (l.verb !== 'watch') {
        const histogramKey = labelText(base);
        histogram = this.histograms.get(histogramKey);
        if (!histogram) this.histograms.set(histogramKey, (histogram = { labels: base, counts: REQUEST_DURATION_BUCKETS_SECONDS.map(() => 0), sum: 0, count: 0 }));
      }
      series = { total, histogram };
      leaf.set(code, series);
    }
    series.total.value++;
    const h = series.histogram;
    if (h === undefined) return;
    for (let i = 0; i < REQUEST_DURATION_BUCKETS_SECONDS.length; i++) {
      if (durationSeconds <= REQUEST_DURATION_BUCKETS_SECONDS[i]!) h.counts[i]!++;
    }
    h.sum += durationSeconds;
    h.count++;
  }

  /**
   * The apiserver_request_duration_seconds series, for observers outside the simulation
   * (runtime/cluster/observe-metrics.ts): the live counters, read-only, so reading costs no text.
   */
  durationSeries(): Iterable<DurationSeries> {
    return this.histograms.values();
  }

  /** The /metrics page. */
  expose(): string {
    const lines: string[] = [
      '# HELP apiserver_request_duration_seconds [STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      '# TYPE apiserver_request_duration_seconds histogram',
    ];
    for (const key of [...this.histograms.keys()].sort()) {
      const h = this.histograms.get(key)!;
      const l = labelText(h.labels);
      REQUEST_DURATION_BUCKETS_SECONDS.forEach((le, i) => lines.push(`apiserver_request_duration_seconds_bucket{${l},le="${num(le)}"} ${h.counts[i]}`));
      lines.push(`apiserver_request_duration_seconds_bucket{${l},le="+Inf"} ${h.count}`);
      lines.push(`apiserver_request_duration_seconds_sum{${l}} ${num(h.sum)}`);
      lines.push(`apiserver_request_duration_seconds_count{${l}} ${h.count}`);
    }
    lines.push(
      '# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      '# TYPE apiserver_request_total counter',
    );
    for (const key of [...this.totals.keys()].sort()) {
      const t = this.totals.get(key)!;
      lines.push(`apiserver_request_total{${labelText(t.labels)}} ${t.value}`);
    }
    return lines.join('\n') + '\n';
  }
}
