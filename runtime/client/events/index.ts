// runtime/client/events: client-go tools/events for the simulation (the events.k8s.io/v1 EventRecorder with series).
export {
  createEventsRecorder, isomorphicKey, reportingInstanceFor,
  EVENT_RETRY_JITTER, EVENT_RETRY_SLEEP_MS, MAX_TRIES_PER_EVENT, SERIES_FINISH_MS, SERIES_REFRESH_MS,
} from './recorder.ts';
export type { EventsRecorder, EventsRecorderOptions, EventsV1Type } from './recorder.ts';
export { recordEvent, seriesPatch, type RecordOutcome } from './sink.ts';
