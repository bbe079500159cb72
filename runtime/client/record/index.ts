// runtime/client/record: client-go tools/record for the simulation (EventRecorder + correlator).
export { createEventRecorder, referenceOf, EVENT_RETRY_DELAY_MS, MAX_QUEUED_EVENTS, MAX_TRIES_PER_EVENT } from './recorder.ts';
export type { EventRecorder, EventRecorderOptions, EventType } from './recorder.ts';
export { EventCorrelator, eventKey, MAX_SIMILAR_EVENTS, AGGREGATE_INTERVAL_MS, SPAM_BURST, SPAM_REFILL_MS } from './correlator.ts';
export type { Correlation } from './correlator.ts';
export { sprintf } from './format.ts';
