// The events.k8s.io/v1 EventRecorder, what client-go tools/events gives kube-scheduler and
// kube-proxy: eventf(regarding, related, type, reason, action, note, args...) builds an
// events.k8s.io/v1 Event (event_recorder.go makeEvent) and the broadcaster records it
// (event_broadcaster.go recordToSink): an event isomorphic to one seen before (same type, action,
// reason, reporting controller and instance, regarding and related: the note does not count)
// becomes a series. The second occurrence is written at once (series.count 2, by PATCH); later
// ones only bump the cached count and lastObservedTime, which reach the API server when the series
// ends (finishSeries, every 6 minutes: last seen over 6 minutes ago) or on the 30-minute refresh
// (refreshExistingEventSeries). A failed write is retried up to 12 times, 10 s apart with 25%
// jitter (attemptRecording). Writes are asynchronous: the caller never waits for them.
import type { Event, EventSeries, KubeObject, ObjectReference } from '../../api/index.ts';
import { SIMULATION_EPOCH_MS, cloneJson, rfc3339Micro } from '../../api/index.ts';
import type { TimerHandle } from '../../kernel/index.ts';
import { referenceOf, sprintf } from '../record/index.ts';
import type { RestClient } from '../rest/rest-client.ts';
import type { QueueClock } from '../workqueue/rate-limiting-queue.ts';
import { recordEvent } from './sink.ts';

export const MAX_TRIES_PER_EVENT = 12;
export const EVENT_RETRY_SLEEP_MS = 10_000;
export const EVENT_RETRY_JITTER = 0.25;
/** A series not observed for this long has ended (finishTime); also the cadence of the check. */
export const SERIES_FINISH_MS = 6 * 60_000;
/** How often every open series writes its count (refreshTime). */
export const SERIES_REFRESH_MS = 30 * 60_000;

export type EventsV1Type = 'Normal' | 'Warning';

export interface EventsRecorderOptions {
  clock: QueueClock;
  /** Jitter for the retry sleeps (a forked stream of the component's RNG). */
  rng: { nextFloat(): number };
  client: RestClient;
  /** reportingController: "default-scheduler", "kube-proxy". */
  reportingController: string;
  /** reportingInstance; NewRecorder sets "<reportingController>-<hostname>" (see reportingInstanceFor). */
  reportingInstance: string;
  /** Wall-clock instant of simulated time 0 (default SIMULATION_EPOCH_MS). */
  epochMs?: number;
  /** Called with each event given up on (logs, tests). */
  onError?: (message: string) => void;
}

export interface EventsRecorder {
  /** Records an event about `regarding` (with an optional secondary object, `related`). */
  eventf(regarding: KubeObject | ObjectReference, related: KubeObject | ObjectReference | null, type: EventsV1Type, reason: string, action: string, note: string, ...args: unknown[]): void;
  /** Writes started but not yet answered (tests drive the kernel until this is 0). */
  readonly inFlight: number;
  /** Stops the finish and refresh loops (the broadcaster's Shutdown). */
  stop(): void;
}

/** eventBroadcasterImpl.NewRecorder: reportingInstance is the controller name and the hostname. */
export function reportingInstanceFor(reportingController: string, hostname: string): string {
  return `${reportingController}-${hostname}`;
}

export function createEventsRecorder(options: EventsRecorderOptions): EventsRecorder {
  return new Recorder(options);
}

/** The broadcaster's eventCache entry: the event as last recorded, with its times in simulated ms. */
interface Cached {
  event: Event;
  eventTimeMs: number;
  lastObservedMs: number;
}

class Recorder implements EventsRecorder {
  private readonly cache = new Map<string, Cached>();
  private readonly loops: { cancel(): void }[] = [];
  private writes = 0;
  private sequence = 0;
  private stopped = false;

  constructor(private readonly o: EventsRecorderOptions) {
    this.loop(SERIES_FINISH_MS, () => this.finishSeries());
    this.loop(SERIES_REFRESH_MS, () => this.refreshSeries());
  }

