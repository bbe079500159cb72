// The API servers' request latency, for the page's latency widget: apiserver_request_duration_seconds
// (apiserver/metrics.ts) summed by verb, as `sum by (verb, le) (apiserver_request_duration_seconds_bucket)`
// over the running replicas would give it, and each replica's own (a restarted replica starts its
// counters again from zero, as a real one does, and a consumer computing rates must see that).
// Read from the replicas' metric counters directly, never by scraping /metrics through the
// simulated network: looking changes nothing.
import { REQUEST_DURATION_BUCKETS_SECONDS } from '../apiserver/index.ts';
import type { ControlPlane } from './control-plane.ts';

/** apiserver_request_duration_seconds for one verb, summed over resources, scopes and the rest of the labels. */
export interface VerbDurations {
  /** The reported verb: GET, LIST, POST, PUT, PATCH, DELETE (WATCH and CONNECT have no latency histogram). */
  verb: string;
  /** Cumulative counts per upper bound of `RequestDurations.bucketsSeconds` (the _bucket series; +Inf is `count`). */
  buckets: number[];
  /** Requests (_count) and their total duration in seconds (_sum). */
  count: number;
  sumSeconds: number;
}

export interface RequestDurations {
  /** The histogram's upper bounds (le) in seconds, +Inf left out. */
  bucketsSeconds: number[];
  /** Summed over the running replicas, in VERB_ORDER (verbs with no request yet left out). */
  byVerb: VerbDurations[];
  /** Each running replica's own series, by its process name (kube-apiserver-cp-1). */
  servers: { name: string; byVerb: VerbDurations[] }[];
}

/** The verbs in the order the widgets list them: reads, then writes. */
const VERB_ORDER = ['GET', 'LIST', 'POST', 'PUT', 'PATCH', 'DELETE', 'APPLY', 'CONNECT'];

function order(verb: string): number {
  const i = VERB_ORDER.indexOf(verb);
  return i < 0 ? VERB_ORDER.length : i;
}

function emptyVerb(verb: string): VerbDurations {
  return { verb, buckets: REQUEST_DURATION_BUCKETS_SECONDS.map(() => 0), count: 0, sumSeconds: 0 };
}

function addInto(into: VerbDurations, counts: readonly number[], count: number, sum: number): void {
  for (let i = 0; i < into.buckets.length; i++) into.buckets[i]! += counts[i] ?? 0;
  into.count += count;
  into.sumSeconds += sum;
}

function sorted(m: Map<string, VerbDurations>): VerbDurations[] {
  return [...m.values()].sort((a, b) => order(a.verb) - order(b.verb) || (a.verb < b.verb ? -1 : 1));
}

/** apiserver_request_duration_seconds by verb, summed over the running API server replicas and per replica. */
export function requestDurations(controlPlane: ControlPlane): RequestDurations {
  const total = new Map<string, VerbDurations>();
  const servers: RequestDurations['servers'] = [];
  for (const replica of controlPlane.replicas) {
    const server = replica.current();
    if (!server) continue;
    const mine = new Map<string, VerbDurations>();
    for (const series of server.metrics.durationSeries()) {
      const verb = series.labels['verb'] ?? '';
      let v = mine.get(verb);
      if (!v) mine.set(verb, (v = emptyVerb(verb)));
      addInto(v, series.counts, series.count, series.sum);
      let t = total.get(verb);
      if (!t) total.set(verb, (t = emptyVerb(verb)));
      addInto(t, series.counts, series.count, series.sum);
    }
    servers.push({ name: replica.name, byVerb: sorted(mine) });
  }
  return { bucketsSeconds: [...REQUEST_DURATION_BUCKETS_SECONDS], byVerb: sorted(total), servers };
}
