// events.k8s.io/v1 Event (the newer shape; core/v1 Event is CoreEvent in core.ts).
// mirrors staging/src/k8s.io/api/events/v1/types.go
import type { KubeObject, MicroTime, Time } from './meta.ts';
import type { EventSource, ObjectReference } from './core.ts';

export interface EventSeries {
  count: number;
  lastObservedTime: MicroTime;
}

export interface Event extends KubeObject {
  apiVersion?: 'events.k8s.io/v1';
  kind?: 'Event';
  eventTime: MicroTime | null;
  series?: EventSeries;
  reportingController?: string;
  reportingInstance?: string;
  action?: string;
  reason?: string;
  regarding?: ObjectReference;
  related?: ObjectReference;
  note?: string;
  type?: 'Normal' | 'Warning' | string;
  deprecatedSource?: EventSource;
  deprecatedFirstTimestamp?: Time;
  deprecatedLastTimestamp?: Time;
  deprecatedCount?: number;
}