  get inFlight(): number {
    return this.writes;
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.loops) t.cancel();
  }

  eventf(regarding: KubeObject | ObjectReference, related: KubeObject | ObjectReference | null, type: EventsV1Type, reason: string, action: string, note: string, ...args: unknown[]): void {
    if (this.stopped) return;
    if (type !== 'Normal' && type !== 'Warning') {
      this.o.onError?.(`Unsupported event type: '${String(type)}'`);
      return;
    }
    const nowMs = this.o.clock.now();
    const event = this.makeEvent(referenceOf(regarding), related ? referenceOf(related) : undefined, nowMs, type, reason, action, sprintf(note, ...args));
    this.recordToSink(event, nowMs);
  }

  /** event_recorder.go makeEvent: named "<regarding name>.<UnixNano in hex>", in the regarding object's namespace or default. */
  private makeEvent(regarding: ObjectReference, related: ObjectReference | undefined, nowMs: number, type: EventsV1Type, reason: string, action: string, note: string): Event {
    const event: Event = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: `${regarding.name ?? ''}.${this.unixNanoHex(nowMs)}`, namespace: regarding.namespace || 'default' },
      eventTime: rfc3339Micro(nowMs, this.epochMs()),
      reportingController: this.o.reportingController,
      reportingInstance: this.o.reportingInstance,
      action,
      reason,
      regarding,
      note,
      type,
    };
    if (related) event.related = related;
    return event;
  }

  private epochMs(): number {
    return this.o.epochMs ?? SIMULATION_EPOCH_MS;
  }

  private unixNanoHex(nowMs: number): string {
    // the simulated clock has millisecond steps; a counter fills the nanoseconds so two events in
    // the same millisecond still get distinct names, as distinct time.Now() readings would
    const nanos = BigInt(Math.floor(this.epochMs() + nowMs)) * 1_000_000n + BigInt(this.sequence++ % 1_000_000);
    return nanos.toString(16);
  }

  /** recordToSink: a new event is cached and created; an isomorphic one joins (or starts) a series. */
  private recordToSink(event: Event, nowMs: number): void {
    const key = isomorphicKey(event);
    const cached = this.cache.get(key);
    if (!cached) {
      this.cache.set(key, { event, eventTimeMs: nowMs, lastObservedMs: nowMs });
      return this.attemptRecording(cloneJson(event), 1);
    }
    const lastObservedTime = rfc3339Micro(nowMs, this.epochMs());
    cached.lastObservedMs = nowMs;
    if (cached.event.series) {
      cached.event.series.count++;
      cached.event.series.lastObservedTime = lastObservedTime;
      return;
    }
    cached.event.series = { count: 2, lastObservedTime };
    this.attemptRecording(cloneJson(cached.event), 1);
  }

  /** attemptRecording: retry while recordEvent says so, up to maxTriesPerEvent. */
  private attemptRecording(event: Event, attempt: number): void {
    this.writes++;
    recordEvent(this.o.client, event, (outcome) => {
      this.writes--;
      if (outcome.written || !outcome.retry) {
        if (!outcome.written) this.o.onError?.(`Server rejected event '${event.metadata.name ?? ''}' (${outcome.reason}); will not retry`);
        return;
      }
      if (attempt >= MAX_TRIES_PER_EVENT) {
        this.o.onError?.(`Unable to write event '${event.metadata.name ?? ''}' (retry limit exceeded!)`);
        return;
      }
      const sleepMs = Math.floor(EVENT_RETRY_SLEEP_MS * (1 + EVENT_RETRY_JITTER * this.o.rng.nextFloat())); // wait.Jitter
      this.writes++; // the sleeping write still counts as in flight
      this.o.clock.setTimer(sleepMs, () => {
        this.writes--;
        if (!this.stopped) this.attemptRecording(event, attempt + 1);
      });
    });
  }

  /** finishSeries: write the final count of series not seen for 6 minutes; forget old singletons. */
  private finishSeries(): void {
    const cutoffMs = this.o.clock.now() - SERIES_FINISH_MS;
    for (const [key, entry] of this.cache) {
      if (!entry.event.series) {
        if (entry.eventTimeMs < cutoffMs) this.cache.delete(key);
        continue;
      }
      if (entry.lastObservedMs >= cutoffMs) continue;
      const sent = seriesOf(entry);
      this.writeSeries(entry, (done) => {
        // forgotten unless the write should be retried, or the series moved on meanwhile (upstream holds its lock for the write)
        if (done && this.cache.get(key) === entry && sameSeries(seriesOf(entry), sent)) this.cache.delete(key);
      });
    }
  }

  /** refreshExistingEventSeries: every open series writes its count; the answer replaces the cached copy. */
  private refreshSeries(): void {
    for (const entry of this.cache.values()) {
      if (!entry.event.series) continue;
      const sent = seriesOf(entry);
      this.writeSeries(entry, (_done, stored) => {
        if (stored && sameSeries(seriesOf(entry), sent)) entry.event = stored;
      });
    }
  }

  /** One recordEvent of a cached series, without retries (as the loops call it). */
  private writeSeries(entry: Cached, then: (done: boolean, stored?: Event) => void): void {
    this.writes++;
    recordEvent(this.o.client, cloneJson(entry.event), (outcome) => {
      this.writes--;
      if (!outcome.written && !outcome.retry) this.o.onError?.(`Server rejected event '${entry.event.metadata.name ?? ''}' (${outcome.reason}); will not retry`);
      if (outcome.written) then(true, outcome.event);
      else then(!outcome.retry);
    });
  }

  /** wait.Until: fn every periodMs (its first run, at start, has nothing to do and is skipped). */
  private loop(periodMs: number, fn: () => void): void {
    let timer: TimerHandle;
    const tick = (): void => {
      if (this.stopped) return;
      fn();
      timer = this.o.clock.setTimer(periodMs, tick);
    };
    timer = this.o.clock.setTimer(periodMs, tick);
    this.loops.push({ cancel: () => timer.cancel() });
  }
}

/** getKey: what makes two events isomorphic (the note and the event's own name do not). */
export function isomorphicKey(e: Event): string {
  return JSON.stringify([e.type ?? '', e.action ?? '', e.reason ?? '', e.reportingController ?? '', e.reportingInstance ?? '', refKey(e.regarding), refKey(e.related)]);
}

const refKey = (r: ObjectReference | undefined): string[] =>
  [r?.kind ?? '', r?.namespace ?? '', r?.name ?? '', r?.uid ?? '', r?.apiVersion ?? '', r?.resourceVersion ?? '', r?.fieldPath ?? ''];

const seriesOf = (entry: Cached): EventSeries | undefined => entry.event.series && { ...entry.event.series };
const sameSeries = (a: EventSeries | undefined, b: EventSeries | undefined): boolean =>
  a?.count === b?.count && a?.lastObservedTime === b?.lastObservedTime;
