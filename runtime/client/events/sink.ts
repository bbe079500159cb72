// One write of an events.k8s.io/v1 Event, as client-go tools/events recordEvent makes it: a series
// is PATCHed (its count and lastObservedTime), falling back to a create when the event is gone; a
// singleton is created. Whether to try again follows the error's kind: a transport failure (no
// HTTP answer) is retried, an answer from the server (a StatusError) is not, except AlreadyExists
// for a series (the first create and the patch crossed: "a new Event is emitted twice in a very
// short period of time").
import type { Event } from '../../api/index.ts';
import type { RestClient, RestResponse } from '../rest/rest-client.ts';

export const EVENTS_GROUP = 'events.k8s.io';

export type RecordOutcome =
  | { written: true; event: Event }
  | { written: false; retry: boolean; reason: string };

/** createPatchBytesForSeries: the two-way merge patch from the event without a series to it with one. */
export function seriesPatch(event: Event): Record<string, unknown> {
  return { series: { count: event.series?.count ?? 0, lastObservedTime: event.series?.lastObservedTime ?? '' } };
}

export function recordEvent(client: RestClient, event: Event, done: (outcome: RecordOutcome) => void): void {
  const namespace = event.metadata.namespace ?? '';
  const isSeries = event.series !== undefined;
  const create = (): void => {
    // "Making sure that ResourceVersion is empty on creation"
    const { resourceVersion: _dropped, ...metadata } = event.metadata;
    client.request({ verb: 'create', group: EVENTS_GROUP, resource: 'events', namespace, body: { ...event, metadata } }, (res) => done(outcomeOf(res, isSeries)));
  };
  if (!isSeries) return create();
  client.request({
    verb: 'patch', group: EVENTS_GROUP, resource: 'events', namespace, name: event.metadata.name ?? '',
    patchType: 'application/strategic-merge-patch+json', body: seriesPatch(event),
  }, (res) => {
    // util.IsKeyNotFoundError: the event we were patching is gone (deleted, expired)
    if (res.code === 404) return create();
    done(outcomeOf(res, isSeries));
  });
}

function outcomeOf(res: RestResponse, isSeries: boolean): RecordOutcome {
  if (res.code === 200 || res.code === 201) return { written: true, event: res.body as Event };
  if (res.code === 0) return { written: false, retry: true, reason: res.transportError ?? 'no response' };
  const reason = (res.body as { reason?: string } | undefined)?.reason ?? `code ${res.code}`;
  return { written: false, retry: isSeries && res.code === 409 && reason === 'AlreadyExists', reason };
}
