// An EventRecorder, what client-go tools/record gives a component: eventf(object, type, reason,
// messageFmt, args...) builds a core/v1 Event (makeEvent in record/event.go), runs it through the
// EventCorrelator, then creates it or patches the earlier copy (recordToSink), retrying a failed
// write up to 12 times 10 s apart (maxTriesPerEvent, sleepDuration). Writes are asynchronous: the
// caller never waits for them, as with the upstream broadcaster.
import type { CoreEvent, KubeObject, ObjectReference } from '../../api/index.ts';
import { SIMULATION_EPOCH_MS, rfc3339 } from '../../api/index.ts';
import type { RestClient, RestResponse } from '../rest/rest-client.ts';
import type { QueueClock } from '../workqueue/rate-limiting-queue.ts';
import { EventCorrelator, type Correlation } from './correlator.ts';
import { sprintf } from './format.ts';

export const MAX_TRIES_PER_EVENT = 12;
export const EVENT_RETRY_DELAY_MS = 10_000;

export type EventType = 'Normal' | 'Warning';

export interface EventRecorderOptions {
  clock: QueueClock;
  client: RestClient;
  /** source.component and reportingComponent ("replicaset-controller", "default-scheduler"). */
  component: string;
  /** source.host (kubelets set it to their node name) and reportingInstance. */
  host?: string;
  /** Wall-clock instant of simulated time 0 (default SIMULATION_EPOCH_MS). */
  epochMs?: number;
  /** Called with each write failure that was given up on (for logs and tests). */
  onError?: (message: string) => void;
}

export interface EventRecorder {
  /** Records an event about object (which must carry kind and apiVersion, or be a reference). */
  eventf(object: KubeObject | ObjectReference, type: EventType, reason: string, messageFmt: string, ...args: unknown[]): void;
  /** Writes started but not yet answered (tests drive the kernel until this is 0). */
  readonly inFlight: number;
}

/** ref.GetReference: the involvedObject of an event about obj. */
export function referenceOf(object: KubeObject | ObjectReference): ObjectReference {
  if (!('metadata' in object)) return { ...object };
  const m = object.metadata;
  if (!object.kind || !object.apiVersion) {
    throw new Error(`invariant violated: an event's object names its kind and apiVersion (got ${m.namespace ?? ''}/${m.name ?? ''})`);
  }
  const ref: ObjectReference = { kind: object.kind };
  if (m.namespace) ref.namespace = m.namespace;
  if (m.name !== undefined) ref.name = m.name;
  if (m.uid !== undefined) ref.uid = m.uid;
  ref.apiVersion = object.apiVersion;
  if (m.resourceVersion !== undefined) ref.resourceVersion = m.resourceVersion;
  return ref;
}

export function createEventRecorder(options: EventRecorderOptions): EventRecorder {
  return new Recorder(options);
}

/** An event made by eventf, waiting for the single writer (the broadcaster's one goroutine). */
interface Queued {
  event: CoreEvent;
  nowMs: number;
  timestamp: string;
}

/** Events waiting to be written; past this the newest are dropped (the broadcaster's queue of 1000). */
export const MAX_QUEUED_EVENTS = 1000;

class Recorder implements EventRecorder {
  private readonly correlator = new EventCorrelator();
  private readonly queue: Queued[] = [];
  private writing = false;
  private sequence = 0;

  constructor(private readonly o: EventRecorderOptions) {}

  get inFlight(): number {
    return this.queue.length + (this.writing ? 1 : 0);
  }

  eventf(object: KubeObject | ObjectReference, type: EventType, reason: string, messageFmt: string, ...args: unknown[]): void {
    const ref = referenceOf(object);
    const nowMs = this.o.clock.now();
    const timestamp = rfc3339(nowMs, this.epochMs());
    const event = this.makeEvent(ref, type, reason, sprintf(messageFmt, ...args), timestamp, nowMs);
    if (this.queue.length >= MAX_QUEUED_EVENTS) {
      this.o.onError?.(`Event queue full, dropping event ${reason} about ${ref.name ?? ''}`);
      return;
    }
    this.queue.push({ event, nowMs, timestamp });
    if (!this.writing) this.writeNext();
  }

  /** Writes queued events one at a time, so a repeat sees the name its predecessor was stored under. */
  private writeNext(): void {
    const next = this.queue.shift();
    if (!next) {
      this.writing = false;
      return;
    }
    this.writing = true;
    const name = next.event.involvedObject.name ?? '';
    const decision = this.correlator.correlate(next.event, next.nowMs, next.timestamp, () => this.eventName(name, next.nowMs));
    if (decision.action === 'skip') return this.writeNext();
    this.write(decision, 1);
  }

  private epochMs(): number {
    return this.o.epochMs ?? SIMULATION_EPOCH_MS;
  }

  /** record/event.go makeEvent: "<object name>.<UnixNano in hex>". */
  private eventName(objectName: string, nowMs: number): string {
    // the simulated clock has millisecond steps; a counter fills the nanoseconds so two events
    // in the same millisecond still get distinct names, as distinct time.Now() readings would
    const nanos = BigInt(Math.floor(this.epochMs() + nowMs)) * 1_000_000n + BigInt(this.sequence++ % 1_000_000);
    return `${objectName}.${nanos.toString(16)}`;
  }

  private makeEvent(ref: ObjectReference, type: EventType, reason: string, message: string, timestamp: string, nowMs: number): CoreEvent {
    const source = this.o.host ? { component: this.o.component, host: this.o.host } : { component: this.o.component };
    return {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: this.eventName(ref.name ?? '', nowMs), namespace: ref.namespace || 'default' },
      involvedObject: ref,
      reason,
      message,
      source,
      firstTimestamp: timestamp,
      lastTimestamp: timestamp,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: this.o.component,
      reportingInstance: this.o.host ?? '',
    };
  }

  private write(decision: Exclude<Correlation, { action: 'skip' }>, attempt: number): void {
    const ns = decision.event.metadata.namespace ?? 'default';
    const done = (res: RestResponse): void => {
      if (res.code === 200 || res.code === 201) {
        this.correlator.observe(decision.key, res.body as CoreEvent);
        return this.writeNext();
      }
      if (decision.action === 'patch' && res.code === 404) {
        // recordToSink: the earlier event is gone; create it again under the same name
        const { resourceVersion: _dropped, ...metadata } = decision.event.metadata;
        return this.write({ action: 'create', key: decision.key, event: { ...decision.event, metadata } }, attempt);
      }
      // a rejected event (4xx: exists, forbidden, invalid) is never retried
      if ((res.code >= 400 && res.code < 500) || attempt >= MAX_TRIES_PER_EVENT) {
        this.o.onError?.(`Unable to write event '${decision.event.metadata.name ?? ''}' (code ${res.code}); will not retry`);
        return this.writeNext();
      }
      this.o.clock.setTimer(EVENT_RETRY_DELAY_MS, () => this.write(decision, attempt + 1));
    };
    if (decision.action === 'create') {
      this.o.client.request({ verb: 'create', group: '', resource: 'events', namespace: ns, body: decision.event }, done);
    } else {
      this.o.client.request({
        verb: 'patch', group: '', resource: 'events', namespace: ns, name: decision.event.metadata.name ?? '',
        patchType: 'application/strategic-merge-patch+json', body: decision.patch,
      }, done);
    }
  }
}
